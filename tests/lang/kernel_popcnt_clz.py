import taichi as ti
ti.init(arch=ti.cpu)
out = ti.field(ti.i32, shape=8)


@ti.kernel
def bits():
    for i in range(8):
        out[i] = ti.math.popcnt(i * 37) * 100 + ti.math.clz(i * 37)


@ti.kernel
def narrow() -> ti.i32:
    a = ti.u8(3)
    b = ti.i8(-1)
    return ti.math.clz(a) * 100 + ti.math.popcnt(b)


bits()
print([out[i] for i in range(8)])
print(narrow())
print(ti.math.popcnt(255), ti.math.clz(1))
