# An index out of range on the device is the CPU engines' IndexError (field,
# index, shape, with the user's index offset), raised after the task; what
# the kernel printed before the bad access is printed first.
import taichi as ti

ti.init(arch=ti.vulkan)
x = ti.field(ti.i32, shape=(4, 5))


@ti.kernel
def walk(k: ti.i32):
    for i in range(4):
        print("row", i)
        x[i, i + k] = 1


walk(0)
print(x.to_numpy().sum())
walk(2)
