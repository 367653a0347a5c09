import taichi as ti
ti.init(arch=ti.cpu)
a = ti.field(ti.i32, shape=3)
b = ti.field(ti.f32, shape=4)

@ti.kernel
def fill(f: ti.template(), v: ti.f32):
    for i in f:
        f[i] = v * (i + 1)

fill(a, 2.7)
fill(b, 0.5)
print([a[i] for i in range(3)], [b[i] for i in range(4)])
