# Nests whose inner loop sums field elements in program order (promote_elements
# keeps `f[i] += e` in a local; fast_math contracts `f[i] += a * b` into one
# fma), as in Taichi's n-body example (here in 3-D). On AVX-512 hosts the JIT
# runs them two i a pass (jam_outer's kJamOrdered) in 8 lanes (4 of f64),
# every sum's steps at the end of the body, lane 0 of each sum, then lane 1
# of each, ..., each chunk's terms folded while the next chunk's are computed
# (jit/asm_lane_fold.cpp ordered_run): each sum still adds its terms in j's
# order, so every engine prints the interpreter's bits. Terms of mixed
# magnitudes (another order changes the bits); adds, subs, a term first, fmas
# sharing a factor and with a uniform one, uniform terms, a conditional add
# beside them, an fma of a term by itself (whose chunk folds at once); f32
# and f64; the `i != j` guard failing in the first or second i of a pair and
# on either side of a chunk's edge; an odd outer count (the last i alone);
# inner lengths around the lanes' width.
import math

import taichi as ti

ti.init(arch=ti.cpu)
n = 45
pos = ti.Vector.field(2, ti.f32, n)
pos3 = ti.Vector.field(3, ti.f32, n)
force3 = ti.Vector.field(3, ti.f32, n)
a = ti.field(ti.f32, n)
b = ti.field(ti.f32, n)
c = ti.field(ti.f32, n)
d = ti.field(ti.f32, n)
e = ti.field(ti.f32, n)
g = ti.field(ti.f32, n)
h = ti.field(ti.f32, n)
w = ti.field(ti.f64, n)
ad = ti.field(ti.f64, n)
bd = ti.field(ti.f64, n)
cd = ti.field(ti.f64, n)
dd = ti.field(ti.f64, n)
ed = ti.field(ti.f64, n)


@ti.kernel
def gravity(m: ti.i32):
    for i in range(n):
        force3[i] = [0.0, 0.0, 0.0]
    for i in range(n):
        p = pos3[i]
        for j in range(m):
            if i != j:
                d = pos3[j] - p
                r2 = d.dot(d) + 1e-4
                force3[i] += d / (r2 * ti.sqrt(r2))


@ti.kernel
def steps32(m: ti.i32, k: ti.f32):
    for i in range(n):
        a[i] = 0.25
        b[i] = -0.0
        c[i] = 1e-3
        d[i] = 0.0
        e[i] = -1.5
        g[i] = 0.0
        h[i] = -0.0
    for i in range(n):
        q = pos[i].x
        for j in range(m):
            t = pos[j].y * q
            a[i] += t
            b[i] -= pos[j].x
            c[i] = t + c[i]
            d[i] += t * pos[j].x
            e[i] += t * k
            h[i] += k
            if t > 0:
                g[i] += t


@ti.kernel
def squares(m: ti.i32):
    for i in range(n):
        a[i] = 0.5
    for i in range(n):
        q = pos[i].y
        for j in range(m):
            t = pos[j].x - q
            a[i] += t * t


@ti.kernel
def steps64(m: ti.i32):
    for i in range(n):
        ad[i] = 1e-3
        bd[i] = 0.0
        cd[i] = -0.0
        dd[i] = 0.5
        ed[i] = 0.0
    for i in range(n):
        q = w[i]
        for j in range(m):
            t = w[j] * q
            ad[i] += t * w[j]
            bd[i] -= t
            ed[i] -= q
            cd[i] = w[j] + cd[i]
            dd[i] += t * 3.0


def show(name, fields):
    vals = [float(f[k]) for f in fields for k in range(n)]
    total = 0.0
    for x in vals:
        total += x
    print(name, " ".join(repr(vals[k]) for k in range(0, len(vals), 11)), repr(total))


for i in range(n):
    pos[i] = [math.sin(i * 0.7) * 10.0 ** (i % 5 - 2), math.cos(i * 1.3) * 10.0 ** (i % 3 - 1)]
    pos3[i] = [math.sin(i * 0.3) * 10.0 ** (i % 4 - 1), math.cos(i * 0.9), math.sin(i * 2.1) * 10.0 ** (i % 3 - 2)]
    w[i] = math.sin(i * 0.37) * 10.0 ** (i % 7 - 3)
for m in [0, 1, 7, 8, 9, 15, 16, 17, 24, 31, 33, 44, 45]:
    gravity(m)
    f = [force3[k][c] for k in range(n) for c in range(3)]
    total = 0.0
    for x in f:
        total += x
    print("gravity", m, " ".join(f"{x:.9g}" for x in f[:6] + f[-6:]), repr(total))
    steps32(m, 0.3)
    show(f"steps32 {m}", (a, b, c, d, e, g, h))
    steps64(m)
    show(f"steps64 {m}", (ad, bd, cd, dd, ed))
    squares(m)
    show(f"squares {m}", (a,))
