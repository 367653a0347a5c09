# ti.activate / ti.is_active on pointer and bitmasked SNodes, full-resolution indices.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ptr = ti.root.pointer(ti.i, 4)
bm = ptr.bitmasked(ti.i, 4)
bm.place(x)

@ti.kernel
def run():
    print(ti.is_active(ptr, 5), ti.is_active(bm, 5))
    ti.activate(bm, 5)
    print(ti.is_active(ptr, 5), ti.is_active(ptr, 4), ti.is_active(bm, 5), ti.is_active(bm, 6))
    ti.activate(ptr, 13)
    print(ti.is_active(ptr, 12), ti.is_active(bm, 13))

run()
