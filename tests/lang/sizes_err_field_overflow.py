import taichi as ti
ti.init(arch=ti.cpu)
# Each dimension is indexable, but the element count overflows int64.
x = ti.field(ti.f32, shape=(4, 2**31 - 1, 2**31 - 1))
x.fill(1)
