# ti.append works on dynamic SNodes only.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.pointer(ti.i, 4).place(x)

@ti.kernel
def bad():
    ti.append(x.parent(), [], 1)

bad()
