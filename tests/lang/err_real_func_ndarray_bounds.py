# An ndarray index out of bounds inside a ti.real_func: the IndexError names
# the shape the function received, at the access in the function.
import taichi as ti

ti.init(arch=ti.cpu)


@ti.real_func
def at(a: ti.types.ndarray(ndim=2), i: ti.i32, j: ti.i32) -> ti.f32:
    if i < -100:
        return 0.0
    return a[i, j]


@ti.kernel
def run(a: ti.types.ndarray(ndim=2), k: ti.i32) -> ti.f32:
    return at(a, 1, k)


a = ti.ndarray(ti.f32, shape=(3, 4))
print(run(a, 3))
print(run(a, 4))
