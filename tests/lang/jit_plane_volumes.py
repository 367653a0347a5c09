# 4-D ndrange loops the JIT runs eight elements of a row at a time, row after
# row, plane after plane and volume after volume (the linear index split as
# l = I % M, k = (I // M) % P, j = (I // (M * P)) % V, i = I // (M * P * V):
# jit/vector.h's volumes of planes): neighbours along every axis, the indices
# as values, ti.grouped over four axes, inner rows that are not multiples of
# 8, extents of 2 (a new plane or volume every other row or plane), an i32
# sum (each row re-enters the vector loop), and two threads (a chunk may
# start inside a volume).
import taichi as ti

ti.init(arch=ti.cpu, cpu_max_num_threads=2)
A, B, C, D = 4, 5, 6, 29
a = ti.field(ti.f32, shape=(A, B, C, D))
b = ti.field(ti.f32, shape=(A, B, C, D))
n = ti.field(ti.i32, shape=(A, B, C, D))


@ti.kernel
def init():
    for h, i, j, k in a:
        a[h, i, j, k] = ti.cast((h * 53 + i * 37 + j * 11 + k * 5) % 97, ti.f32) * 0.25
        b[h, i, j, k] = -1.0
        n[h, i, j, k] = h * 1000 - i * 100 + j * 10 - k


@ti.kernel
def sweep(k0: ti.template()):
    for h, i, j, k in ti.ndrange((1, A - 1), (1, B - 1), (1, C - 1), (k0, D - 1)):
        b[h, i, j, k] = (a[h - 1, i, j, k] + a[h + 1, i, j, k] + a[h, i - 1, j, k] + a[h, i + 1, j, k] +
                         a[h, i, j - 1, k] + a[h, i, j + 1, k] + a[h, i, j, k - 1] + a[h, i, j, k + 1]) * 0.125


@ti.kernel
def values():
    for h, i, j, k in ti.ndrange(A, (1, B), (2, C), (3, D)):
        b[h, i, j, k] = ti.cast(h * 1000 + i * 100 + j * 10 + k, ti.f32) + (1.0 if i == 1 or h == 2 else a[h, i, j, k])


@ti.kernel
def grouped():
    for I in ti.grouped(ti.ndrange((1, A), (0, B), (1, C - 1), (0, D - 2))):
        b[I] = a[I - ti.Vector([1, 0, 1, 0])] * 2.0 + ti.cast(I[0] * 7 - I[2], ti.f32)


@ti.kernel
def thin():  # extents of 2: a new volume every other plane, a new plane every other row
    for h, i, j, k in ti.ndrange((1, 3), (2, 4), (3, 5), (1, D)):
        b[h, i, j, k] = a[h, i, j, k - 1] - a[h - 1, i - 1, j - 1, k]


@ti.kernel
def total() -> ti.i32:
    s = 0
    for h, i, j, k in ti.ndrange((1, A), (1, B), (0, C - 1), (0, D - 3)):
        s += n[h, i, j, k] * 3
    return s


def show(name):
    x = b.to_numpy()
    print(name, float(x.astype("float64").sum()), x[1, 1, 1, 1], x[A - 2, B - 2, C - 2, D - 2], x[2, 3, 4, 17],
          x[0, 0, 0, 0])


for k0 in (1, 2, 5, 9):
    init()
    sweep(k0)
    show("sweep %d" % k0)
for f in (values, grouped, thin):
    init()
    f()
    show(f.__name__)
print("total", total())
