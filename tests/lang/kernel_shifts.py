import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def sh() -> ti.i32:
    a = -16
    return a >> 2

@ti.kernel
def ush() -> ti.u32:
    a = ti.u32(4294967280)
    return a >> 2

@ti.kernel
def lsh() -> ti.i32:
    return 3 << 4

@ti.kernel
def bshr() -> ti.i32:
    return ti.bit_shr(-16, 28)

print(sh(), ush(), lsh(), bshr())
