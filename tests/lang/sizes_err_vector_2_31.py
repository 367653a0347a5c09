import taichi as ti
ti.init(arch=ti.cpu)
x = ti.Vector.field(2**31, ti.f32, shape=4)
x.fill(1)
