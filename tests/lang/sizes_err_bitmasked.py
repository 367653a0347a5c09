import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32)
ti.root.bitmasked(ti.ij, (2**40, 2**40)).place(x)
x.fill(1)
