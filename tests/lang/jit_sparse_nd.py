# Sparse accesses and SNode ops with 3, 4 and 5 indices in hot loops (the
# JIT calls the runtime for the ones that activate: indices past the second
# are passed ahead of the call). Taichi's mgpcg example restricts a 3-D
# pointer grid into a coarser one this way.
import taichi as ti
ti.init(arch=ti.cpu)

N = 16
fine = ti.field(ti.f32)
coarse = ti.field(ti.f32)
ti.root.pointer(ti.ijk, N // 4).dense(ti.ijk, 4).place(fine)
blocks = ti.root.pointer(ti.ijk, N // 8)
blocks.dense(ti.ijk, 4).place(coarse)


@ti.kernel
def init():
    for i, j, k in ti.ndrange((2, 14), (4, 12), (0, 9)):
        if (i + 2 * j + k) % 3 != 0:
            fine[i, j, k] = i * 0.25 + j - k * 0.5


@ti.kernel
def restrict():
    for i, j, k in fine:
        coarse[i // 2, j // 2, k // 2] += fine[i, j, k] * 0.5


@ti.kernel
def census() -> ti.f64:
    s = 0.0
    n = 0
    for i, j, k in coarse:
        s += coarse[i, j, k] * (i + 1) * (j + 2) * (k + 3)
        n += 1
    return s + n * 1000.0


init()
restrict()
print(census())

# 4 and 5 indices: writes that activate, ti.is_active / ti.activate /
# ti.deactivate on the pointer level, from a serial loop (one trace, hot).
q = ti.field(ti.i32)
cells4 = ti.root.pointer(ti.ijkl, (3, 3, 2, 2))
cells4.dense(ti.ijkl, 2).place(q)
w = ti.field(ti.i32)
cells5 = ti.root.pointer(ti.axes(0, 1, 2, 3, 4), (2, 3, 2, 3, 2))
cells5.place(w)


@ti.kernel
def fill4() -> ti.i32:
    ti.loop_config(serialize=True)
    for t in range(300):
        a, b, c, d = t % 6, (t // 6) % 6, (t // 36) % 4, (t * 7) % 4
        if (a + b + c + d) % 4 == 1:
            q[a, b, c, d] += t
    on = 0
    for a, b, c, d in ti.ndrange(3, 3, 2, 2):
        if ti.is_active(cells4, [a, b, c, d]):
            on += 1
    return on


@ti.kernel
def fill5() -> ti.i32:
    ti.loop_config(serialize=True)
    for t in range(200):
        a, b, c, d, e = t % 2, (t // 2) % 3, (t // 6) % 2, (t // 3) % 3, (t * 5) % 2
        if (t % 3) != 0:
            w[a, b, c, d, e] = t
        if t % 17 == 0:
            ti.activate(cells5, [e, d % 3, c, b, a])
        if t % 29 == 0:
            ti.deactivate(cells5, [a, b, c, d, e])
    n = 0
    for a, b, c, d, e in w:
        n += w[a, b, c, d, e] + 1000
    return n


print(fill4(), q.to_numpy().sum())
print(fill5())
