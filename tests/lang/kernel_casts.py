import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def casts() -> ti.i32:
    a = 3.7
    b = ti.cast(a, ti.i32)
    c = int(-3.7)
    d = ti.cast(2.9, ti.i32)
    return b * 100 + c * 10 + d

@ti.kernel
def tofloat() -> ti.f32:
    a = 3
    return float(a) / 2

print(casts(), tofloat())
