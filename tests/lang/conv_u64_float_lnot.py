# u64 -> f32 / f64 conversions round as C's casts do (to nearest, ties to
# even), above 2^63 too, and `not` on integers gives 1 or 0, on every engine.
# The JIT inlines both (it called the evaluator for each: ti.random()'s
# floats come from a u64, and `not` is in Taichi's cornell_box and fractal3d
# examples): above 2^63 it converts half the value with the lowest bit kept
# sticky and doubles it. Values: powers of two, their neighbours, and
# patterns whose dropped bits are just below, at and above a half (ties);
# printed over 2^32, exactly (the built-in evaluator's ints are 64-bit).
import taichi as ti

ti.init(arch=ti.cpu)

# (as 32-bit halves: the built-in evaluator's integers are 64-bit signed)
halves = [(0, 0), (0, 1), (0, 2**24 + 1), (2**21, 1), (2**31 - 1, 2**32 - 1), (2**31, 0), (2**31, 1),
          (2**32 - 1, 2**32 - 1), (2**32 - 256, 0), (2**31, 2**31 >> 24 << 24), (2**31 + 128, 1),
          (2**31 + 384, 0), (2**31 + 128, 0), (2**31, 1025), (0x80000080, 0), (0x80000180, 0),
          (0xFFFFFF7F, 0xFFFFFFFF), (0xFFFFFF80, 0), (0x80000000, 0x7FF), (0x80000000, 0xC00),
          (0x80000000, 0x401), (0xAB54A98C, 0xEB1F0AD2)]
N = len(halves)
hi = ti.field(ti.i64, shape=N)
lo = ti.field(ti.i64, shape=N)
u = ti.field(ti.u64, shape=N)
i32 = ti.field(ti.i32, shape=N)
f = ti.field(ti.f32, shape=N)
d = ti.field(ti.f64, shape=N)
n = ti.field(ti.i32, shape=(N, 3))


@ti.kernel
def conv():
    for k in range(N):
        u[k] = ti.u64(hi[k]) << 32 | ti.u64(lo[k])
    for k in range(N):
        f[k] = ti.cast(u[k], ti.f32)
        d[k] = ti.cast(u[k], ti.f64)
        n[k, 0] = not i32[k]
        n[k, 1] = not (u[k] & 1)
        n[k, 2] = ti.i32(not (i32[k] > 3))


for k, (h, l) in enumerate(halves):
    hi[k] = h
    lo[k] = l
    i32[k] = [0, 1, -1, 7, 0][k % 5]
conv()
for k in range(N):
    print(halves[k][0], halves[k][1], f[k] / 4294967296.0, d[k] / 4294967296.0, n[k, 0], n[k, 1], n[k, 2])
