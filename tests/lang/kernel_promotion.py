import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def f1() -> ti.f32:
    a = 7
    b = 2.0
    return a / b

@ti.kernel
def f2() -> ti.i32:
    return 7 // 2

@ti.kernel
def f3() -> ti.f32:
    return 7 / 2

@ti.kernel
def f4() -> ti.i32:
    return -7 // 2

@ti.kernel
def f5() -> ti.i32:
    return -7 % 2

@ti.kernel
def f6() -> ti.f32:
    return -7.5 % 2

print(f1(), f2(), f3(), f4(), f5(), f6())
