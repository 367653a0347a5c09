# A float divided by a power of two gives the division's bits on every engine
# (the JIT multiplies by the reciprocal when that is a normal number: the
# same rounding of x * 2^-k): subnormal results and their ties, zeros,
# infinities, NaN, and divisors whose reciprocal is not normal (2^127 in f32).
import math

import taichi as ti

ti.init(arch=ti.cpu)
vals = [1.0, -3.0, 0.0, -0.0, 1e-36, -1.5e-38, 3e-45, 7e-45, 1e-44, 3.4e38, 5.5, -7.25e-40, math.inf, -math.inf, math.nan]
n = len(vals)
R = 16  # repeated: the loop runs long enough to be traced
x32 = ti.field(ti.f32, shape=n * R)
x64 = ti.field(ti.f64, shape=n * R)
out32 = ti.field(ti.f32, shape=(5, n * R))
out64 = ti.field(ti.f64, shape=(2, n * R))
for i in range(n * R):
    x32[i] = vals[i % n]
    x64[i] = vals[i % n] * 1e-270 if vals[i % n] not in (0.0, 1.0) else vals[i % n]


@ti.kernel
def go():
    for i in x32:
        v = x32[i]
        out32[0, i] = v / 1024.0
        out32[1, i] = v / -0.5
        out32[2, i] = v / 2.0 ** 126
        out32[3, i] = v / 2.0 ** 127
        out32[4, i] = v / 3.0
    for i in x64:
        w = x64[i]
        out64[0, i] = w / 8.0
        out64[1, i] = w / 2.0 ** 60


go()
for k in range(5):
    print('f32', k, ' '.join(repr(out32[k, i]) for i in range(n)))
    assert all(out32[k, i] == out32[k, i % n] or math.isnan(out32[k, i]) for i in range(n * R))
for k in range(2):
    print('f64', k, ' '.join(repr(out64[k, i]) for i in range(n)))
    assert all(out64[k, i] == out64[k, i % n] or math.isnan(out64[k, i]) for i in range(n * R))
