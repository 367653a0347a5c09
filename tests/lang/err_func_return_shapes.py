# A ti.func annotated with a scalar type casts what it returns (a vector
# stays a vector: func_return_scalar_annotation), but all its returns must
# have one shape (a scalar returned after a vector is broadcast): a
# TypeError at a vector returned after a scalar.
import taichi as ti

ti.init(arch=ti.cpu)


@ti.func
def first_or_all(v, first: ti.i32) -> ti.f32:
    if first:
        return v[0]
    return v


@ti.kernel
def run(first: ti.i32) -> ti.f32:
    return first_or_all(ti.Vector([1.5, 2.5]), first)


print(run(1))
