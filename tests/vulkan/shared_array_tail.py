# ti.simt.block.SharedArray and sync() over a range that is not a multiple
# of block_dim: the last block is short, its threads past the end leave the
# loop (on CUDA they exit, and a barrier waits only for threads that have
# not exited), and the block's other threads still pass their barriers.
import taichi as ti

ti.init(arch=ti.vulkan)

block_dim = 64
N = 1000  # 15 full blocks, then 40 iterations
x = ti.field(ti.i32, shape=N)
y = ti.field(ti.i32, shape=N)


@ti.kernel
def fill():
    for i in x:
        x[i] = (i * 37) % 101


@ti.kernel
def neighbours():
    # each iteration reads its block neighbour's value through the block's tile
    ti.loop_config(block_dim=block_dim)
    for i in range(N):
        tid = i % block_dim
        tile = ti.simt.block.SharedArray((block_dim,), ti.i32)
        tile[tid] = x[i]
        ti.simt.block.sync()
        j = (tid + 1) % block_dim
        base = i - tid
        v = 0
        if base + j < N:
            v = tile[j]
        ti.simt.block.sync()
        y[i] = v


fill()
neighbours()
ok = 0
for i in range(N):
    tid = i % block_dim
    j = (tid + 1) % block_dim
    base = i - tid
    want = x[base + j] if base + j < N else 0
    ok += int(y[i] == want)
print("iterations right:", ok, "of", N)
