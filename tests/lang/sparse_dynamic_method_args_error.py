# x[i].append takes the value to append, and nothing else.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.dense(ti.i, 4).dynamic(ti.j, 8).place(x)

@ti.kernel
def bad():
    x[1].append()

bad()
