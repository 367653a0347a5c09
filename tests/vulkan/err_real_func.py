# ti.real_func on the device: refused with the backend named (SPIR-V has no
# recursion), not miscompiled.
import taichi as ti

ti.init(arch=ti.vulkan)


@ti.real_func
def triangle(n: ti.i32) -> ti.i32:
    if n == 0:
        return 0
    return triangle(n - 1) + n


@ti.kernel
def run(n: ti.i32) -> ti.i32:
    return triangle(n)


print(run(10))
