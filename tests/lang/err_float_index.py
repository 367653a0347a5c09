import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=8)

@ti.kernel
def run():
    for i in range(8):
        x[i / 2] = 1.0

run()
