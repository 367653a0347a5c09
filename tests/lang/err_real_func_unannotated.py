import taichi as ti

ti.init(arch=ti.cpu)


@ti.real_func
def add(a, b: ti.i32) -> ti.i32:
    return a + b


@ti.kernel
def run() -> ti.i32:
    return add(1, 2)


print(run())
