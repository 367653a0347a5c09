# ti.max / ti.min of two float variables are IEEE maximumNumber /
# minimumNumber on every CPU engine (a NaN operand is ignored, -0 < +0), and
# ti.floor, ti.ceil and float `//` are std::floor/std::ceil of the value or
# the quotient, signed zeros included. The JIT inlines them (asm_float.cpp:
# vmaxss plus a ucomiss for the equal and unordered pairs; roundss), where it
# called the evaluator; here every pair of edge values, in a loop so that the
# JIT runs them from a trace, and with zero constants on either side (max
# with +0 and min with -0 are one vmaxss/vminss; the other two are not).
# Not on Vulkan, which leaves NaN operands and the zeros' signs open.
import math

import taichi as ti

ti.init(arch=ti.cpu)

vals = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 0.5, -0.5, 1.5, -2.5, 7.0, -3.75, 1e30]
N = len(vals)
x = ti.field(ti.f32, shape=N)
x64 = ti.field(ti.f64, shape=N)
pair = ti.field(ti.f32, shape=(N, N, 3))
pair64 = ti.field(ti.f64, shape=(N, N, 3))
one = ti.field(ti.f32, shape=(N, 6))
one64 = ti.field(ti.f64, shape=(N, 6))


@ti.kernel
def pairs():
    for i in range(N):
        for j in range(N):
            a, b = x[i], x[j]
            pair[i, j, 0] = ti.max(a, b)
            pair[i, j, 1] = ti.min(a, b)
            pair[i, j, 2] = a // b
            c, d = x64[i], x64[j]
            pair64[i, j, 0] = ti.max(c, d)
            pair64[i, j, 1] = ti.min(c, d)
            pair64[i, j, 2] = c // d


@ti.kernel
def singles():
    for i in range(N):
        v = x[i]
        one[i, 0] = ti.floor(v)
        one[i, 1] = ti.ceil(v)
        one[i, 2] = ti.max(v, 0.0)
        one[i, 3] = ti.min(-0.0, v)
        one[i, 4] = ti.min(v, 0.0)
        one[i, 5] = ti.max(-0.0, v)
        w = x64[i]
        one64[i, 0] = ti.floor(w)
        one64[i, 1] = ti.ceil(w)
        one64[i, 2] = ti.max(w, 0.0)
        one64[i, 3] = ti.min(-0.0, w)
        one64[i, 4] = ti.min(w, 0.0)
        one64[i, 5] = ti.max(-0.0, w)


for i, v in enumerate(vals):
    x[i] = v
    x64[i] = v
pairs()
singles()


def show(f):
    if math.isnan(f):
        return "nan"
    return repr(f) if f != 0 else ("-0.0" if math.copysign(1, f) < 0 else "0.0")


P, P64, O, O64 = pair.to_numpy(), pair64.to_numpy(), one.to_numpy(), one64.to_numpy()
for i in range(N):
    print(show(vals[i]), "f32", " ".join(show(float(O[i, k])) for k in range(6)))
    print(show(vals[i]), "f64", " ".join(show(float(O64[i, k])) for k in range(6)))
    for j in range(N):
        print(" ", show(vals[i]), show(vals[j]), " ".join(show(float(P[i, j, k])) for k in range(3)), "|",
              " ".join(show(float(P64[i, j, k])) for k in range(3)))
