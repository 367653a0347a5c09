# i32 counters whose `+ 1` the JIT runs in 64 bits when a guard `x < E`
# (i32) has checked x (jit/asm_int.cpp, adds_without_wrap): counters that
# end at INT32_MAX, negative ones, and adds that do wrap (no such guard, or
# an i64 compare) and must still wrap as the interpreter's do.
import taichi as ti

ti.init()


@ti.kernel
def top_range() -> ti.i64:
    s = ti.i64(0)
    ti.loop_config(serialize=True)
    for i in range(2147483000, 2147483647):  # the last i is INT32_MAX - 1
        s += ti.i64(i) * ti.i64(i) % 7 + i % 5
    return s


@ti.kernel
def top_while() -> ti.i64:
    i = 2147483000
    s = ti.i64(0)
    while i < 2147483647:  # i + 1 reaches INT32_MAX exactly
        s += ti.i64(i % 11)
        i += 1
    return s * 10 + (i - 2147483640)


@ti.kernel
def negative(lo: ti.i32, hi: ti.i32) -> ti.i32:
    i = lo
    s = 0
    while i < hi:
        s += i
        i = i + 1
    return s + i


@ti.kernel
def unguarded(start: ti.i32) -> ti.i64:
    # x + 1 with no `x < E` on x: it wraps past INT32_MAX
    x = start
    s = ti.i64(0)
    ti.loop_config(serialize=True)
    for k in range(600):
        x = x + 1
        s += ti.i64(x)
    return s * 3 + x


@ti.kernel
def wide_compare(start: ti.i32) -> ti.i64:
    # `i < n` compares in i64 (n is i64): i + 1 still wraps in i32
    i = start
    n = ti.i64(2147483647) + 100
    k = 0
    s = ti.i64(0)
    while i < n and k < 500:
        i += 1
        k += 1
        s += ti.i64(i)
    return s + i


print(top_range())
print(top_while())
print(negative(-2147483648, -2147482000), negative(-700, 900), negative(5, 3))
print(unguarded(2147483647 - 300), unguarded(-2147483648), unguarded(0))
print(wide_compare(2147483647 - 200), wide_compare(-5))
