# Float -> signed int conversions in a loop (the JIT inlines cvttss2si /
# cvttsd2si with a cold fix-up for their INT_MIN result): truncation toward
# zero, NaN -> 0, out of range saturating, and the exact INT_MIN boundary,
# from f32 and f64 into i32 and i64. Every engine prints the same.
import math

import taichi as ti

ti.init(arch=ti.cpu)

vals = [0.0, -0.0, 0.7, -0.7, 3.9, -3.9, 1e6 + 0.5, -1e6 - 0.5, 2147483520.0, -2147483520.0,
        2147483647.5, 2147483648.0, -2147483648.0, -2147483648.9, -2147483649.0, 3e9, -3e9,
        9.2e18, 9.3e18, -9.2e18, -9.223372036854775808e18, -9.3e18, 1e30, -1e30,
        math.inf, -math.inf, math.nan, 0.5, -0.5, 123456789.0]
N = len(vals)
x32 = ti.field(ti.f32, shape=N)
x64 = ti.field(ti.f64, shape=N)
a = ti.field(ti.i32, shape=N)
b = ti.field(ti.i64, shape=N)
c = ti.field(ti.i32, shape=N)
d = ti.field(ti.i64, shape=N)
e = ti.field(ti.i32, shape=N)


@ti.kernel
def convert():
    for i in range(N):
        a[i] = ti.cast(x32[i], ti.i32)
        b[i] = ti.cast(x32[i], ti.i64)
        c[i] = ti.cast(x64[i], ti.i32)
        d[i] = ti.cast(x64[i], ti.i64)
        e[i] = int(x32[i] - 0.5) + 1  # (MPM's base = int(Xp - 0.5))


for i, v in enumerate(vals):
    x32[i] = v
    x64[i] = v
convert()
for i in range(N):
    print(i, a[i], b[i], c[i], d[i], e[i])
