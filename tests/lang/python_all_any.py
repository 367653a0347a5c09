import taichi as ti

ti.init(arch=ti.cpu)


@ti.kernel
def check(a: ti.f32) -> ti.i32:
    v = ti.Vector([a, 1.0, 2.0])
    r = 0
    if all(v == ti.Vector([a, 1.0, 2.0])):  # Python's all()/any() of a vector, as in Taichi
        r += 1
    if any(v < 0.5):
        r += 10
    if all(a):
        r += 100
    return r


print(check(0.0), check(3.0))
