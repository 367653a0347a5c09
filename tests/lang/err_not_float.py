import taichi as ti
ti.init(arch=ti.cpu)


@ti.kernel
def negate(x: ti.f32) -> ti.i32:
    a = not (x > 0.5)  # a comparison is an integer: fine
    return a + (not x)


print(negate(1.0))
