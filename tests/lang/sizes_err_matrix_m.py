import taichi as ti
ti.init(arch=ti.cpu)
x = ti.Matrix.field(2, -1, ti.f32, shape=4)
x.fill(1)
