# Diamonds that update a sum in both arms (`if k[i] > 2: s += k[i] else:
# s -= k[i] * 2`): the JIT if-converts them and writes the select of two
# integer sums as one sum of a select (s + sel(c, a, -b): the same bits, as
# both wrap), which runs in vector lanes. i32 sums that wrap, an i64 sum, a
# u32 sum, a sum with two counters, and an f32 diamond (kept a guard: its
# sums are not reordered). Each line is checked against a plain Python
# reference.
import taichi as ti
ti.init(arch=ti.cpu)
N = 300
k = ti.field(ti.i32, shape=N)
u = ti.field(ti.u32, shape=N)
x = ti.field(ti.f32, shape=N)


@ti.kernel
def fill(seed: ti.i32):
    for i in k:
        h = ((i + seed) * 1103515245 + 12345) & 0x7fffffff
        v = (h >> 8) % 21 - 10
        k[i] = v * 150000000 if i % 5 == 0 else v
        u[i] = ti.cast(h, ti.u32) * ti.u32(3)
        x[i] = ti.cast(v, ti.f32) * 0.25


@ti.kernel
def diamond(m: ti.i32) -> ti.i32:
    s = 7
    for i in range(m):
        if k[i] > 2:
            s += k[i]
        else:
            s -= k[i] * 2
    return s


@ti.kernel
def diamond64(m: ti.i32) -> ti.i64:
    s = ti.i64(-5)
    for i in range(m):
        if k[i] < 0:
            s -= ti.cast(k[i], ti.i64) * 3
        else:
            s += ti.cast(k[i], ti.i64) + 1
    return s


@ti.kernel
def diamond_u32(m: ti.i32) -> ti.u32:
    s = ti.u32(1)
    for i in range(m):
        if u[i] % 2 == 1:
            s += u[i]
        else:
            s -= u[i] >> 1
    return s


@ti.kernel
def two(m: ti.i32) -> ti.i32:
    a = 0
    b = 0
    for i in range(m):
        if k[i] % 3 == 0:
            a += k[i]
            b -= 1
        else:
            a -= 2
            b += k[i]
    return a * 7 + b


@ti.kernel
def fdiamond(m: ti.i32) -> ti.f32:
    s = 0.0
    for i in range(m):
        if x[i] > 0:
            s += x[i]
        else:
            s -= x[i] * 2.0
    return s


def wrap(v, bits, signed):
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v


def reference(m):
    ks = [k[i] for i in range(m)]
    us = [u[i] for i in range(m)]
    xs = [x[i] for i in range(m)]
    d = wrap(7 + sum(v if v > 2 else -2 * v for v in ks), 32, True)
    d64 = -5 + sum(-3 * v if v < 0 else v + 1 for v in ks)
    du = wrap(1 + sum(v if v % 2 == 1 else -(v >> 1) for v in us), 32, False)
    a = sum(v if v % 3 == 0 else -2 for v in ks)
    b = sum(-1 if v % 3 == 0 else v for v in ks)
    f = sum(v if v > 0 else -2 * v for v in xs)
    return d, d64, du, wrap(a * 7 + b, 32, True), f


for seed in (0, 9):
    for m in (0, 1, 2, 7, 8, 9, 15, 16, 17, 33, 100, N):
        fill(seed)
        want = reference(m)
        got = (diamond(m), diamond64(m), diamond_u32(m), two(m), fdiamond(m))
        print(seed, m, " ".join(str(v) for v in got), "ok" if list(got) == list(want) else f"reference {want}")
