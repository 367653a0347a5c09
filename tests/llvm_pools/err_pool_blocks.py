# Device pools (KILN_DEVICE_POOLS=1 here; arch=cuda always) share
# ti.init(device_memory_GB) per tree when every block they could need does
# not fit it; a tree whose pools cannot have one block each within it is a
# MemoryError naming them when the tree is laid out, before any launch.
import taichi as ti

ti.init(device_memory_GB=0.001)

x = ti.field(ti.f32)
ti.root.pointer(ti.i, 4).dense(ti.i, 1 << 20).place(x)


@ti.kernel
def touch():
    x[5] = 1


touch()
