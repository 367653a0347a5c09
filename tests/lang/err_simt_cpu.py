# ti.simt's GPU-only language (block-shared arrays, block barriers, subgroup
# operations) is a ValueError naming the arch on the CPU engines, as in
# Taichi; it compiles with ti.init(arch=ti.vulkan) (tests/vulkan/shared_array)
# and arch=ti.cuda (the same program with KILN_ARCH=cuda).
import taichi as ti

ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=64)


@ti.kernel
def tiled():
    ti.loop_config(block_dim=32)
    for i in range(64):
        pad = ti.simt.block.SharedArray((32,), ti.f32)
        pad[i % 32] = i
        ti.simt.block.sync()
        x[i] = pad[31 - i % 32]


tiled()
