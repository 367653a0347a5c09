# A struct-for over a sparse field must be the outermost loop.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.pointer(ti.i, 4).place(x)

@ti.kernel
def bad():
    for k in range(2):
        for i in x:
            x[i] += k

bad()
