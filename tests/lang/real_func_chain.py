# ti.real_func calls that stay calls, calling each other without recursion:
# a function calls another (so neither is inlined), passes an ndarray on
# through two levels, loops with early returns inside a loop, prints, and
# is called from a parallel loop. On Vulkan each function is a SPIR-V
# function of the task's module (gpu/vulkan/codegen_call.cpp).
import numpy as np
import taichi as ti

ti.init(arch=ti.cpu)


@ti.real_func
def first_negative(a: ti.types.ndarray(ndim=1), start: ti.i32) -> ti.i32:
    for i in range(start, a.shape[0]):
        if a[i] < 0:
            return i
    return -1


@ti.real_func
def clear_from(a: ti.types.ndarray(ndim=1), start: ti.i32) -> ti.i32:
    k = first_negative(a, start)
    if k < 0:
        return 0
    a[k] = -a[k] * 10
    return k + 1


@ti.real_func
def steps(n: ti.i32) -> ti.i32:
    s = 0
    while n != 1:
        if s > 50:
            return -1
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        s += 1
    return s


@ti.real_func
def describe(i: ti.i32, v: ti.i32) -> ti.i32:
    if v < 0:
        print("cell", i, "gives up")
        return 0
    return steps(v) * 2


@ti.kernel
def sweep(a: ti.types.ndarray(ndim=1)) -> ti.i32:
    at = 0
    n = 0
    while True:
        at = clear_from(a, at)
        if at == 0:
            break
        n += 1
    return n


out = ti.field(ti.i32, shape=12)


@ti.kernel
def fill():
    for i in out:
        out[i] = describe(i, steps(i + 1) if i != 5 else -1)


a = ti.ndarray(ti.f32, shape=8)
a.from_numpy(np.array([1, -2, 3, -4, -5, 6, 7, -8], dtype=np.float32))
print(sweep(a), a.to_numpy().tolist())
fill()
print(out.to_numpy().tolist())
