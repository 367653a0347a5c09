import taichi as ti

ti.init(arch=ti.cpu)


@ti.func
def half(v: ti.f32) -> ti.f32:
    w = v / 2


@ti.kernel
def run() -> ti.f32:
    return half(3.0)


print(run())
