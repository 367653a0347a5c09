import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=(4, 8))
y = ti.field(dtype=ti.i32, shape=5)
x.fill(1.25)
y.fill(7)
print(x.shape, y.shape, x[3, 7], y[4])
print(x.dtype, y.dtype)
