import taichi as ti

ti.init(arch=ti.cpu)


@ti.real_func
def add(a: ti.i32, b: ti.i32):
    return a + b


@ti.kernel
def run():
    add(30, 2)


run()
