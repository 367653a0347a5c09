# Kernels whose LLVM code becomes ready part-way through a launch, and whose
# tasks then duel (vm/interp/mid_launch.h: short slices on the JIT's code and
# on LLVM's, alternating, then the faster one), launched three times each:
# whichever code ran which iterations, and whichever code each duel kept, the
# interpreter's output.
#  - escape loops the JIT runs in its vector lanes, 8 iterations a pass in
#    f32 and 4 in f64, where LLVM's copy runs 4 a pass (jam_while): a switch
#    maps the JIT's passes onto LLVM's; N is no multiple of 8 or 4, so the
#    last pass of each is partial;
#  - an integer while loop neither code jams, and a serialized loop (one
#    serial task, which duels a launch at a time).
import sys

import taichi as ti

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
ti.init(cpu_max_num_threads=threads)
N = 20011
esc32 = ti.field(ti.i32, shape=N)
x32 = ti.field(ti.f32, shape=N)
esc64 = ti.field(ti.i32, shape=N)
x64 = ti.field(ti.f64, shape=N)
steps = ti.field(ti.i32, shape=N)
acc = ti.field(ti.i64, shape=())


@ti.kernel
def escape32(cap: ti.i32, shift: ti.f32):
    for i in range(N):
        cx = -2.0 + 3.0 * (i % 211) / 211 + shift
        cy = -1.5 + 3.0 * (i // 211) / 95
        x = 0.0
        y = 0.0
        n = 0
        while n < cap and x * x + y * y < 4.0:
            x, y = x * x - y * y + cx, 2.0 * x * y + cy
            n += 1
        esc32[i] = n
        x32[i] = x


@ti.kernel
def escape64(cap: ti.i32, shift: ti.f64):
    for i in range(N):
        cx = ti.f64(-2.0) + ti.f64(3.0) * ti.cast(i % 211, ti.f64) / 211 + shift
        cy = ti.f64(-1.5) + ti.f64(3.0) * ti.cast(i // 211, ti.f64) / 95
        x = ti.f64(0.0)
        y = ti.f64(0.0)
        n = 0
        while n < cap and x * x + y * y < 4.0:
            x, y = x * x - y * y + cx, 2.0 * x * y + cy
            n += 1
        esc64[i] = n
        x64[i] = x


@ti.kernel
def collatz(cap: ti.i32):
    for i in range(N):
        v = i + 1
        n = 0
        while v != 1 and n < cap:
            v = v // 2 if v % 2 == 0 else 3 * v + 1
            n += 1
        steps[i] = n
    ti.loop_config(serialize=True)
    for i in range(N):
        acc[None] = acc[None] * 3 % 1000003 + steps[i] + esc32[i] * (i % 5)


for launch in range(3):
    escape32(150 + 25 * launch, 0.01 * launch)
    e = esc32.to_numpy()
    x = x32.to_numpy()
    print("escape32", launch, e.sum(), e[0], e[N - 1], e[N // 2 + 3], x[N - 2], x[4321])
    escape64(150 + 25 * launch, 0.01 * launch)
    e = esc64.to_numpy()
    x = x64.to_numpy()
    print("escape64", launch, e.sum(), e[1], e[N - 1], e[N // 3], repr(x[N - 3]), repr(x[1234]))
    collatz(100 + 50 * launch)
    s = steps.to_numpy()
    print("collatz", launch, s.sum(), s[26], s[N - 1], acc[None])
