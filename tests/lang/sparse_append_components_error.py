# Appending to a vector field's list takes a whole vector.
import taichi as ti
ti.init(arch=ti.cpu)
v = ti.Vector.field(3, ti.f32)
ti.root.dense(ti.i, 4).dynamic(ti.j, 8).place(v)

@ti.kernel
def bad():
    v[0].append(ti.Vector([1.0, 2.0]))

bad()
