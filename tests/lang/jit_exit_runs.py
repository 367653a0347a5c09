# Exits that write runs of consecutive frame registers (issue 16): the JIT
# flushes consecutive registers from consecutive stack slots, or one
# constant to many registers, as 8/4/2-qword vector moves (Gen::flush;
# f32 slots with their upper halves zeroed), and reads runs of frame
# registers at a trace's entry the same way. Here: an outer loop whose inner
# loop keeps 16 f32 and 8 f64 partials (fast_math's split sums) and many
# f32 locals live at a data-dependent break, so exits leave with dozens of
# values in slots; outer counts 1, odd and even. Every engine prints the
# same bits.
import taichi as ti
ti.init(arch=ti.cpu)

N = 61
x = ti.field(ti.f32, shape=N)
y = ti.field(ti.f64, shape=N)
out = ti.field(ti.f32, shape=(N, 4))


@ti.kernel
def init():
    for i in x:
        x[i] = (i * 37 % 101) * 0.25 - 7.0
        y[i] = (i * 53 % 103) * 0.125 - 3.0


@ti.kernel
def sums(ni: ti.i32, nj: ti.i32, limit: ti.f32):
    for i in range(ni):
        s = ti.f32(0.0)
        t = ti.f64(0.0)
        u = ti.f32(-0.0)
        for j in range(nj):
            v = x[j] * x[i]
            s += v
            t += y[j] * ti.f64(v)
            u += ti.abs(v)
            if s > limit:
                break
        out[i, 0] = s
        out[i, 1] = ti.f32(t)
        out[i, 2] = u


@ti.kernel
def many_live(n: ti.i32, stop: ti.f32) -> ti.f32:
    # 16 f32 values computed one after another and all read after the loop:
    # more than the registers hold, so the exit at the break writes them to
    # consecutive frame registers from the allocator's slots.
    a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = ti.f32(0.0)
    b0 = b1 = b2 = b3 = b4 = b5 = b6 = b7 = ti.f32(0.0)
    ti.loop_config(serialize=True)
    for k in range(n):
        q = x[k % N]
        a0 = q + 1.0
        a1 = q * 2.0
        a2 = q - 3.0
        a3 = q * 4.0
        a4 = q + 5.0
        a5 = q * 6.0
        a6 = q - 7.0
        a7 = q * 8.0
        b0 = a0 * a1
        b1 = a1 * a2
        b2 = a2 * a3
        b3 = a3 * a4
        b4 = a4 * a5
        b5 = a5 * a6
        b6 = a6 * a7
        b7 = a7 * a0
        if q > stop:
            break
    return (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7) * 0.5 + (b0 + b1 + b2 + b3 + b4 + b5 + b6 + b7) * 0.25


@ti.kernel
def wide_live(n: ti.i32, stop: ti.f32) -> ti.f32:
    # 40 f32 values live at the break: more than the 30 xmm registers an
    # AVX-512 host's scalar loop has, so most leave from slots.
    v = ti.Vector([0.0] * 40, dt=ti.f32)
    ti.loop_config(serialize=True)
    for k in range(n):
        q = x[k % N]
        for c in ti.static(range(40)):
            v[c] = q * (c + 1.5)
        if q > stop:
            break
    s = ti.f32(0.0)
    for c in ti.static(range(40)):
        s += v[c] * (c % 3 + 1)
    return s


init()
for ni, nj, limit in [(1, 61, 1e9), (2, 61, 1e9), (7, 45, 1e9), (12, 33, 1e9), (9, 61, 50.0), (1, 17, 1.0)]:
    sums(ni, nj, limit)
    print("sums", ni, nj, [[float(out[i, c]) for c in range(3)] for i in range(ni)])
for n, stop in [(1000, 1e9), (1000, 17.5), (3000, 18.0), (1, 0.0)]:
    print("many_live", n, stop, float(many_live(n, stop)))
for n, stop in [(1000, 1e9), (1000, 17.5), (2, -100.0)]:
    print("wide_live", n, stop, float(wide_live(n, stop)))
