# ti.activate is a kernel intrinsic.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
blk = ti.root.pointer(ti.i, 4)
blk.place(x)
ti.activate(blk, 1)
