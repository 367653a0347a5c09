# A dynamic SNode's chunk_size must be positive.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.dynamic(ti.i, 16, chunk_size=0).place(x)
