import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=2.5)
