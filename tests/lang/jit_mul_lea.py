# Multiplications by 3, 5 and 9 (the JIT's one-instruction lea forms) on
# i32, u32 and i64 values that wrap, and integer selects (Collatz's step:
# a conditional expression whose arms are computed before the choice), in
# hot loops: every engine prints the same.
import taichi as ti
ti.init(arch=ti.cpu)


@ti.kernel
def muls(start: ti.i32) -> ti.i64:
    h = ti.i64(0)
    ti.loop_config(serialize=True)
    for j in range(300):
        i = start + j
        a = i * 3 + 1
        b = (i * 977 + 0x7ffff000) * 5
        c = ti.u32(i * 40503) * ti.u32(9)
        d = ti.i64(i) * ti.i64(0x0fffffffffff) * 9
        e = ti.i64(i) * -5
        h = h * 31 + a + b + ti.i64(c) + d + e
    return h


@ti.kernel
def collatz(lo: ti.i32, hi: ti.i32) -> ti.i64:
    steps = ti.i64(0)
    peak = ti.i64(0)
    ti.loop_config(serialize=True)
    for k in range(lo, hi):
        n = ti.i64(k)
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            peak = ti.max(peak, n)
            steps += 1
    return steps * 1000003 + peak


@ti.kernel
def sel32(n: ti.i32) -> ti.i32:
    s = 0
    ti.loop_config(serialize=True)
    for i in range(n):
        x = i * 9 if i & 4 else -i * 5
        s = s * 3 + (x if x & 1 else 0)
    return s


for start in [-1000, 0, 0x7fffff00, -0x80000000]:
    print("muls", start, muls(start))
print("collatz", collatz(1, 3000), collatz(77031, 77032))
print("sel32", sel32(500))
