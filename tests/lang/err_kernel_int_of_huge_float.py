import taichi as ti

ti.init(arch=ti.cpu)


@ti.kernel
def f() -> ti.i32:
    return int(1e30)


print(f())
