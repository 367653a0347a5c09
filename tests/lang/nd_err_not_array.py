# an ndarray parameter takes arrays, not lists
import taichi as ti

ti.init(arch=ti.cpu)


@ti.kernel
def total(a: ti.types.ndarray()) -> ti.i32:
    s = 0
    for i in a:
        s += a[i]
    return s


print(total([1, 2, 3]))
