import taichi as ti
ti.init(arch=ti.cpu)
a = ti.field(ti.i32, shape=(2, 3))
b = ti.field(ti.f32, shape=5)

@ti.kernel
def fill():
    for i, j in a:
        a[i, j] = i + 2 * j
    for k in b:
        b[k] = k * 0.5

fill()
print([[a[i, j] for j in range(3)] for i in range(2)])
print([b[k] for k in range(5)])
