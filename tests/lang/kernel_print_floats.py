import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def show(a: ti.f32, b: ti.f64, c: ti.i64, d: ti.u8):
    print(a, b)
    print(c, d)
    print("half:", a / 2)

show(1.5, 0.1, -12345678901, 200)
