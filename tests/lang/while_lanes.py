# Parallel loops around a pure float while loop, whose copies the JIT runs in
# the lanes of one vector register (jit/while_lanes.h: 8 f32 copies, one a
# lane, the loop running until no lane is live): every engine prints the
# interpreter's bits. Both escape-test shapes (in the while's header, and a
# `break` in the body), lanes that leave at different counts (one at once,
# one never), each lane's final x and y and count, ranges of 1-19
# iterations (every remainder mod 8: the last ones run alone), a range that
# does not start at 0, an if/else in the loop, an i32 state besides the
# counter, min/max/abs/sqrt/div in the loop, f64 loops, and two threads.
import taichi as ti

ti.init(arch=ti.cpu, cpu_max_num_threads=2)
W = 37
img = ti.field(ti.i32, shape=(W, W))
fx = ti.field(ti.f32, shape=(W, W))
cnt = ti.field(ti.i32, shape=40)
val = ti.field(ti.f32, shape=40)
dv = ti.field(ti.f64, shape=40)


@ti.kernel
def header(maxit: ti.i32):
    for i, j in img:
        cx = -2.0 + 3.0 * i / W
        cy = -1.5 + 3.0 * j / W
        x = 0.0
        y = 0.0
        n = 0
        while n < maxit and x * x + y * y < 4.0:
            x, y = x * x - y * y + cx, 2.0 * x * y + cy
            n += 1
        img[i, j] = n
        fx[i, j] = x + y


@ti.kernel
def body_break(maxit: ti.i32):
    for i, j in img:
        cx = -2.0 + 3.0 * i / W
        cy = -1.5 + 3.0 * j / W
        x = 0.0
        y = 0.0
        it = 0
        while it < maxit:
            if x * x + y * y >= 4.0:
                break
            x, y = x * x - y * y + cx, 2.0 * x * y + cy
            it += 1
        img[i, j] = it
        fx[i, j] = x * 3.0 - y


@ti.kernel
def ranges(lo: ti.template(), hi: ti.template()):
    for i in range(lo, hi):
        c = ti.f32(i) * 0.173 + 0.01
        x = ti.f32(i) * 0.5
        n = 0
        k = 7
        while n < 60:
            if ti.abs(x - c) < 1e-5:
                break
            if x > c:
                x = ti.max(c, x * 0.5)
                k = k * 3 + n
            else:
                x = ti.min(x + ti.sqrt(c), x * 2.0 + 0.25) / 1.01
            n += 1
        cnt[i] = n * 1000 + (k & 255)
        val[i] = x


@ti.kernel
def f64_loop(lo: ti.template(), hi: ti.template()):
    for i in range(lo, hi):
        c = ti.f64(i) * 0.0731 - 0.8
        x = ti.f64(0.0)
        y = ti.f64(0.0)
        n = 0
        while n < 150:
            if x * x + y * y >= 4.0:
                break
            x, y = x * x - y * y + c, 2.0 * x * y + 0.156
            n += 1
        cnt[i] = n
        dv[i] = x


@ti.kernel
def f64_select(lo: ti.template(), hi: ti.template()):
    # a select of a value from before the loop and a carried one (its type
    # only its reader knows), a min with a constant
    for i in range(lo, hi):
        c0 = ti.f64(i) * 0.125 - 0.5
        c1 = 0.0625 * ti.f64(i) * 0.125
        x = ti.f64(0.0)
        y = c1
        n = 0
        while n < 30:
            x, y = (c1 / (y * y + 0.5)) + (x - y), (c0 if c0 < x else x) - ti.abs(y)
            x = ti.min(x * 2.0, 0.75)
            n += 1
        dv[i] = x + y


def show(name):
    a = img.to_numpy()
    b = fx.to_numpy()
    print(name, int(a.sum()), int(a.max()), [int(v) for v in a[W // 2, ::5]])
    print(" ", [float(v) for v in b[W // 3, ::6]], float(b.sum()))


header(200)
show("header 200")
header(3)
show("header 3")
body_break(200)
show("break 200")
body_break(1)
show("break 1")
for lo, hi in [(0, 1), (0, 7), (0, 8), (0, 9), (3, 19), (0, 16), (5, 17), (0, 40)]:
    for k in range(40):
        cnt[k] = -1
        val[k] = -1.0
    ranges(lo, hi)
    print("ranges", lo, hi, [int(cnt[k]) for k in range(lo, hi)], [float(val[k]) for k in range(lo, hi)])
for lo, hi in [(0, 3), (0, 4), (1, 11), (0, 40)]:
    f64_loop(lo, hi)
    print("f64", lo, hi, [int(cnt[k]) for k in range(lo, hi)], [float(dv[k]) for k in range(lo, hi)])
for lo, hi in [(3, 34), (0, 5)]:
    f64_select(lo, hi)
    print("f64_select", lo, hi, [float(dv[k]) for k in range(lo, hi)])
