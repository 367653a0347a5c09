# What the Vulkan code generator does not do yet is a NotImplementedError
# naming it, the statement and the kernel, located at the source line: here
# ti.deactivate of a pointer cell that holds sparse SNodes itself (their
# blocks would have to be released recursively, as the runtime does).
import taichi as ti

ti.init(arch=ti.vulkan)

x = ti.field(ti.i32)
outer = ti.root.pointer(ti.i, 4)
outer.pointer(ti.i, 4).place(x)


@ti.kernel
def fill():
    for i in range(16):
        x[i] = i


@ti.kernel
def drop():
    ti.deactivate(outer, 1)


fill()
print(x[5])
drop()
