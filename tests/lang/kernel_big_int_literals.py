# Compile-time integers beyond 64 bits in kernels, as Python computes them:
# 2 ** 64 - 1 is the largest u64, float(2 ** 64) is 1.8446744073709552e19.
# (kernel_big_int_host_constants: host constants above 2 ** 63.)
import taichi as ti

ti.init(arch=ti.cpu)


@ti.kernel
def top():
    # printed by the kernel: the built-in host's own ints are 64-bit signed
    print(ti.u64(2 ** 64 - 1), ti.u64(2 ** 63 + 5), ti.i64(-(2 ** 63)))


@ti.kernel
def floats() -> ti.f64:
    return float(2 ** 64) / float(2 ** 63) + (2 ** 70 // 2 ** 68)


@ti.kernel
def compare() -> ti.i32:
    r = 0
    if ti.static(2 ** 64 - 1 < 2 ** 64):
        r += 1
    if ti.static(-(2 ** 64) < -(2 ** 64) + 1):
        r += 10
    if ti.static((1 << 100) >> 99 == 2):
        r += 100
    return r


@ti.kernel
def low_bits() -> ti.i64:
    return ti.i64((2 ** 64 + 7) % 2 ** 64) + ti.i64(-(2 ** 63))


top()
print(floats())
print(compare())
print(low_bits())
