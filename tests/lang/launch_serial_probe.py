# The launcher times each launch of a range_for or struct-for that could run
# on the pool, and runs a short one on the launching thread when that measured
# faster (vm/interp/launch_mode.h): across many launches a task switches ways,
# probes the other now and then, and goes back to parallel when its work
# grows. The results are the same whichever way each launch ran.
import taichi as ti
ti.init(arch=ti.cpu, cpu_max_num_threads=4)
N = 4096
x = ti.field(ti.i32, shape=N)
total = ti.field(ti.i64, shape=())
g = ti.field(ti.i32)
blk = ti.root.pointer(ti.i, 64)
blk.dense(ti.i, 64).place(g)

@ti.kernel
def bump(n: ti.i32):
    for i in range(n):
        x[i] += 1
        total[None] += i

@ti.kernel
def x_sum() -> ti.i64:
    s = ti.i64(0)
    for i in x:
        s += ti.i64(x[i]) * (i + 1)
    return s

@ti.kernel
def activate(first: ti.i32, last: ti.i32):
    for b in range(first, last):
        g[b * 64] = 0

@ti.kernel
def sweep():
    for i in g:
        g[i] += i % 7 + 1

@ti.kernel
def g_sum() -> ti.i64:
    s = ti.i64(0)
    for i in g:
        s += g[i]
    return s

sizes = [300, 4096, 1000, 257, 2000]
want_x = [0] * N
want_total = 0
for k in range(400):
    n = sizes[k % len(sizes)]
    bump(n)
    for i in range(n):
        want_x[i] += 1
    want_total += n * (n - 1) // 2
want_sum = 0
for i in range(N):
    want_sum += want_x[i] * (i + 1)
print("range_for", x_sum() == want_sum, total[None] == want_total, total[None])

# 4 blocks for 150 sweeps, then all 64 for 150 more (the work grows 16x)
want = [0] * (64 * 64)
activate(0, 4)
for k in range(300):
    if k == 150:
        activate(4, 64)
    sweep()
    active = 4 if k < 150 else 64
    for i in range(active * 64):
        want[i] += i % 7 + 1
print("struct_for", g_sum() == sum(want), g_sum())
