# A serialized struct-for visits active cells in index order.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.pointer(ti.i, 8).bitmasked(ti.i, 4).place(x)

@ti.kernel
def show():
    x[29] = 1
    x[2] = 1
    x[17] = 1
    x[18] = 1

@ti.kernel
def walk():
    ti.loop_config(serialize=True)
    for i in x:
        print(i)

show()
walk()
