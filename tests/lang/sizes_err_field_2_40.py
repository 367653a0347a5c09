import taichi as ti
ti.init(arch=ti.cpu)
# Indices are 32-bit: a dimension of 2**40 cannot be indexed (and 2**80
# elements would overflow any count).
x = ti.field(ti.f32, shape=(2**40, 2**40))
x.fill(1)
