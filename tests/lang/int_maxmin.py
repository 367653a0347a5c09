# ti.max / ti.min of integers of every width and signedness, as the
# interpreter orders them: in a scalar loop (the JIT's compare and cmov; it
# was a call) and in vector lanes (vpmaxsd / vpminud ..., i32 and u32), over
# edge values (the extremes, -1, 0, 1) paired in every combination, and the
# index clamp grid codes write: ti.min(ti.max(int(x), 0), n - 1), whose
# f32 -> i32 cast runs in lanes too (cvttps2dq, then NaN -> 0 and x >= 2^31
# -> INT_MAX as sem::f2i says; edge floats in every lane position).
import taichi as ti

ti.init(arch=ti.cpu)

e32 = [-2**31, -2**31 + 1, -7, -1, 0, 1, 5, 2**31 - 1]
E = len(e32)
N = E * E + 3
a = ti.field(ti.i32, shape=N)
b = ti.field(ti.i32, shape=N)
ua = ti.field(ti.u32, shape=N)
ub = ti.field(ti.u32, shape=N)
la = ti.field(ti.i64, shape=N)
lb = ti.field(ti.i64, shape=N)
r32 = ti.field(ti.i32, shape=(N, 3))
ru = ti.field(ti.u32, shape=(N, 2))
r64 = ti.field(ti.i64, shape=(N, 2))
lane_mx = ti.field(ti.i32, shape=N)
lane_mn = ti.field(ti.i32, shape=N)
lane_umx = ti.field(ti.u32, shape=N)
lane_umn = ti.field(ti.u32, shape=N)
xs = ti.field(ti.f32, shape=N)
cell = ti.field(ti.i32, shape=N)
raw = ti.field(ti.i32, shape=N)
fedge = [float("nan"), float("inf"), -float("inf"), 2.0**31, -2.0**31, 2147483520.0, -2147483904.0, 1e20, -1e20,
         -0.0, 0.99, -0.99, 7.5, -7.5, 3e9]


@ti.kernel
def scalar():
    for i in range(N):
        r32[i, 0] = ti.max(a[i], b[i])
        r32[i, 1] = ti.min(a[i], b[i])
        r32[i, 2] = ti.min(ti.max(a[i], -3), 4)
        ru[i, 0] = ti.max(ua[i], ub[i])
        ru[i, 1] = ti.min(ua[i], ub[i])
        r64[i, 0] = ti.max(la[i], lb[i])
        r64[i, 1] = ti.min(la[i], lb[i] * 3)


@ti.kernel
def lanes(n: ti.i32):
    for i in range(n):
        lane_mx[i] = ti.max(a[i], b[i])
        lane_mn[i] = ti.min(a[i], b[i])
        lane_umx[i] = ti.max(ua[i], ub[i])
        lane_umn[i] = ti.min(ua[i], ub[i])


@ti.kernel
def clamp(n: ti.i32):
    for i in range(n):
        cell[i] = ti.min(ti.max(ti.cast(xs[i], ti.i32), 0), 9)
        raw[i] = ti.cast(xs[i] * 1.0, ti.i32)


for i in range(N):
    x, y = (e32[i % E], e32[i // E]) if i < E * E else (i, -i)
    a[i], b[i] = x, y
    ua[i], ub[i] = x % 2**32, y % 2**32
    la[i], lb[i] = x * 2**20 + 3, y * 2**20 - 5
    xs[i] = (i - 20) * 0.37 if i % 2 else fedge[(i // 2) % len(fedge)]
scalar()
for n in (N, 11):
    lane_mx.fill(99)
    lane_mn.fill(99)
    lane_umx.fill(99)
    lane_umn.fill(99)
    cell.fill(99)
    raw.fill(99)
    lanes(n)
    clamp(n)
    print(n, [lane_mx[i] for i in range(N)])
    print(n, [lane_mn[i] for i in range(N)])
    print(n, [lane_umx[i] for i in range(N)])
    print(n, [lane_umn[i] for i in range(N)])
    print(n, [cell[i] for i in range(N)])
    print(n, [raw[i] for i in range(N)])
for i in range(N):
    print(a[i], b[i], r32[i, 0], r32[i, 1], r32[i, 2], ru[i, 0], ru[i, 1], r64[i, 0], r64[i, 1])
