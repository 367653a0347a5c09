# Reductions in a struct-for over a sparse field (each piece of the active
# list gets its own accumulator) and over ti.ndrange.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
blocks = ti.root.pointer(ti.i, 64)
blocks.dense(ti.i, 32).place(x)
grid = ti.field(ti.f32, shape=(300, 40))
peak = ti.field(ti.f32, shape=())

@ti.kernel
def activate():
    for i in range(64 * 32):
        if (i // 32) % 3 == 0:
            x[i] = i % 11 + 1

@ti.kernel
def sparse_sum() -> ti.i64:
    s = ti.i64(0)
    for i in x:
        s += x[i]
    return s

@ti.kernel
def sparse_stats() -> ti.types.vector(3, ti.i32):
    lo = 1000
    hi = -1000
    cells = 0
    for i in x:
        ti.atomic_min(lo, x[i] * 2 - 7)
        ti.atomic_max(hi, x[i] * 2 - 7)
        cells += 1
    return ti.Vector([lo, hi, cells])

@ti.kernel
def fill_grid():
    for i, j in grid:
        grid[i, j] = (i * 3 + j) % 17 * 0.5

@ti.kernel
def nd_sum() -> ti.f32:
    s = 0.0
    for i, j in ti.ndrange((2, 300), 40):
        s += grid[i, j]
    return s

@ti.kernel
def nd_peak():
    for i, j in ti.ndrange(300, (5, 40)):
        ti.atomic_max(peak[None], grid[i, j] + i * 0.25)

activate()
print(sparse_sum())
v = sparse_stats()
print(v[0], v[1], v[2])
fill_grid()
print(nd_sum())
peak[None] = -1.0
nd_peak()
print(peak[None])
