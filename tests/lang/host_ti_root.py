# ti.root layouts built on the host
import taichi as ti
ti.init(arch=ti.cpu)

a = ti.field(ti.i32)
b = ti.field(ti.f32)
c = ti.field(ti.i32)
ti.root.dense(ti.i, 4).place(a, b)
ti.root.dense(ti.ij, (2, 3)).place(c)

@ti.kernel
def fill():
    for i in a:
        a[i] = i * 2
        b[i] = i / 2
    for i, j in c:
        c[i, j] = i * 100 + j

fill()
print(a.shape, b.shape, c.shape)
print([a[i] for i in range(4)], [b[i] for i in range(4)])
print([[c[i, j] for j in range(3)] for i in range(2)])
