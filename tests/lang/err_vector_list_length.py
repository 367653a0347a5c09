import taichi as ti

ti.init(arch=ti.cpu)


@ti.kernel
def run() -> ti.f32:
    R = ti.Vector([0.0, 0.0])
    R = [1.0, 2.0, 3.0]
    return R[0]


print(run())
