import taichi as ti
ti.init(arch=ti.cpu)


@ti.kernel
def k(x: ti.i32) -> ti.i32:
    return ti.max(*x, 1)


print(k(3))
