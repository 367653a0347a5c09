# A tour of what Kiln's tracing JIT does with ordinary Taichi kernels. Run it
# and compare with the reference interpreter:
#
#   kiln run examples/jit_tour.py                    # the JIT (the default)
#   kiln run --engine=interp examples/jit_tour.py    # the interpreter: same output
#   KILN_JIT=verbose=1 kiln run examples/jit_tour.py # each trace, and "8 lanes" or why not
#   kiln dis --trace examples/jit_tour.py stencil    # trace IR, snapshots, machine code
#
# Pass --time to also print each kernel's time (to stderr, so the output on
# stdout stays comparable between engines).
import taichi as ti
import sys
import time

ti.init(arch=ti.cpu)
N = 1 << 20
W = 512
x = ti.field(ti.f32, shape=N)
y = ti.field(ti.f32, shape=N)
u = ti.field(ti.f32, shape=(W, W))
v = ti.field(ti.f32, shape=(W, W))
k = ti.field(ti.i32, shape=N)

@ti.kernel
def init():
    for i in x:
        x[i] = ti.cast(i % 1000, ti.f32) * 0.001
        y[i] = 1.0
        k[i] = i % 7 - 3
    for i, j in u:
        u[i, j] = 1.0 if i == 0 else 0.0

# Contiguous f32 loads and stores: a vector loop, 8 elements per AVX2 op.
@ti.kernel
def saxpy(a: ti.f32):
    for i in x:
        y[i] = a * x[i] + y[i]

# An i32 sum: thread-local, and eight partial sums in the vector loop.
@ti.kernel
def isum() -> ti.i32:
    s = 0
    for i in k:
        s += k[i] * 3
    return s

# A 2-D stencil: the bounds checks leave the loop, and each row runs in lanes.
@ti.kernel
def stencil(a: ti.template(), b: ti.template()):
    for i, j in ti.ndrange((1, W - 1), (1, W - 1)):
        b[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])

# A branch that alternates: both sides are computed and one is selected, so
# the loop never leaves its trace.
@ti.kernel
def collatz(n: ti.i64) -> ti.i64:
    steps = ti.i64(0)
    ti.loop_config(serialize=True)
    for s in range(1, n):
        m = ti.i64(s)
        while m != 1:
            if m % 2 == 0:
                m = m // 2
            else:
                m = 3 * m + 1
            steps += 1
    return steps

def timed(name, f, *args):
    t = time.perf_counter()
    r = f(*args)
    if "--time" in sys.argv:
        print(f"{name}: {(time.perf_counter() - t) * 1000:.2f} ms", file=sys.stderr)
    return r

init()
for _ in range(3):
    timed("saxpy", saxpy, 0.5)
print("saxpy   y[999] =", y[999], " y[N-1] =", y[N - 1])
print("isum    ", timed("isum", isum))
for _ in range(10):
    timed("stencil", stencil, u, v)
    timed("stencil", stencil, v, u)
print("stencil u[1, 1] =", u[1, 1], " u[5, 7] =", u[5, 7])
print("collatz ", timed("collatz", collatz, 100000))
