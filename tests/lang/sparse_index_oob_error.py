# SNode operations check their indices like field accesses do, against the SNode's own shape.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
blk = ti.root.pointer(ti.i, 4)
blk.dense(ti.i, 4).place(x)

@ti.kernel
def probe(i: ti.i32) -> ti.i32:
    return ti.is_active(blk, i)

print(probe(3))
print(probe(4))
