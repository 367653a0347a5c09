import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def k() -> ti.f32:
    return ti.random(ti.i8)

print(k())
