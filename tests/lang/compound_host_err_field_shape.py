import taichi as ti
ti.init(arch=ti.cpu)
x = ti.Vector.field(4, ti.f32, shape=2)
x[0] = ti.Vector([1, 2, 3, 4])
print(x[0])
x[1] = ti.Vector([1, 2, 3])
