# A block_dim past the device's workgroup limit is a ValueError naming both
# (the CPU engines take any chunk size: tests/lang/loop_config_block_dim).
import taichi as ti

ti.init(arch=ti.vulkan)
x = ti.field(ti.i32, shape=8)


@ti.kernel
def run():
    ti.loop_config(block_dim=65536)
    for i in x:
        x[i] = i


run()
print(x.to_numpy().tolist())
