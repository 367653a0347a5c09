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
