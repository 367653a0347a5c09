import taichi as ti
ti.init(arch=ti.cpu)
# 2**40 components would be 2**40 scalar fields: refused at once.
x = ti.Matrix.field(2**20, 2**20, ti.f32, shape=4)
x.fill(1)
