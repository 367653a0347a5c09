# ti.max / ti.min of a float and a constant that is neither a NaN nor a zero
# are IEEE maximumNumber / minimumNumber on every engine: a NaN operand gives
# the constant. The JIT makes them one vmaxss/vminss (which gives its second
# operand, the constant, for a NaN); with a zero constant it keeps the general
# path, where the zeros' signs decide (not compared here: Vulkan leaves them open).
import math

import taichi as ti

ti.init(arch=ti.cpu)

vals = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 0.5, -0.5, 0.975, 1.0045, 1e-30, -3.0, 7.25]
N = len(vals)
x = ti.field(ti.f32, shape=N)
x64 = ti.field(ti.f64, shape=N)
out = ti.Vector.field(3, ti.f32, shape=N)
out64 = ti.Vector.field(2, ti.f64, shape=N)


@ti.kernel
def clamp():
    for i in x:
        v = x[i]
        w = x64[i]
        out[i] = ti.Vector([ti.min(ti.max(v, 1 - 2.5e-2), 1 + 4.5e-3), ti.max(2.0, v), ti.min(v, -2.0)])
        out64[i] = ti.Vector([ti.max(w, 0.25), ti.min(-1.5, w)])


for i, v in enumerate(vals):
    x[i] = v
    x64[i] = v
clamp()


def show(f):
    if math.isnan(f):
        return "nan"
    return repr(f) if f != 0 else ("-0.0" if math.copysign(1, f) < 0 else "0.0")


for i in range(N):
    print(show(vals[i]), [show(out[i][k]) for k in range(3)], [show(out64[i][k]) for k in range(2)])
