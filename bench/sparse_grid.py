# sparse_grid: a 512x512 domain of 8x8 pointer blocks, about 10% of the
# blocks active, ten sweeps of x[i, j] += 1 over the active cells. Each sweep
# regenerates the lists (seed 001) before it runs; the runtime times list
# generation, so listgen and sweep are reported apart. Prints checksums and times.
import taichi as ti
import time
import sys
ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = 512
B = 8
x = ti.field(ti.i32)
block = ti.root.pointer(ti.ij, N // B)
block.dense(ti.ij, B).place(x)

@ti.kernel
def activate():
    # a fixed pseudo-random tenth of the 64x64 blocks
    for bi, bj in ti.ndrange(N // B, N // B):
        h = (bi * 7919 + bj * 104729) % 1000
        if h < 100:
            x[bi * B, bj * B] = 0

@ti.kernel
def sweep():
    for i, j in x:
        x[i, j] += 1

@ti.kernel
def total() -> ti.i32:
    s = 0
    for i, j in x:
        s += x[i, j] + (i * N + j) % 3
    return s

activate()
sweep()  # warm-up (compiles the kernel)
lg0 = ti.statistics()["listgen_time_ms"]
t = time.perf_counter()
for _ in range(10):
    sweep()
ti.sync()  # on a GPU, launches may still run
dt = (time.perf_counter() - t) * 1000
lg = ti.statistics()["listgen_time_ms"] - lg0
print("checksum", total())
print("time_ms", dt)
print("listgen_ms", lg)
print("sweep_ms", dt - lg)
