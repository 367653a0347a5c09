# 3-D ndrange loops whose indices are values, not only addresses (the JIT runs
# them eight elements of a row at a time: the plane index i and the row's j
# are the same over a row and come into the lanes once a row, as k's row
# position does): coordinates in the arithmetic (x = i * j + k, an int stored
# to an f32 field), boundary tests on each index (`1.0 if k == 0 else ...`,
# ti.select on i and j), I[0] and I[1] of ti.grouped, i // 2 and j % 3 of them,
# inner rows that are not multiples of 8, a middle extent of 2 (a new plane
# every other row), and two threads (a chunk may start inside a plane).
import taichi as ti

ti.init(arch=ti.cpu, cpu_max_num_threads=2)
A, B, C = 6, 7, 45
a = ti.field(ti.f32, shape=(A, B, C))
b = ti.field(ti.f32, shape=(A, B, C))
n = ti.field(ti.i32, shape=(A, B, C))


@ti.kernel
def init():
    for i, j, k in a:
        a[i, j, k] = ti.cast((i * 37 + j * 11 + k * 5) % 97, ti.f32) * 0.25
        b[i, j, k] = -1.0
        n[i, j, k] = -7


@ti.kernel
def coords(k0: ti.template()):
    for i, j, k in ti.ndrange((1, A), (0, B), (k0, C)):
        b[i, j, k] = i * j + k
        n[i, j, k] = i * 10000 - j * 100 + k


@ti.kernel
def edges():
    for i, j, k in ti.ndrange(A, B, (1, C - 2)):
        v = 1.0 if k == 1 else a[i, j, k] * 0.5
        b[i, j, k] = ti.select(i == A - 1, 2.0, ti.select(j == 0, 3.0, v))


@ti.kernel
def grouped():
    for I in ti.grouped(ti.ndrange((1, A - 1), (1, B), (2, C - 1))):
        b[I] = (1.0 if I[0] == 1 else a[I]) + ti.cast(I[1] * 3 - I[2], ti.f32)


@ti.kernel
def divided():
    for i, j, k in ti.ndrange(A, B, (3, C)):
        n[i, j, k] = (i // 2) * 1000 + (j % 3) * 10 + k


@ti.kernel
def thin():  # a middle extent of 2: a new plane every second row
    for i, j, k in ti.ndrange((1, A - 1), (3, 5), (2, C)):
        b[i, j, k] = a[i, j, k] - ti.cast(i * 100 + j, ti.f32)


def show(name):
    x = b.to_numpy()
    m = n.to_numpy()
    print(name, float(x.astype("float64").sum()), x[1, 1, 1], x[A - 2, B - 2, C - 2], x[2, 3, 17], x[0, 0, 0],
          int(m.astype("int64").sum()), m[1, 0, 3], m[A - 1, B - 1, C - 1], m[3, 4, 5])


for k0 in (0, 1, 3, 8):
    init()
    coords(k0)
    show("coords %d" % k0)
for f in (edges, grouped, divided, thin):
    init()
    f()
    show(f.__name__)
