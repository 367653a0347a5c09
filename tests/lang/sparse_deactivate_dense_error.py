# ti.deactivate needs a sparse SNode.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
d = ti.root.dense(ti.i, 4)
d.place(x)

@ti.kernel
def bad():
    ti.deactivate(d, 1)

bad()
