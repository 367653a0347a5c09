# `for i: for j: s += f(i, j)` nests with fast_math's split sums (16 f32 or 8
# f64 partials). `sums` and `nest` cannot run in lanes (a data-dependent
# break, a select): each scalar iteration rotates the partials one place,
# most of them in the JIT's stack slots. `lanes` runs its inner loop in
# vector lanes: the JIT saves around the vector loop only the xmm registers
# that hold values from before the loop which it still reads (here six f32
# uniforms of i), and takes the sums' partials back from its temporaries
# (jit/asm_vector.cpp). `spread` sums terms whose magnitudes differ by up to
# 4^15 by partial, so that any other pairing of the 16 partials where the
# sum ends (a side trace of the outer loop, reading them from the frame as
# the inner trace's exit left them) would print other bits. Loop lengths 0,
# 1, below, at and past 16 and 32, odd outer counts. Every engine prints the
# same bits.
import taichi as ti
ti.init(arch=ti.cpu)

N = 97
x = ti.field(ti.f32, shape=N)
y = ti.field(ti.f64, shape=N)
out = ti.field(ti.f32, shape=(N, 3))
out64 = ti.field(ti.f64, shape=N)
z = ti.field(ti.f32, shape=N)


@ti.kernel
def init():
    for i in x:
        x[i] = (i * 37 % 101) * 0.1 - 7.3
        y[i] = (i * 53 % 103) * 0.01 - 0.3
        z[i] = x[i] * ti.cast(1 << (i % 16) * 2, ti.f32) + ti.cast(i % 5, ti.f32) * 0.37


@ti.kernel
def sums(n: ti.i32, limit: ti.f32) -> ti.f64:
    a = ti.f32(0.0)
    b = ti.f32(1.0)
    c = ti.f32(0.0)
    d = ti.f64(0.0)
    ti.loop_config(serialize=True)
    for i in range(n):
        v = x[i]
        if v > limit:
            break
        a += v
        b += v * 0.5 if v > 0.0 else -v
        c -= v * v
        d += y[i] * 1.5
    return ti.cast(a, ti.f64) * 1e6 + ti.cast(b, ti.f64) * 1e3 + ti.cast(c, ti.f64) + d * 1e-3


@ti.kernel
def nest(ni: ti.i32, nj: ti.i32, limit: ti.f32):
    for i in range(ni):
        p = x[i]
        a = ti.f32(0.0)
        b = ti.f32(0.0)
        c = ti.f32(0.0)
        d = ti.f64(0.0)
        for j in range(nj):
            v = x[j] - p
            if v > limit:
                break
            a += v
            b += v * v
            c += v * 0.25 if v < 1.0 else 1.0
            d += y[j] - y[i]
        out[i, 0] = a
        out[i, 1] = b
        out[i, 2] = c
        out64[i] = d


@ti.kernel
def lanes(ni: ti.i32, nj: ti.i32):
    for i in range(ni):
        p = x[i]
        q = x[i] * 0.5 + 1.0
        r = x[(i + 7) % N] - 0.25
        a = ti.f32(0.0)
        b = ti.f32(0.0)
        c = ti.f32(0.0)
        for j in range(nj):
            v = x[j]
            w = (v - p) / (q * q + 1.0) + (v * r - p)
            a += w
            b += w * (v + q)
            c += (v - r) * (p + q + r)
        out[i, 0] = a
        out[i, 1] = b
        out[i, 2] = c + p * q * r


@ti.kernel
def spread(ni: ti.i32, nj: ti.i32):
    for i in range(ni):
        q = x[i]
        a = ti.f32(0.0)
        b = ti.f32(0.0)
        for j in range(nj):
            a += z[j] * q
            b += z[j] - q
        out[i, 0] = a
        out[i, 1] = b


init()
for n in [0, 1, 2, 15, 16, 17, 31, 32, 33, 50, 97]:
    print("sums", n, sums(n, 1e9), sums(n, 1.5))
for ni, nj, limit in [(1, 97, 1e9), (3, 17, 1e9), (16, 16, 1e9), (17, 33, 1e9), (9, 97, 4.0), (20, 5, 1e9)]:
    nest(ni, nj, limit)
    print("nest", ni, nj, [[float(out[i, c]) for c in range(3)] + [float(out64[i])] for i in range(ni)])
for ni, nj in [(1, 97), (5, 1), (7, 15), (9, 16), (11, 17), (13, 33), (3, 96), (97, 97)]:
    lanes(ni, nj)
    print("lanes", ni, nj, [[float(out[i, c]) for c in range(3)] for i in range(ni)])
for ni, nj in [(1, 97), (7, 15), (5, 16), (9, 17), (33, 48), (97, 97)]:
    spread(ni, nj)
    print("spread", ni, nj, [[float(out[i, c]) for c in range(2)] for i in range(ni)])
