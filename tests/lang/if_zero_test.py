# `if x == 0` and `while x != 0` on integers of every width: the bytecode
# branches on x itself (jnz); results must match testing the comparison.
import taichi as ti
ti.init()

@ti.kernel
def count_zero_mods(n: ti.i32) -> ti.i32:
    c = 0
    ti.loop_config(serialize=True)
    for i in range(n):
        if i % 3 == 0:
            c += 1
        if ti.u8(i * 64) == 0:
            c += 100
    return c

@ti.kernel
def bits(v: ti.u32) -> ti.i32:
    steps = 0
    x = v
    while x != 0:
        x = x & (x - ti.u32(1))
        steps += 1
    return steps

@ti.kernel
def wide(a: ti.i64) -> ti.i32:
    r = 0
    if a - ti.i64(4294967296) == 0:
        r = 1
    elif a % ti.i64(4294967296) == 0:
        r = 2
    return r

@ti.kernel
def reused(n: ti.i32) -> ti.i32:
    z = n == 0
    t = 0
    if z:
        t = 5
    return t + z

print(count_zero_mods(12))
print(bits(4294967295), bits(0), bits(40))
print(wide(4294967296), wide(8589934592), wide(5))
print(reused(0), reused(3))
