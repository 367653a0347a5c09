# What the Vulkan code generator does not do yet is a NotImplementedError
# naming it, the statement and the kernel, located at the source line.
import taichi as ti

ti.init(arch=ti.vulkan)
x = ti.field(ti.f32, shape=8)


@ti.kernel
def noisy():
    for i in x:
        x[i] = ti.random()


noisy()
