import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.dynamic(ti.i, 1024, chunk_size=2**31).place(x)
