# A small sparse grid: values only where written, sums over active cells.
import taichi as ti
ti.init(arch=ti.cpu)
n = 64
x = ti.field(ti.f32)
ti.root.pointer(ti.ij, n // 8).dense(ti.ij, 8).place(x)

@ti.kernel
def circle():
    for i, j in ti.ndrange(n, n):
        if (i - 32) ** 2 + (j - 32) ** 2 < 100:
            x[i, j] = 1.0

@ti.kernel
def stats() -> ti.f32:
    s = 0.0
    for i, j in x:
        s += x[i, j] + 0.5
    return s

circle()
print(stats())
