import taichi as ti
ti.init(arch=ti.cpu)

@ti.func
def sq(x):
    return x * x

@ti.func
def sum_sq(a, b) -> ti.f32:
    return sq(a) + sq(b)

@ti.kernel
def run(a: ti.f32, b: ti.f32) -> ti.f32:
    return ti.sqrt(sum_sq(a, b))

print(run(3.0, 4.0))
