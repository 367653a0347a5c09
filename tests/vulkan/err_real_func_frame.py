# A recursive ti.real_func whose frame would hold more than 256 variables
# (here a 300-element vector live across the recursive call): a
# NotImplementedError naming the function, not a wrong result.
import taichi as ti

ti.init(arch=ti.vulkan)


@ti.real_func
def wide(n: ti.i32) -> ti.i32:
    v = ti.Vector([n + k for k in ti.static(range(300))])
    r = 0
    if n > 0:
        r = wide(n - 1)
    return r + v.sum()


@ti.kernel
def run() -> ti.i32:
    return wide(3)


print(run())
