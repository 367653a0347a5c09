# Loops that clamp, rectify and round floats run in vector lanes on the JIT
# (issue 16: such a loop ran scalar, "no lanes for max"): ti.max / ti.min
# with a constant that makes x86's maxps/minps x, k exact (neither a NaN nor
# a zero, or max with +0 / min with -0: exact_maxmin_const), ti.floor and
# ti.ceil, for f32 and f64, over lengths that leave masked ends. Edge values
# (NaN, infinities, signed zeros, halves) land in every lane position. Every
# engine prints the same values (signed zeros shown; Vulkan keeps them for
# these constants too, but its NaN operands are open: NaNs print as "nan").
import math

import taichi as ti

ti.init(arch=ti.cpu)

edge = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 0.5, -0.5, 1.5, -2.5, 0.999, 1e30, -7.25, 3.0]
N = 45
x = ti.field(ti.f32, shape=N)
y = ti.field(ti.f64, shape=N)
c = ti.Vector.field(5, ti.f32, shape=N)
d = ti.Vector.field(5, ti.f64, shape=N)
fl = ti.field(ti.f32, shape=N)
fl64 = ti.field(ti.f64, shape=N)
ce = ti.field(ti.f32, shape=N)
relu = ti.field(ti.f32, shape=N)


@ti.kernel
def clamp32(n: ti.i32):
    for i in range(n):
        fl[i] = ti.floor(x[i] / 0.3)
        ce[i] = ti.ceil(x[i])
        relu[i] = ti.max(x[i], 0.0)


@ti.kernel
def clamp64(n: ti.i32):
    for i in range(n):
        fl64[i] = ti.min(ti.max(ti.floor(y[i]), -2.0), 2.0)


@ti.kernel
def mixed(n: ti.i32):
    for i in range(n):
        v = x[i]
        c[i] = ti.Vector([ti.min(ti.max(v, -1.0), 1.0), ti.min(v, -0.0), ti.max(0.25, v), ti.ceil(v * 0.5), ti.floor(-v)])
        w = y[i]
        d[i] = ti.Vector([ti.min(ti.max(w, -1.0), 1.0), ti.min(w, -0.0), ti.max(0.25, w), ti.ceil(w * 0.5), ti.floor(-w)])


for i in range(N):
    v = edge[i % len(edge)] if i % 3 else (i - 20) * 0.37
    x[i] = v
    y[i] = v


def show(f):
    if math.isnan(f):
        return "nan"
    return repr(f) if f != 0 else ("-0.0" if math.copysign(1, f) < 0 else "0.0")


for n in (N, 17, 8, 3):
    fl.fill(9.0)
    fl64.fill(9.0)
    ce.fill(9.0)
    relu.fill(9.0)
    clamp32(n)
    clamp64(n)
    print(n, " ".join(show(fl[i]) for i in range(N)))
    print(n, " ".join(show(ce[i]) for i in range(N)))
    print(n, " ".join(show(relu[i]) for i in range(N)))
    print(n, " ".join(show(fl64[i]) for i in range(N)))
mixed(N)
for i in range(N):
    print(show(x[i]), [show(c[i][k]) for k in range(5)], [show(d[i][k]) for k in range(5)])
