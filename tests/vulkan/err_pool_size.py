# Pointer and dynamic SNodes on Vulkan reserve every block they can hold in
# the tree's device buffer up front (shaders address it in u32 bytes): a tree
# that would need more than 2 GiB is a MemoryError naming the size, raised
# when the tree is laid out, not a crash in a shader.
import taichi as ti

ti.init(arch=ti.vulkan)

x = ti.field(ti.f32)
ti.root.pointer(ti.ij, 4096).dense(ti.ij, 64).place(x)


@ti.kernel
def touch():
    x[5, 7] = 1.0


touch()
