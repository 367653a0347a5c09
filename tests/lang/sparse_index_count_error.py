# ti.is_active takes as many indices as the SNode has.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
blk = ti.root.pointer(ti.ij, 4)
blk.place(x)

@ti.kernel
def bad() -> ti.i32:
    return ti.is_active(blk, [1, 2, 3])

print(bad())
