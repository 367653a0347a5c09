# Values carried around a loop that fold in vector lanes on the JIT
# (jit/vector.h, VecPlan::Fold): max/min of f32, f64, i32, u32 and i64,
# integer sums written as several updates, i64 sums of i32 and u32 terms,
# conditional counts and sums (`if c: n += e`), wrapping products and
# bitwise folds. Each lane folds its own iterations and the lanes fold
# together after the loop, which gives the scalar loop's bits: printed
# here as bit patterns, so NaN payloads (an
# all-NaN max returns the running value's own NaN, or the last term's when
# the term is the first operand) and the signs of zeros show. Lengths
# around multiples of 8 and 16 leave masked ends; edge values (NaNs, -0.0,
# infinities, INT_MIN/INT_MAX) meet in every lane.
import taichi as ti

ti.init(arch=ti.cpu, cpu_max_num_threads=1)

N = 300
bits = ti.field(ti.i32, shape=N)
x = ti.field(ti.f32, shape=N)
x64 = ti.field(ti.f64, shape=N)
k = ti.field(ti.i32, shape=N)
u = ti.field(ti.u32, shape=N)
q = ti.field(ti.i64, shape=N)

# f32 patterns: quiet NaNs of several payloads and both signs, a signalling
# one, zeros of both signs, infinities, ordinary values
edge = [0x7FC00001, 0x80000000, 0xFFC00002, 0x00000000, 0x7F800000, 0xFF800000, 0x3FC00000, 0xC0200000, 0x7F800001,
        0x7FC00003]


@ti.kernel
def fill(nan_run: ti.i32):
    for i in x:
        # the first nan_run elements all NaNs (distinct payloads), then the edge values and a wave
        b = 0x7FC00010 + i
        if i >= nan_run:
            b = ti.bit_cast(ti.sin(ti.f32(i) * 0.7) * 50.0, ti.i32)
            if i % 5 == 0:
                b = bits[i]
        x[i] = ti.bit_cast(b, ti.f32)
        x64[i] = ti.f64(x[i])
        k[i] = (i * 7919) % 2003 - 1000
        if i % 37 == 3:
            k[i] = -2147483648
        if i % 41 == 5:
            k[i] = 2147483647
        u[i] = ti.u32(k[i]) * ti.u32(2654435761)
        q[i] = ti.i64(k[i]) * ti.i64(3000000001)


@ti.kernel
def float_folds(lo: ti.i32, n: ti.i32, s0: ti.i32) -> ti.types.vector(4, ti.i32):
    start = ti.bit_cast(s0, ti.f32)
    a = start
    b = start
    c = start
    d = start
    ti.loop_config(serialize=True)
    for i in range(lo, n):
        a = ti.max(a, x[i])
        b = ti.max(x[i], b)
        c = ti.min(c, x[i])
        d = ti.min(x[i], d)
    return ti.Vector([ti.bit_cast(a, ti.i32), ti.bit_cast(b, ti.i32), ti.bit_cast(c, ti.i32), ti.bit_cast(d, ti.i32)])


@ti.kernel
def f64_folds(lo: ti.i32, n: ti.i32, s0: ti.f64) -> ti.types.vector(2, ti.i64):
    a = s0
    c = s0
    ti.loop_config(serialize=True)
    for i in range(lo, n):
        a = ti.max(a, x64[i])
        c = ti.min(x64[i], c)
    return ti.Vector([ti.bit_cast(a, ti.i64), ti.bit_cast(c, ti.i64)])


@ti.kernel
def int_folds(lo: ti.i32, n: ti.i32) -> ti.types.vector(5, ti.i32):
    mx = -2147483647
    mn = 2147483647
    umx = ti.u32(0)
    umn = ti.u32(0xFFFFFFFF)
    s = 5
    ti.loop_config(serialize=True)
    for i in range(lo, n):
        mx = ti.max(mx, k[i])
        mn = ti.min(k[i], mn)
        umx = ti.max(umx, u[i])
        umn = ti.min(umn, u[i])
        s += k[i]
        s -= i
        s += k[i] * 3
    return ti.Vector([mx, mn, ti.i32(umx), ti.i32(umn), s])


