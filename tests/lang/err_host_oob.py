import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=(8, 8))
x[7, 7] = 1.0
print(x[7, 7])
x[8, 0] = 2.0
