# A pointer SNode whose every block would not fit ti.init(device_memory_GB):
# 4096 blocks of 16 KiB (64 MiB) under a 10 MiB budget. Device pools
# (arch=cuda, KILN_DEVICE_POOLS=1) get a share of the budget (about 600
# blocks) instead of every block (docs/cuda_sparse.md); a program that keeps
# fewer blocks active runs as on the CPU, and blocks it deactivates are
# taken again by other cells.
import taichi as ti

ti.init(arch=ti.cpu, device_memory_GB=0.01)
x = ti.field(ti.f32)
blk = ti.root.pointer(ti.i, 4096)
blk.dense(ti.i, 4096).place(x)


@ti.kernel
def touch(first: ti.i32, step: ti.i32):
    for k in range(300):
        x[(first + k * step) * 4096 + k % 4096] = k + 1


@ti.kernel
def total() -> ti.f32:
    s = 0.0
    for i in x:
        s += x[i]
    return s


@ti.kernel
def blocks() -> ti.i32:
    n = 0
    for b in blk:
        n += 1
    return n


@ti.kernel
def drop(first: ti.i32, step: ti.i32):
    for k in range(300):
        ti.deactivate(blk, [first + k * step])


for rnd in range(4):
    touch(rnd, 4)
    print(rnd, total(), blocks())
    drop(rnd, 4)
print(total(), blocks())
