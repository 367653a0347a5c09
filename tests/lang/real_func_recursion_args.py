# Recursive ti.real_func calls (more of real_func_recursion_flow): calls in
# a while loop's condition and before continue/break, calls in nested loops,
# f64 and u8 arguments and results (wrapping), and an ndarray argument passed
# down the recursion, read and written at the leaves.
import taichi as ti
ti.init(arch=ti.cpu)

@ti.real_func
def walk(n: ti.i32) -> ti.i32:
    c = 0
    i = 0
    while i < n and walk(i // 2) < 50:
        i += 1
        if walk(i // 3) % 3 == 0:
            continue
        c += 1
        if c > 4:
            break
    return c + n

@ti.real_func
def nested(n: ti.i32) -> ti.i32:
    s = 0
    for i in range(n):
        for j in range(i):
            if (i + j) % 3 == 0:
                s += nested(j)
            else:
                s += j
    return s

@ti.real_func
def f64chain(x: ti.f64, n: ti.i32) -> ti.f64:
    r = x
    if n > 0:
        r = f64chain(x * 1.5, n - 1) - x
    return r

@ti.real_func
def u8step(v: ti.u8, n: ti.i32) -> ti.u8:
    r = v
    if n > 0:
        r = u8step(v + ti.u8(77), n - 1)
    return r

@ti.kernel
def run() -> ti.f64:
    return walk(9) * 1.0 + nested(7) * 1000 + f64chain(0.1, 20) + ti.cast(u8step(ti.u8(3), 10), ti.f64) * 1e6

print(repr(run()))

@ti.real_func
def tree_sum(a: ti.types.ndarray(ndim=1), lo: ti.i32, hi: ti.i32) -> ti.f32:
    r = 0.0
    if lo == hi:
        r = a[lo]
        a[lo] = lo * 2.0
    else:
        mid = (lo + hi) // 2
        r = tree_sum(a, lo, mid) + tree_sum(a, mid + 1, hi)
    return r

@ti.kernel
def run_nd(a: ti.types.ndarray(ndim=1)) -> ti.f32:
    return tree_sum(a, 0, a.shape[0] - 1)

arr = ti.ndarray(ti.f32, shape=10)
arr.fill(1.5)
print(run_nd(arr), arr.to_numpy().tolist())
