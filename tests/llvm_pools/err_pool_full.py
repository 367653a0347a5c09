# A device pool with its share of ti.init(device_memory_GB) (32 KiB blocks,
# about 30 of them in 1 MiB): the activation that needs one block too many is
# a MemoryError after the launch naming the SNode, its capacity and the knob.
import taichi as ti

ti.init(device_memory_GB=0.001)

x = ti.field(ti.f32)
blk = ti.root.pointer(ti.i, 64)
blk.dense(ti.i, 8192).place(x)


@ti.kernel
def touch(n: ti.i32):
    for b in range(n):
        x[b * 8192] = b


touch(16)
print(ti.statistics()["snode_activations"])
touch(40)
