# ti.no_activate takes SNodes or fields.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.pointer(ti.i, 4).place(x)

@ti.kernel
def bad():
    ti.no_activate(4)
    x[0] = 1

bad()
