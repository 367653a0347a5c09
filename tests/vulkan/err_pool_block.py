# A pool gets at least one block: a tree whose containers and one block of
# each pointer/dynamic SNode's pool pass the 2 GiB device window is a
# MemoryError when the tree is laid out.
import taichi as ti

ti.init(arch=ti.vulkan)

x = ti.field(ti.f64)
ti.root.pointer(ti.i, 4).dense(ti.i, 1 << 28).place(x)


@ti.kernel
def touch():
    x[5] = 1.0


touch()