@ti.kernel
def int_folds2(lo: ti.i32, n: ti.i32) -> ti.types.vector(5, ti.i32):
    cnt = 0
    neg = 0
    p = 1
    band = -1
    bx = 0
    ti.loop_config(serialize=True)
    for i in range(lo, n):
        if x[i] > 0:
            cnt += 1
        kk = k[i]
        if kk > 100:
            neg -= kk
        p *= k[i] | 1
        band &= k[i] | 0x100
        bx ^= k[i] + i
    return ti.Vector([cnt, neg, p, band, bx])


@ti.kernel
def i64_folds(lo: ti.i32, n: ti.i32) -> ti.types.vector(4, ti.i64):
    mx = ti.i64(-(2**62))
    mn = ti.i64(2**62)
    o = ti.i64(0)
    x_ = ti.i64(0)
    ti.loop_config(serialize=True)
    for i in range(lo, n):
        mx = ti.max(mx, q[i])
        mn = ti.min(q[i], mn)
        o |= q[i]
        x_ ^= q[i]
    return ti.Vector([mx, mn, o, x_])


@ti.kernel
def i64_sums(lo: ti.i32, n: ti.i32) -> ti.types.vector(4, ti.i64):
    # i64 sums of i32 and u32 terms: 8 i32 lanes widened into 4 + 4 i64 partials
    a = ti.i64(0)
    b = ti.i64(5)
    c = ti.i64(-7)
    d = ti.i64(0)
    ti.loop_config(serialize=True)
    for i in range(lo, n):
        a += k[i]
        b += ti.cast(u[i], ti.i64)
        b -= i
    ti.loop_config(serialize=True)
    for i in range(lo, n):
        kk = k[i]
        if x[i] > 0:
            c += kk
        d -= kk * 3
    return ti.Vector([a, b, c, d])


y = ti.field(ti.f32, shape=N)


@ti.kernel
def wide_folds(lo: ti.i32, n: ti.i32) -> ti.types.vector(4, ti.i32):
    # a divide in the body: 16 lanes where the host has AVX-512 (masked ends under k1)
    im = -2147483648
    s = 0
    o = 0
    p = 1
    ti.loop_config(serialize=True)
    for i in range(lo, n):
        y[i] = x[i] / 3.0
        im = ti.max(im, k[i])
        s += k[i]
        o |= k[i] & 0x7FF
        p *= k[i] | 1
    return ti.Vector([im, s, o, p])


@ti.kernel
def parallel_folds() -> ti.types.vector(4, ti.i32):
    # a parallel loop's per-chunk accumulators (make_thread_local) fold in lanes too
    m = -1e30
    c = 0
    im = -2147483648
    for i in x:
        ti.atomic_max(m, x[i])
        ti.atomic_max(im, k[i])
        if k[i] > 500:
            c += 1
    return ti.Vector([ti.bit_cast(m, ti.i32), c, im, 0])


for i in range(N):
    bits[i] = ti.i32(edge[i % len(edge)] - (2**32 if edge[i % len(edge)] >= 2**31 else 0))

starts = [0x7FC0ABCD, -0x80000000, 0, 0x3F800000, -0x800000]  # a NaN, -0.0, +0.0, 1.0, -inf
for nan_run in (0, 40, N):
    fill(nan_run)
    for lo, n in ((0, 0), (0, 1), (0, 7), (0, 8), (0, 9), (0, 15), (0, 16), (0, 17), (0, 33), (3, 100), (1, N),
                  (0, N), (5, 40)):
        fl = [float_folds(lo, n, s0) for s0 in starts]
        print(nan_run, lo, n, *[list(v) for v in fl])
        print(" ", list(f64_folds(lo, n, float("nan"))), list(f64_folds(lo, n, -0.0)), list(f64_folds(lo, n, 0.0)))
        print(" ", list(int_folds(lo, n)), list(int_folds2(lo, n)), list(i64_folds(lo, n)))
        print(" ", list(wide_folds(lo, n)), list(i64_sums(lo, n)))
    print(list(parallel_folds()))
