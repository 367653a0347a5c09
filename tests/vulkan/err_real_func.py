# A recursive ti.real_func on the device: refused with the backend named
# and the cycle of calls (SPIR-V has no recursion), not miscompiled.
# Non-recursive calls run (tests/lang/real_func_chain).
import taichi as ti

ti.init(arch=ti.vulkan)


@ti.real_func
def is_even(n: ti.i32) -> ti.i32:
    if n == 0:
        return 1
    return is_odd(n - 1)


@ti.real_func
def is_odd(n: ti.i32) -> ti.i32:
    if n == 0:
        return 0
    return is_even(n - 1)


@ti.kernel
def run(n: ti.i32) -> ti.i32:
    return is_even(n)


print(run(10))
