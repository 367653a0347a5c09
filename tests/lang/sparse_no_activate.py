# ti.no_activate(snode) promises that the kernel writes active cells only;
# the results are those of the same kernel without it.
import taichi as ti
ti.init(arch=ti.cpu)
n = 64
x = ti.field(ti.i32)
d = ti.root.dynamic(ti.i, n, chunk_size=8)
d.place(x)
p = ti.field(ti.f32)
blk = ti.root.pointer(ti.i, 8)
blk.dense(ti.i, 4).place(p)


@ti.kernel
def fill():
    for i in range(n):
        x[i] = 1
    for i in range(8):
        p[i] = i


@ti.kernel
def bump():
    ti.no_activate(d, p)
    for i in range(n // 2):
        x[i * 2 + 1] += 1
    for i in range(8):
        p[i] *= 2


fill()
bump()
print(sum(x[i] for i in range(n)), x[0], x[1], [p[i] for i in range(8)])
