import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=(8, 8))

@ti.kernel
def run():
    x[1] = 2.0

run()
