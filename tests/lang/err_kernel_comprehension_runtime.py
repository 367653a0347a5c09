import taichi as ti

ti.init(arch=ti.cpu)
n = ti.field(ti.i32, shape=())


@ti.kernel
def bad() -> ti.i32:
    v = ti.Vector([k for k in range(n[None])])
    return v[0]


print(bad())
