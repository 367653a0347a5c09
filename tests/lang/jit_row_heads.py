# ndrange rows whose vector loop starts each row with a masked head up to the
# store's 32-byte boundary (jit/asm_lane_head.cpp, on AVX-512 hosts): the
# first stored column at every offset 0..8, rows too short for a head, a
# field whose rows are not a multiple of 8 long (the boundary moves from row
# to row), and two threads (a chunk may start in the middle of a row).
import taichi as ti

ti.init(arch=ti.cpu, cpu_max_num_threads=2)
R, C = 23, 77
a = ti.field(ti.f32, shape=(R, C))
b = ti.field(ti.f32, shape=(R, C))
w = ti.field(ti.f32, shape=(R, 75))


@ti.kernel
def init():
    for i, j in a:
        a[i, j] = ti.cast((i * 31 + j * 7) % 101, ti.f32) * 0.25
        b[i, j] = -1.0


@ti.kernel
def sweep(j0: ti.template(), j1: ti.template()):
    for i, j in ti.ndrange((1, R - 1), (j0, j1)):
        b[i, j] = 0.5 * (a[i - 1, j] + a[i, j]) + a[i + 1, j] * 0.25 + ti.cast(j, ti.f32)


@ti.kernel
def fill_w(j0: ti.template()):
    for i, j in ti.ndrange(R, (j0, 75)):
        w[i, j] = ti.cast(i * 1000 + j, ti.f32)


init()
for j0 in range(9):
    init()
    sweep(j0, C - j0 % 3)
    x = b.to_numpy()
    print(j0, x.sum(), x[1, j0], x[R - 2, C - 1 - j0 % 3], x[5, 0], x[5, C - 1])
for j0, j1 in ((3, 20), (5, 34), (0, 40)):
    init()
    sweep(j0, j1)
    x = b.to_numpy()
    print(j0, j1, x.sum(), x[1, j0], x[R - 2, j1 - 1], x[R - 2, j1])
for j0 in (6, 1, 0):
    fill_w(j0)
    y = w.to_numpy()
    print(j0, y.sum(), y[0, j0], y[R - 1, 74], y[7, 40])
