# A float raised to an integer power known at compile time is
# multiplications, as Taichi demotes it: x ** 3 is x * (x * x) bit for bit,
# x ** -2 is 1 / (x * x), x ** 0 is 1; on vectors element by element. A
# float or runtime exponent stays pow.
import taichi as ti

ti.init(arch=ti.cpu)

x = ti.field(ti.f32, shape=64)
same = ti.field(ti.i32, shape=())
same_vec = ti.field(ti.i32, shape=())


@ti.kernel
def check(e: ti.i32) -> ti.f32:
    for i in x:
        r = 0.37 + i * 1.013
        ok = r ** 3 == r * (r * r) and r ** -2 == 1.0 / (r * r) and r ** 0 == 1.0 and r ** 5 == r * ((r * r) * (r * r))
        if ok:
            same[None] += 1
        x[i] = r ** 3
        w = ti.Vector([r, r + 0.5, -r])  # a run-time vector: the same multiplications per element
        if all(w ** 3 == w * (w * w)) and all(w ** -2 == 1.0 / (w * w)):
            same_vec[None] += 1
    v = ti.Vector([1.5, 2.0, -3.0]) ** 2
    print(v, ti.Vector([2.0, 4.0]) ** -1)
    return 2.0 ** e + 2.0 ** 0.5


print(check(10))
print(same[None], x[63], same_vec[None])
