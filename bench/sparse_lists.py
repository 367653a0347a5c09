# sparse_lists: a list per cell (ti.root.dense(ti.i, 4096).dynamic(ti.j,
# 1024)). One kernel appends 2^20 values (256 per list, the lists taken in
# turn, so threads contend on each list's length), then ten sweeps update
# every listed value (a struct-for over the lists' cells). Prints a checksum,
# the time, and the append and sweep phases; takes the thread count as its
# first argument.
import taichi as ti
import time
import sys
ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
M = 4096
T = 1 << 20
val = ti.field(ti.i32)
lists = ti.root.dense(ti.i, M).dynamic(ti.j, 1024, chunk_size=64)
lists.place(val)

@ti.kernel
def fill():
    for k in range(T):
        ti.append(lists, [(k * 13) % M], k % 1000)

@ti.kernel
def sweep():
    for i, j in val:
        val[i, j] = (val[i, j] * 3 + i) % 1001

@ti.kernel
def total() -> ti.i64:
    s = 0
    for i, j in val:
        s += val[i, j]
    return s

fill()  # warm-up (compiles the kernels)
sweep()
lists.deactivate_all()
t = time.perf_counter()
fill()
t1 = time.perf_counter()
for _ in range(10):
    sweep()
t2 = time.perf_counter()
print("checksum", total())
print("time_ms", (t2 - t) * 1000)
print("append_ms", (t1 - t) * 1000)
print("sweep_ms", (t2 - t1) * 1000)
