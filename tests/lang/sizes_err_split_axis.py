import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32)
# Two levels over ti.i compose into one index of 2**16 * 2**16 = 2**32.
ti.root.dense(ti.i, 2**16).dense(ti.i, 2**16).place(x)
x.fill(1)
