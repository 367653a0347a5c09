# Recursive ti.real_func calls from inside control flow: calls in the
# branches of ifs, in for and while loops (the loop goes on after the call
# returns), early returns from a loop, mutual recursion with results of
# different types, several results, a print between calls, a recursive call
# per element of a parallel loop, and locals that live across the calls.
# (On Vulkan these run on an explicit stack of frames: a frame resumes
# inside the loops and ifs it left.)
import taichi as ti

ti.init(arch=ti.cpu)

out = ti.field(ti.i32, shape=12)


@ti.real_func
def sum_digits_rec(n: ti.i32) -> ti.i32:
    r = 0
    if n >= 10:
        r = sum_digits_rec(n // 10) + n % 10
    else:
        r = n
    return r


@ti.real_func
def paths(n: ti.i32) -> ti.i32:
    # ways to climb n steps by 1, 2 or 3: a call per pass of a loop
    if n == 0:
        return 1
    total = 0
    for step in range(1, 4):
        if step <= n:
            total += paths(n - step)
    return total


@ti.real_func
def collatz_depth(n: ti.i32, limit: ti.i32) -> ti.i32:
    d = 0
    m = n
    while m != 1:
        if d >= limit:
            return -1
        if m % 2 == 0:
            m //= 2
        else:
            return collatz_depth(3 * m + 1, limit - d - 1) + d + 1
        d += 1
    return d


@ti.real_func
def first_deep(n: ti.i32) -> ti.i32:
    # returns from inside the loop when a call says so
    for i in range(n):
        if first_deep(i) >= 2:
            return i + 100
    return n


@ti.real_func
def half(x: ti.f32, n: ti.i32) -> ti.f64:
    r = ti.f64(x)
    if n > 0:
        r = twice(x * 0.5, n - 1) * 0.25
    return r


@ti.real_func
def twice(x: ti.f32, n: ti.i32) -> ti.f64:
    return half(x * 2.0, n) + ti.f64(n)


@ti.real_func
def minmax(a: ti.template(), lo: ti.i32, hi: ti.i32) -> (ti.i32, ti.i32):
    if lo == hi:
        return a[lo], a[lo]
    mid = (lo + hi) // 2
    l0, l1 = minmax(a, lo, mid)
    r0, r1 = minmax(a, mid + 1, hi)
    return ti.min(l0, r0), ti.max(l1, r1)


@ti.real_func
def countdown(n: ti.i32) -> ti.i32:
    if n == 0:
        return 0
    print("down", n)
    k = countdown(n - 1)
    print("up", n, k)
    return k + n


@ti.kernel
def serial() -> ti.i32:
    a = sum_digits_rec(987654321)
    b = paths(10)
    c = collatz_depth(27, 1000)
    d = collatz_depth(27, 50)
    e = first_deep(6)
    return a + b * 100 + c * 100000 + d * 1000000 + e * 10000000


@ti.kernel
def mixed() -> ti.f64:
    return half(3.0, 5) + twice(1.5, 2)


@ti.kernel
def ranges() -> ti.i32:
    lo, hi = minmax(out, 0, 11)
    return lo * 1000 + hi


@ti.kernel
def talk() -> ti.i32:
    return countdown(3)


@ti.kernel
def per_element():
    for i in out:
        out[i] = paths(i) + collatz_depth(i + 1, 200) * 10000


for i in range(12):
    out[i] = (i * 7) % 12 - 3
print(serial())
print(mixed())
print(ranges())
print(talk())
per_element()
print(out.to_numpy().tolist())
