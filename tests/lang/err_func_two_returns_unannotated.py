import taichi as ti

ti.init(arch=ti.cpu)


@ti.func
def safe_sqrt(a):
    if a > 0:
        return ti.sqrt(a)
    else:
        return 0.0


@ti.kernel
def run(a: ti.f32):
    print(safe_sqrt(a))


run(4.0)
