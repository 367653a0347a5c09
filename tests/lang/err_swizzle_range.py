import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run() -> ti.f32:
    v = ti.Vector([1.0, 2.0])
    return v.z

print(run())
