# i64 floor division and modulo by constants in hot loops whose dividends
# change sign (issue 16): on the JIT a non-negative dividend takes the
# multiply-and-shift path in the loop, a negative one the divide placed
# after the loop's code; both paths run in one trace here. Checked against
# plain Python; every engine prints the same.
import taichi as ti
ti.init(arch=ti.cpu)


@ti.kernel
def mixed(lo: ti.i32, hi: ti.i32) -> ti.i64:
    s = ti.i64(0)
    ti.loop_config(serialize=True)
    for i in range(lo, hi):
        x = ti.i64(i) * ti.i64(7919) - ti.i64(i % 5) * ti.i64(100003)
        s += x % 7 + x // 13 + (x * x) % 1000003 - x // (ti.i64(1) << 40)
    return s


@ti.kernel
def squares(n: ti.i32) -> ti.i64:
    s = ti.i64(0)
    ti.loop_config(serialize=True)
    for i in range(n):
        s += ti.i64(i) * ti.i64(i) % 7
    return s


def py_mixed(lo, hi):
    s = 0
    for i in range(lo, hi):
        x = i * 7919 - (i % 5) * 100003
        s += x % 7 + x // 13 + (x * x) % 1000003 - x // (1 << 40)
    return s


a = mixed(-3000, 3000)
b = squares(5000)
print("mixed", a, a == py_mixed(-3000, 3000))
print("squares", b, b == sum(i * i % 7 for i in range(5000)))

# Remainders by 2^j - 1 and 2^j + 1 take shifts instead of a multiply on the
# JIT (x -+ q - (q << j)); dividends up to 2^63 - 1 and negative ones.
DIVS = (3, 5, 7, 9, 15, 17, 31, 33, 127, 255, 257, 65535, 65537, 2**31 - 1, 2**31 + 1, 2**32 - 1,
        2**32 + 1, 2**40 + 1, 2**61 - 1, 2**62 + 1, 6, 10, 1000)  # (2^j -+ 1, and others that multiply)
vals = ti.field(ti.i64, shape=64)


@ti.kernel
def rems() -> ti.i64:
    s = ti.i64(0)
    ti.loop_config(serialize=True)
    for i in range(64 * 4):  # (the trace runs from the 57th iteration on: every value passes it)
        x = vals[i % 64]
        for k in ti.static(range(len(DIVS))):
            d = ti.i64(DIVS[k])
            s = (s * 31 + x % d + (x // d) % 1000) % 1000000007
    return s


V = [0, 1, 2, 6, 7, 8, 2**31 - 2, 2**31, 2**32, 2**62, 2**62 + 2, 9223372036854775807, 9223372036854775806, -1, -7,
     -9223372036854775807 - 1]
V += [i * 199999999999999997 for i in range(40)] + [-(i * 1000003) for i in range(1, 9)]
for i, v in enumerate(V):
    vals[i] = v


def py_rems():
    s = 0
    for i in range(64 * 4):
        x = V[i % 64]
        for d in DIVS:
            s = (s * 31 + x % d + (x // d) % 1000) % 1000000007
    return s


r = rems()
print("rems", r, r == py_rems())
