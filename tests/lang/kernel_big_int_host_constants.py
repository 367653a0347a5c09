# Host constants above 2 ** 63 reach kernels exactly (CPython's ints are
# unbounded; Kiln's compile-time ints keep 128 bits). The built-in evaluator's
# ints are 64-bit: there the constant itself is the error.
import taichi as ti

ti.init(arch=ti.cpu)
BIG = 2 ** 64 - 1
HALF = 2 ** 63


@ti.kernel
def pair() -> ti.types.vector(2, ti.u64):
    return ti.Vector([ti.u64(BIG), ti.u64(HALF + 5)])


@ti.kernel
def as_float() -> ti.f64:
    return float(BIG + 1) / HALF


print(pair(), pair()[0] == BIG)
print(as_float())
