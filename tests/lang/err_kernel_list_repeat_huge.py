import taichi as ti

ti.init(arch=ti.cpu)


@ti.kernel
def f() -> ti.f32:
    big = [0.0] * 100000
    return big[0]


print(f())
