# One launch of each kernel, long enough to tier up while it runs (the
# default engine with KILN_TIER_MS=0 KILN_TIER_SYNC=1: LLVM's code is
# compiled at the first slice's end and runs the rest of the launch):
# whichever iterations ran on which engine, the interpreter's output.
#  - escape-time loops, jammed four a pass in LLVM's copy: a switch at
#    iterations that are not a pass's first runs the partial pass here;
#  - a loop's prints (on one thread: in order) and ti.random draws;
#  - integer and float sums (thread-local partials: a float sum's serial
#    launch is not cut, so its one partial adds in the interpreter's order);
#  - a later task of the same launch starts on LLVM's code.
import sys

import taichi as ti

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
ti.init(cpu_max_num_threads=threads)
W, H = 101, 93
img = ti.field(ti.i32, shape=(W, H))
vals = ti.field(ti.f32, shape=5003)
isum = ti.field(ti.i64, shape=())
fsum = ti.field(ti.f32, shape=())


@ti.kernel
def mandel(iters: ti.i32):
    for i, j in ti.ndrange(W, H):
        cx = -2.0 + 3.0 * i / W
        cy = -1.5 + 3.0 * j / H
        x = 0.0
        y = 0.0
        n = 0
        while n < iters and x * x + y * y < 4.0:
            x, y = x * x - y * y + cx, 2.0 * x * y + cy
            n += 1
        img[i, j] = n
    for k in range(W * H):  # a second task: LLVM's from its start
        isum[None] += img[k // H, k % H] * (k % 3)


@ti.kernel
def walk(n: ti.i32, loud: ti.i32):
    for i in range(n):
        r = ti.random()
        vals[i] = r
        if loud and i % 613 == 0:
            print("walk", i, r, ti.random(ti.i32) % 1000)


@ti.kernel
def sums(w: ti.f32):
    for i in range(5003):
        fsum[None] += ti.cast(i % 7, ti.f32) * 0.5 + vals[i] * w
        isum[None] += i * i


steps = ti.field(ti.i32, shape=3001)


@ti.kernel
def collatz(cap: ti.i32):
    # An integer while loop: the JIT runs it unjammed (its lanes take float
    # loops only), so this one task switches part-way through its launch.
    for i in range(3001):
        x = i + 1
        n = 0
        while x != 1 and n < cap:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            n += 1
        steps[i] = n


mandel(300)
print("img", img.to_numpy().sum(), img[50, 46], img[0, 0], isum[None])
walk(5003, threads == 1)
print("vals", vals[0], vals[2500], vals[5002])
sums(1.0 if threads == 1 else 0.0)  # (in parallel, only sums that no order changes)
print("sums", fsum[None], isum[None])
collatz(500)
print("collatz", steps.to_numpy().sum(), steps[26], steps[3000])
