# f64 draws carry more than f32's 24 bits; the default type follows default_fp.
import taichi as ti
ti.init(arch=ti.cpu, default_fp=ti.f64)

fine = ti.field(ti.i32, shape=())

@ti.kernel
def count(n: ti.i32):
    for i in range(n):
        d = ti.random(ti.f64)
        # an f32 draw is a multiple of 2**-24; an f64 one almost never is
        if d * 16777216.0 != ti.floor(d * 16777216.0):
            fine[None] += 1

@ti.kernel
def default_type() -> ti.f64:
    s = 0.0
    for i in range(1000):
        s += ti.random()
    return s / 1000

count(1000)
print(fine[None] > 990)
print(0.4 < default_type() < 0.6)
