import taichi as ti
ti.init(arch=ti.cpu)
a = ti.field(ti.i32)
b = ti.field(ti.f32)
ti.root.dense(ti.i, 4).place(a, b)
c = ti.field(ti.i32)
ti.root.dense(ti.ij, (2, 3)).place(c)

@ti.kernel
def run():
    for i in a:
        a[i] = i
        b[i] = i / 4
    for i, j in c:
        c[i, j] = i * 3 + j

run()
print([a[i] for i in range(4)], [b[i] for i in range(4)])
print(c.shape, [c[1, j] for j in range(3)])
