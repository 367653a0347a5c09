# ti.simt.warp (CUDA's, by Taichi's names) and ti.simt.block.sync_*_nonzero:
# shuffles, votes, ballot, match and the warp barrier over full warps of 32
# lanes (block_dim a multiple of 32), each checked against the lanes it reads.
import taichi as ti

ti.init(arch=ti.cuda)

N = 256
a = ti.field(ti.i32, N)
sums = ti.field(ti.i32, N // 32)
bad = ti.field(ti.i32, shape=())
votes = ti.field(ti.i32, 512)


@ti.kernel
def shuffles():
    ti.loop_config(block_dim=64)
    for i in range(N):
        lane = i % 32
        m = ti.u32(0xFFFFFFFF)
        if ti.simt.warp.shfl_sync_i32(m, i, 0) != i - lane:
            bad[None] += 1
        if ti.simt.warp.shfl_sync_f32(m, i * 0.5, 31) != (i - lane + 31) * 0.5:
            bad[None] += 2
        # A lane whose source is outside the warp keeps its own value (CUDA's shfl).
        if ti.simt.warp.shfl_down_i32(m, i, 1) != ti.select(lane < 31, i + 1, i):
            bad[None] += 4
        if ti.simt.warp.shfl_up_i32(m, i, 2) != ti.select(lane >= 2, i - 2, i):
            bad[None] += 8
        if ti.simt.warp.shfl_down_f32(m, i * 0.25, 4) != ti.select(lane < 28, i + 4, i) * 0.25:
            bad[None] += 16
        if ti.simt.warp.shfl_up_f32(m, i * 0.25, 3) != ti.select(lane >= 3, i - 3, i) * 0.25:
            bad[None] += 32
        if ti.simt.warp.shfl_xor_i32(m, i, 5) != i ^ 5:
            bad[None] += 64


@ti.kernel
def warp_sum():
    # Taichi's warp reduction: halving shfl_down steps leave lane 0 the warp's sum.
    ti.loop_config(block_dim=32)
    for i in range(N):
        v = a[i]
        for k in ti.static([16, 8, 4, 2, 1]):
            v += ti.simt.warp.shfl_down_i32(ti.u32(0xFFFFFFFF), v, k)
        if i % 32 == 0:
            sums[i // 32] = v


@ti.kernel
def warp_votes():
    ti.loop_config(block_dim=64)
    for i in range(N):
        lane = i % 32
        m = ti.u32(0xFFFFFFFF)
        if ti.simt.warp.all_nonzero(m, 1) != 1 or ti.simt.warp.all_nonzero(m, lane < 31) != 0:
            bad[None] += 1
        if ti.simt.warp.any_nonzero(m, lane == 7) != 1 or ti.simt.warp.any_nonzero(m, 0) != 0:
            bad[None] += 2
        if ti.simt.warp.unique(m, i // 32 + 1) != 1 or ti.simt.warp.unique(m, lane < 16) != 0:
            bad[None] += 4
        if ti.cast(ti.simt.warp.ballot(lane % 2 == 0), ti.u32) != ti.u32(0x55555555):
            bad[None] += 8
        if ti.cast(ti.simt.warp.active_mask(), ti.u32) != m:
            bad[None] += 16
        # the lanes holding the same value: a byte of the mask per group of 8
        group = ti.cast(ti.simt.warp.match_any(m, lane // 8), ti.u32)
        if group != ti.u32(0xFF) << ti.u32(8 * (lane // 8)):
            bad[None] += 32
        if ti.cast(ti.simt.warp.match_all(m, i // 32), ti.u32) != m or ti.simt.warp.match_all(m, lane) != 0:
            bad[None] += 64
        ti.simt.warp.sync(m)


@ti.kernel
def block_votes():
    ti.loop_config(block_dim=128)
    for i in range(512):
        t = i % 128
        count = ti.simt.block.sync_count_nonzero(t % 3 == 0)  # 43 of 0..127
        every = ti.simt.block.sync_all_nonzero(t < 200)
        some = ti.simt.block.sync_any_nonzero(t == 127)
        none = ti.simt.block.sync_any_nonzero(0)
        votes[i] = count * 1000 + every * 100 + some * 10 + none


shuffles()
print("shuffle checks failed:", bad[None])
for i in range(N):
    a[i] = i
warp_sum()
print("warp sums:", sums.to_numpy().tolist())
bad[None] = 0
warp_votes()
print("vote checks failed:", bad[None])
block_votes()
vs = votes.to_numpy().tolist()
print("block votes:", [v for i, v in enumerate(vs) if v not in vs[:i]])  # (no set() on the built-in host)
