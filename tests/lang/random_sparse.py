# ti.random in a struct-for over a sparse field: one stream per active cell.
import taichi as ti
ti.init(arch=ti.cpu, random_seed=3)
x = ti.field(ti.f32)
ti.root.pointer(ti.ij, 8).dense(ti.ij, 8).place(x)

@ti.kernel
def act():
    for i, j in ti.ndrange(64, 64):
        if (i // 8 + j // 8) % 3 == 0:
            x[i, j] = 0.0

@ti.kernel
def fill():
    for i, j in x:
        x[i, j] = ti.random()

@ti.kernel
def stats() -> ti.types.vector(2, ti.f32):
    s = 0.0
    c = 0
    for i, j in x:
        s += x[i, j]
        c += 1
    return ti.Vector([s / c, c])

act()
fill()
m = stats()
print(abs(m[0] - 0.5) < 0.03, m[1])
