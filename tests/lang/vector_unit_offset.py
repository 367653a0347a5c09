# ti.Vector.unit(n, i) in a kernel is an integer vector (Taichi's dt=None is
# int), so it offsets a grouped index: a 2-D and a 3-D neighbour sum as in
# Taichi's mgpcg examples. With a dtype it is a vector of that type.
import taichi as ti

ti.init(arch=ti.cpu)

x = ti.field(ti.f32, shape=(4, 4))
y = ti.field(ti.f32, shape=(3, 3, 3))


@ti.func
def neighbour_sum(f, I, dim: ti.template()):
    ret = 0.0
    for i in ti.static(range(dim)):
        offset = ti.Vector.unit(dim, i)
        ret += f[I + offset] + f[I - offset]
    return ret


@ti.kernel
def run() -> ti.f32:
    for I in ti.grouped(x):
        x[I] = I[0] * 4 + I[1]
    for I in ti.grouped(y):
        y[I] = I[0] * 9 + I[1] * 3 + I[2]
    u = ti.Vector.unit(3, 2, ti.f32) * 0.5
    print(ti.Vector.unit(3, 1), u)
    return neighbour_sum(x, ti.Vector([1, 2]), 2) + neighbour_sum(y, ti.Vector([1, 1, 1]), 3)


print(run())
