# A struct-for numbers the cells its target can have in an i32 on the device.
# Past 2^31 - 1 it walks the blocks of a pointer level instead when only dense
# levels lie below it (tests/lang/sparse_huge_domain); a bitmasked level below
# the pointer is a NotImplementedError at the loop, not a loop cut short.
import taichi as ti

ti.init(arch=ti.vulkan)

x = ti.field(ti.i8)
ti.root.pointer(ti.ij, 1024).bitmasked(ti.ij, 64).place(x)


@ti.kernel
def count() -> ti.i32:
    n = 0
    for i, j in x:
        n += 1
    return n


x[3, 4] = 1
print(count())
