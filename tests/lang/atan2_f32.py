# ti.atan2 on f32 gives the C library's atan2f bits on every engine (the
# Vulkan backend repeats its algorithm: GLSL's Atan2 is approximate): each
# range of |y / x| atan reduces to, the quadrants, zeros, infinities, NaN.
import math

import taichi as ti

ti.init(arch=ti.cpu)
vals = [0.0, -0.0, 1.0, -1.0, 0.3, -0.45, 0.6, 0.9, 1.7, -2.3, 3.0, 1e-12, 7e29, -1e-40, math.inf, -math.inf, math.nan]
n = len(vals)
y = ti.field(ti.f32, shape=n * n)
x = ti.field(ti.f32, shape=n * n)
r = ti.field(ti.f32, shape=n * n)
for i in range(n):
    for j in range(n):
        y[i * n + j] = vals[i]
        x[i * n + j] = vals[j]


@ti.kernel
def go():
    for i in r:
        r[i] = ti.atan2(y[i], x[i])


go()
for i in range(n):
    print(' '.join(repr(r[i * n + j]) for j in range(n)))
