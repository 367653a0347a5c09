# A vector field under a pointer: one activation covers all components.
import taichi as ti
ti.init(arch=ti.cpu)
v = ti.Vector.field(3, ti.f32)
blk = ti.root.pointer(ti.i, 4)
blk.dense(ti.i, 4).place(v)

@ti.kernel
def set_one():
    v[6] = ti.Vector([1.0, 2.0, 3.0])

@ti.kernel
def norm_sum() -> ti.f32:
    s = 0.0
    for i in v:
        s += v[i].sum()
    return s

set_one()
print(norm_sum(), v[6], v[5], v[9])
