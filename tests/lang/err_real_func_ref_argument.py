import taichi as ti

ti.init(arch=ti.cpu)


@ti.real_func
def set_to(a: ti.ref(ti.f32), v: ti.f32):
    a = v


@ti.kernel
def run():
    x = 1.0
    set_to(x + 1, 3)


run()
