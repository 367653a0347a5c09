# 3-D ndrange loops the JIT runs eight elements of a row at a time, row after
# row and plane after plane (the linear index split as k = I % M, j = (I // M)
# % P, i = I // (M * P): jit/vector.h's planes of rows): a 7-point stencil
# written with three indices and with ti.grouped, inner rows that are not
# multiples of 8 at several first columns, a middle extent of 2, an i32 sum
# (each row re-enters the vector loop), the indices as values (in lanes too:
# jit_plane_values.py), a 4-D range writing a 4-D field from a 3-D one (two
# fields of one tree along different directions: stays scalar; 4-D ranges in
# lanes: jit_plane_volumes.py), a struct-for over a whole 3-D field, and two
# threads (a chunk may start inside a plane).
import taichi as ti

ti.init(arch=ti.cpu, cpu_max_num_threads=2)
A, B, C = 6, 7, 45
a = ti.field(ti.f32, shape=(A, B, C))
b = ti.field(ti.f32, shape=(A, B, C))
n = ti.field(ti.i32, shape=(A, B, C))
w = ti.field(ti.f32, shape=(3, 4, 3, 29))


@ti.kernel
def init():
    for i, j, k in a:
        a[i, j, k] = ti.cast((i * 37 + j * 11 + k * 5) % 97, ti.f32) * 0.25
        b[i, j, k] = -1.0
        n[i, j, k] = i * 1000 - j * 17 + k


@ti.kernel
def sweep_ijk(k0: ti.template()):
    for i, j, k in ti.ndrange((1, A - 1), (1, B - 1), (k0, C - 1)):
        b[i, j, k] = (a[i - 1, j, k] + a[i + 1, j, k] + a[i, j - 1, k] + a[i, j + 1, k] + a[i, j, k - 1] +
                      a[i, j, k + 1]) * 0.125 + a[i, j, k]


@ti.kernel
def sweep_grouped():
    for I in ti.grouped(ti.ndrange((1, A - 1), (1, B - 1), (1, C - 1))):
        s = 0.0
        for d in ti.static(range(3)):
            e = ti.Vector.unit(3, d, ti.i32)
            s += a[I + e] + a[I - e]
        b[I] = s * 0.125


@ti.kernel
def thin():  # a middle extent of 2: a new plane every second row
    for i, j, k in ti.ndrange((1, A - 1), (3, 5), (2, C)):
        b[i, j, k] = a[i, j, k - 2] * 2.0 - a[i - 1, j - 1, k]


@ti.kernel
def total() -> ti.i32:
    s = 0
    for i, j, k in ti.ndrange((1, A), (2, B), (0, C - 3)):
        s += n[i, j, k] * 3
    return s


@ti.kernel
def indices():
    for i, j, k in ti.ndrange((1, A), (0, B), (3, C)):
        b[i, j, k] = ti.cast(i * 10000 + j * 100 + k, ti.f32)


@ti.kernel
def four():
    for h, i, j, k in ti.ndrange(3, (1, 4), 3, (1, 29)):
        w[h, i, j, k] = ti.cast(h * 1000 + j * 10, ti.f32) + a[h + 1, i, k + 3]


@ti.kernel
def whole():
    for I in ti.grouped(a):
        b[I] = a[I] * 3.0 + 1.0


def show(name):
    x = b.to_numpy()
    print(name, float(x.astype("float64").sum()), x[1, 1, 1], x[A - 2, B - 2, C - 2], x[2, 3, 17], x[0, 0, 0])


for k0 in (1, 2, 3, 5, 8, 9):
    init()
    sweep_ijk(k0)
    show("ijk %d" % k0)
init()
sweep_grouped()
show("grouped")
init()
thin()
show("thin")
init()
print("total", total())
indices()
show("indices")
four()
y = w.to_numpy()
print("four", float(y.astype("float64").sum()), y[0, 1, 0, 1], y[2, 3, 2, 28])
whole()
show("whole")
