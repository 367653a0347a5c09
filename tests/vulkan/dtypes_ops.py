# Scalar arithmetic of every dtype the device computes in, control flow,
# atomics (float ones by compare-and-swap where the device has no float
# atomic), arguments and returns, and host access to fields between
# launches: the Vulkan backend prints what the CPU engines print.
import taichi as ti

ti.init(arch=ti.vulkan)

types = [ti.i8, ti.i16, ti.i32, ti.i64, ti.u8, ti.u16, ti.u32, ti.u64, ti.f16, ti.f32, ti.f64]
fields = [ti.field(t, shape=6) for t in types]


@ti.kernel
def arith(a: ti.template(), x: ti.i32, y: ti.i32):
    for i in a:
        v = ti.cast(x + i, a.dtype)
        w = ti.cast(y - i, a.dtype)
        d = w * w + ti.cast(1, a.dtype)
        r = ti.cast(v * w + v // d - v % d, a.dtype)
        if i % 2 == 0:
            r = ti.cast(ti.max(r, v) - ti.min(v, w), a.dtype)
        a[i] = r


for f in fields:
    arith(f, 5, 3)
    print(f.dtype, f.to_numpy())


@ti.kernel
def ints(x: ti.i32, s: ti.i32) -> ti.i32:
    return (x << s) ^ (x >> 2) + (-x // 3) + (x % -5) + ti.abs(-x) + (x ** 3) + (~x & 0xff)


print(ints(77, 3), ints(-77, 35), ints(3, 0))


@ti.kernel
def floats(x: ti.f32) -> ti.f32:
    y = ti.sqrt(x) + ti.floor(-x) + ti.ceil(x) + ti.round(x) + x // 0.7 + x % 0.7 + x ** 2.0
    return y + ti.cast(ti.cast(x * 1e10, ti.i32), ti.f32) * 0.0


@ti.kernel
def f64s(x: ti.f64) -> ti.f64:
    return ti.sqrt(x) * 3.0 - x / 7.0 + ti.cast(ti.cast(x, ti.i64) * 9, ti.f64)


print(floats(2.25), floats(5.5), f64s(2.0), f64s(-1e30))

counts = ti.field(ti.i32, shape=4)
total = ti.field(ti.f64, shape=())
lo = ti.field(ti.f32, shape=())
hi = ti.field(ti.i64, shape=())


@ti.kernel
def atomics(n: ti.i32) -> ti.i32:
    lo[None] = 1e9
    for i in range(n):
        ti.atomic_add(counts[i % 4], 1)
        ti.atomic_add(total[None], i * 0.5)
        ti.atomic_min(lo[None], ti.cast(i, ti.f32) - 100.0)
        ti.atomic_max(hi[None], ti.i64(i) * ti.i64(3000000000))
    k = 0
    while k < 10:
        k += 3
        if k == 6:
            continue
    return k


print(atomics(1000), counts.to_numpy(), total[None], lo[None], hi[None])

g = ti.field(ti.f32, shape=(3, 4))
g[1, 2] = 7.5


@ti.kernel
def grid() -> ti.f32:
    s = 0.0
    for i, j in g:
        g[i, j] += i * 10 + j
    for i, j in ti.ndrange(3, 4):
        s += g[i, j]
    return s


print(grid(), g[1, 2], g[2, 3])


@ti.kernel
def ordered():
    for i in range(6):
        if i % 2 == 1:
            print("odd", i, i * 0.25)
        else:
            print("even", i)


ordered()
