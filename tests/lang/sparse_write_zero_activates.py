# Writing 0 activates too: activation follows the write, not the value.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32)
ti.root.bitmasked(ti.i, 16).place(x)

@ti.kernel
def write_zeros():
    x[3] = 0.0
    x[12] = 0

@ti.kernel
def active() -> ti.i32:
    n = 0
    for i in x:
        n += 1
    return n

write_zeros()
print(active(), x[3], x[12])
