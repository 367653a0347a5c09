import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def ops() -> ti.i32:
    a = 7
    a *= 3
    a //= 2
    a %= 7
    a **= 3
    a -= 1
    a |= 16
    a ^= 1
    a &= 0xFE
    return a

@ti.kernel
def tup() -> ti.i32:
    a = 1
    b = 2
    a, b = b, a
    return a * 10 + b

@ti.kernel
def pw() -> ti.f32:
    return 2 ** 10 + 2.0 ** -1

print(ops(), tup(), pw())
