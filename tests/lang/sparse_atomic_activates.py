# An atomic update of an inactive cell activates it and starts from 0.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.pointer(ti.i, 4).bitmasked(ti.i, 4).place(x)

@ti.kernel
def bump() -> ti.i32:
    old = ti.atomic_add(x[10], 5)
    x[11] -= 2
    x[3] = ti.max(x[3], 4)
    return old

@ti.kernel
def active() -> ti.i32:
    n = 0
    for i in x:
        n += 1
    return n

print(bump(), x[10], x[11], x[3], active())
