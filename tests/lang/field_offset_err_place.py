# place(x, offset=...) needs one entry per dimension the SNode gives x.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.dense(ti.ij, 4).place(x, offset=(1, 2, 3))
