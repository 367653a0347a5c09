# ti.activate / ti.is_active on pointer and bitmasked SNodes, each SNode's own coordinates
# (a pointer of 4 cells takes 0..3, its bitmasked child of 4x4 cells 0..15).
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ptr = ti.root.pointer(ti.i, 4)
bm = ptr.bitmasked(ti.i, 4)
bm.place(x)

@ti.kernel
def run():
    print(ti.is_active(ptr, 1), ti.is_active(bm, 5))
    ti.activate(bm, 5)
    print(ti.is_active(ptr, 1), ti.is_active(ptr, 0), ti.is_active(bm, 5), ti.is_active(bm, 6))
    ti.activate(ptr, 3)
    print(ti.is_active(ptr, 3), ti.is_active(bm, 13))

run()
