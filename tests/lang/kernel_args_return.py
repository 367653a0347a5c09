import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def add(a: ti.i32, b: ti.f32) -> ti.f32:
    return a + b

@ti.kernel
def mul(a: ti.i64, b: ti.i64) -> ti.i64:
    return a * b

@ti.kernel
def half(a: ti.f64) -> ti.f64:
    return a / 2

print(add(1, 2.5))
print(add(2, 0.1))
print(mul(3000000000, 3))
print(half(0.1))
