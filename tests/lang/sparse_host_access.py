# Host writes activate; host reads of inactive cells give 0 without activating.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32)
blk = ti.root.pointer(ti.i, 4)
blk.dense(ti.i, 4).place(x)

@ti.kernel
def active() -> ti.i32:
    n = 0
    for i in blk:
        n += 1
    return n

print(x[9], active())
x[9] = 1.5
print(x[9], x[8], active())
print([x[i] for i in range(16)])
