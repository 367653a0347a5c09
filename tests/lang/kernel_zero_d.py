import taichi as ti
ti.init(arch=ti.cpu)
c = ti.field(ti.f64, shape=())

@ti.kernel
def inc(v: ti.f64):
    c[None] = c[None] + v

c[None] = 1.5
inc(0.25)
inc(0.25)
print(c[None])
