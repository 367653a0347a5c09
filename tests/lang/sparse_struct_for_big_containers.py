# Struct-fors over containers of more than a few thousand cells run in ranges
# of cells (spread over the threads): every active cell is visited once, with
# its own indices, whatever the container kind.
import taichi as ti
ti.init(arch=ti.cpu, cpu_max_num_threads=4)
bm = ti.field(ti.i32)
ti.root.bitmasked(ti.i, 100000).place(bm)
ptr = ti.field(ti.i32)
ti.root.pointer(ti.i, 50000).place(ptr)
dyn = ti.field(ti.i32)
ti.root.dynamic(ti.i, 30000, chunk_size=1000).place(dyn)
grid = ti.field(ti.i32)
ti.root.pointer(ti.i, 3).dense(ti.ij, (70, 110)).place(grid)
seen = ti.field(ti.i32, shape=100000)

@ti.kernel
def fill():
    for k in range(100000):
        if k % 3 == 0:
            bm[k] = k
        if k % 7 == 1 and k < 50000:
            ptr[k] = k
    for k in range(25001):
        dyn[k] = k
    grid[5, 7] = 1
    grid[150, 3] = 1

@ti.kernel
def visit() -> ti.i64:
    for i in bm:
        seen[i] += bm[i] - i + 1
    n = ti.cast(0, ti.i64)
    for i in ptr:
        n += ptr[i] == i
    for i in dyn:
        n += (dyn[i] == i) * 100000
    return n

@ti.kernel
def grid_sum() -> ti.i64:
    s = ti.cast(0, ti.i64)
    for i, j in grid:
        s += i * 1000 + j + grid[i, j] * 1000000000
    return s

@ti.kernel
def bad() -> ti.i32:
    b = 0
    for k in range(100000):
        if seen[k] != (k % 3 == 0):
            b += 1
    return b

fill()
n = visit()
print(n % 100000, n // 100000, bad())
# pointer cells 0 (i < 70) and 2 (140 <= i < 210) are active: 2 * 70 * 110 cells
exp = sum(i * 1000 + j for i in list(range(70)) + list(range(140, 210)) for j in range(110)) + 2 * 10**9
print(grid_sum() == exp)
