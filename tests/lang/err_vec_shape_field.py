import taichi as ti
ti.init(arch=ti.cpu)
x = ti.Vector.field(4, ti.f32, shape=8)

@ti.kernel
def run():
    for i in x:
        x[i] = ti.Vector([1.0, 2.0, 3.0])

run()
