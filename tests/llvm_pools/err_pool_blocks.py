# Device pools (KILN_DEVICE_POOLS=1 here; arch=cuda and arch=vulkan always)
# reserve every block a pointer or dynamic SNode can hold, and their headers
# count blocks in u32: an SNode that could hold more is a MemoryError naming
# it when the tree is laid out, not a wrapped count in the device's code.
import taichi as ti

ti.init()

x = ti.field(ti.i8)
ti.root.pointer(ti.i, 1 << 17).pointer(ti.j, 1 << 16).place(x)


@ti.kernel
def touch():
    x[5, 7] = 1


touch()
