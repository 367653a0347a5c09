# A real function that never stops recursing: a RecursionError at the call,
# not a crash.
import taichi as ti

ti.init(arch=ti.cpu)


@ti.real_func
def forever(n: ti.i32) -> ti.i32:
    return forever(n + 1) + 1


@ti.kernel
def run() -> ti.i32:
    return forever(0)


print(run())
