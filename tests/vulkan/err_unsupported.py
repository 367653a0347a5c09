# What the Vulkan code generator does not do yet is a NotImplementedError
# naming it, the statement and the kernel, located at the source line.
import taichi as ti

ti.init(arch=ti.vulkan)
x = ti.field(ti.f32)
ti.root.pointer(ti.i, 4).dense(ti.i, 8).place(x)


@ti.kernel
def fill():
    for i in range(32):
        x[i] = i


fill()
