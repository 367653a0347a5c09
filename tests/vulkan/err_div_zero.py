# Integer division by zero on the device: ZeroDivisionError, as on the CPU.
import taichi as ti

ti.init(arch=ti.vulkan)


@ti.kernel
def div(a: ti.i32, b: ti.i32) -> ti.i32:
    return a // b + a % (b + 1)


print(div(7, 2), div(-7, 2))
print(div(1, 0))
