# min, max and bitwise reductions over parallel loops, into kernel locals
# (ti.atomic_* on a local) and 0-d fields: each chunk of the loop keeps its
# own accumulator and folds it in once.
import taichi as ti
ti.init(arch=ti.cpu)
n = 50000
x = ti.field(ti.f32, shape=n)
k = ti.field(ti.i32, shape=n)
lo = ti.field(ti.f32, shape=())
hi = ti.field(ti.f64, shape=())
umin = ti.field(ti.u32, shape=())
bits_and = ti.field(ti.i64, shape=())
bits_or = ti.field(ti.u64, shape=())

@ti.kernel
def fill():
    for i in x:
        x[i] = ti.sin(ti.f32(i) * 0.01) * 100.0
        k[i] = (i * 7919) % 100003 - 50000

@ti.kernel
def min_max() -> ti.types.vector(4, ti.f32):
    mn = 1e30
    mx = -1e30
    imn = 1 << 30
    imx = -(1 << 30)
    for i in x:
        ti.atomic_min(mn, x[i])
        ti.atomic_max(mx, x[i])
        ti.atomic_min(imn, k[i])
        ti.atomic_max(imx, k[i])
    return ti.Vector([mn, mx, imn, imx])

@ti.kernel
def bitwise() -> ti.types.vector(3, ti.i32):
    a = -1
    o = 0
    e = 0
    for i in k:
        a &= k[i] | 0x10
        o |= 1 << (i % 31)
        e ^= k[i]
    return ti.Vector([a, o, e])

@ti.kernel
def into_fields():
    for i in x:
        ti.atomic_min(lo[None], x[i])
        ti.atomic_max(hi[None], ti.f64(x[i]) * 2)
        ti.atomic_min(umin[None], ti.u32(k[i] + 60000))
        bits_and[None] &= ti.i64(k[i]) | (ti.i64(1) << 40)
        bits_or[None] |= ti.u64(1) << ti.u64(i % 63)

@ti.kernel
def no_update(m: ti.i32):
    # The loop runs but never updates: the globals must stay exactly as they
    # are (-0.0 included), whatever the accumulators start at.
    for i in range(1000):
        if i >= m:
            lo[None] += 1.0
            ti.atomic_max(hi[None], 1e9)

fill()
v = min_max()
print(v[0], v[1], int(v[2]), int(v[3]))
b = bitwise()
print(b[0], b[1], b[2])
lo[None] = 0.0
hi[None] = -1.0
umin[None] = 4000000000
bits_and[None] = -1
bits_or[None] = 0
into_fields()
print(lo[None], hi[None], umin[None], bits_and[None], bits_or[None])
lo[None] = -0.0
no_update(1000)
print(lo[None], hi[None])
