# The JIT runs loops of i64 values four iterations at a time (one value per
# 64-bit lane: loads, stores, + - neg & | ^, and i64 sums as four wrapping
# partials); every trip count around a multiple of four, from several starts.
import taichi as ti

ti.init(arch=ti.cpu, cpu_max_num_threads=1)
N = 300
x = ti.field(ti.i64, N)
y = ti.field(ti.i64, N)
res = ti.field(ti.i64, 6 * 23)


@ti.kernel
def fill():
    for i in range(N):
        x[i] = ti.i64(i) * ti.i64(0x12345678) * 16 - (ti.i64(1) << 40)


@ti.kernel
def mix(lo: ti.i32, hi: ti.i32) -> ti.i64:
    s = ti.i64(7)
    for _ in range(1):
        for i in range(lo, hi):
            y[i] = (x[i] ^ 0x5555) - (-x[i]) + (x[i] & 12) + (x[i] | 3)
            s += x[i]
    return s


@ti.kernel
def digest() -> ti.i64:  # wrapping i64 arithmetic: the same on every host
    h = ti.i64(0)
    ti.loop_config(serialize=True)
    for k in range(6 * 23):
        h = h * 31 + res[k]
    ti.loop_config(serialize=True)
    for i in range(N):
        h = h * 131 + y[i]
    return h


fill()
for lo in range(0, 6):
    for hi in range(lo, lo + 23):
        res[lo * 23 + hi - lo] = mix(lo, hi)
print(digest())
