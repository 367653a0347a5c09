import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def m() -> ti.f32:
    return ti.sqrt(2.0)

@ti.kernel
def m64(x: ti.f64) -> ti.f64:
    return ti.sqrt(x) + ti.floor(x) + ti.ceil(x)

@ti.kernel
def mm() -> ti.i32:
    return ti.max(1, 7, 3) * 10 + ti.min(4, 2, 9)

@ti.kernel
def ab() -> ti.i32:
    return abs(-5) + ti.abs(-2)

print(m())
print(m64(2.25))
print(mm(), ab())
