# A loop that uses ti.simt runs as CUDA blocks of block_dim threads: a
# block_dim past CUDA's 1024 is a ValueError at the loop (the CPU engines
# take any chunk size: tests/lang/loop_config_block_dim). Checked where the
# PTX is made, so `KILN_ARCH=cuda kiln dis --ptx` raises it without a GPU.
import taichi as ti

ti.init(arch=ti.cuda)
x = ti.field(ti.f32, shape=4096)


@ti.kernel
def tiles():
    ti.loop_config(block_dim=2048)
    for i in range(4096):
        pad = ti.simt.block.SharedArray((2048,), ti.f32)
        pad[i % 2048] = x[i]
        ti.simt.block.sync()
        x[i] = pad[(i + 1) % 2048]


tiles()
