# ti.max / ti.min of two f32 (or f64) values that vary per iteration run in
# vector lanes on the JIT (compares and blends: maxps, then a & b' or a | b' where
# the operands are equal, b' being b or, where b is a NaN, a): IEEE
# maximumNumber / minimumNumber as the interpreter computes them, signed
# zeros and NaN operands included, over lengths that leave masked ends. Every
# pair of edge values meets in some lane. Not on Vulkan, which leaves NaN
# operands and the zeros' signs open.
import math

import taichi as ti

ti.init(arch=ti.cpu)

edge = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 0.5, -0.5, 1.5, -2.5, 1e30, -7.25]
E = len(edge)
N = E * E + 6
x = ti.field(ti.f32, shape=N)
z = ti.field(ti.f32, shape=N)
mx = ti.field(ti.f32, shape=N)
mn = ti.field(ti.f32, shape=N)
both = ti.field(ti.f32, shape=N)
x64 = ti.field(ti.f64, shape=N)
z64 = ti.field(ti.f64, shape=N)
mx64 = ti.field(ti.f64, shape=N)
mn64 = ti.field(ti.f64, shape=N)


@ti.kernel
def maxmin(n: ti.i32):
    for i in range(n):
        mx[i] = ti.max(x[i], z[i])
        mn[i] = ti.min(z[i], x[i])
        both[i] = ti.min(ti.max(x[i], z[i] * 2.0), x[i] + 1.0)


@ti.kernel
def maxmin64(n: ti.i32):
    for i in range(n):
        mx64[i] = ti.max(x64[i], z64[i])
        mn64[i] = ti.min(z64[i], x64[i]) + ti.min(x64[i], -0.0)


for i in range(N):
    x[i] = edge[i % E] if i < E * E else i * 0.5
    z[i] = edge[(i // E) % E] if i < E * E else -i * 0.25
    x64[i] = x[i]
    z64[i] = z[i]


def show(f):
    if math.isnan(f):
        return "nan"
    return repr(f) if f != 0 else ("-0.0" if math.copysign(1, f) < 0 else "0.0")


for n in (N, 17, 9):
    mx.fill(9.0)
    mn.fill(9.0)
    both.fill(9.0)
    mx64.fill(9.0)
    mn64.fill(9.0)
    maxmin(n)
    maxmin64(n)
    for i in range(N):
        print(n, show(x[i]), show(z[i]), show(mx[i]), show(mn[i]), show(both[i]), show(mx64[i]), show(mn64[i]))
