# An inlined ti.func annotated with a scalar type casts what it returns, as
# Taichi's ti.cast does: elementwise, so a vector returned under `-> ti.f32`
# stays a vector (Taichi's eulerfluid2d example returns a field's 2-vector
# from `vel_with_boundary(...) -> ti.f32`).
import taichi as ti

ti.init(arch=ti.cpu)

vel = ti.Vector.field(2, ti.f32, shape=(4, 4))


@ti.func
def vel_with_boundary(vf: ti.template(), i: int, j: int) -> ti.f32:
    if i <= 0 or j <= 0 or i >= 3 or j >= 3:
        vf[i, j] = ti.Vector([0.0, 0.0])
    return vf[i, j]


@ti.func
def scaled(x, k) -> ti.i32:
    return x * k


@ti.func
def first_sign(x) -> ti.f64:
    if x[0] < 0:
        return -x
    return x


@ti.kernel
def run():
    for i, j in vel:
        vel[i, j] = ti.Vector([i + 0.25, j + 0.5])
    for i in range(4):
        v = vel_with_boundary(vel, i, 1)
        print(i, v, v.n)
    w = scaled(ti.Vector([1.5, -2.5, 3.75]), 2)
    print(w, w.n)
    print(scaled(2.75, 2))
    y = first_sign(ti.Vector([-1.0, 2.0]))
    z = first_sign(ti.Vector([3.0, 4.0]))
    print(y, z)


run()
