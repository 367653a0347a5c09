# 1 << 40 is a Python int of 41 bits: as a literal it does not fit default_ip.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i64, shape=())

@ti.kernel
def k():
    x[None] = 1 << 40

k()
