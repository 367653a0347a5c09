# `x[i, j] += e` in a parallel loop over a 2-D ndrange or a 2-D/3-D field,
# where each iteration owns its element (demote_atomics makes these plain
# load-op-store; the JIT then runs them in lanes), next to cases that stay
# atomic (a row shared by its iterations, an element read transposed).
# Checked against numpy.
import numpy as np
import taichi as ti
ti.init(arch=ti.cpu)

N, M = 37, 29
u = ti.field(ti.f32, shape=(N, M))
f = ti.field(ti.f32, shape=(N, M))
w = ti.field(ti.i32, shape=(N, M))
rows = ti.field(ti.i32, shape=N)
sq = ti.field(ti.i32, shape=(M, M))
v = ti.Vector.field(3, ti.f32, shape=(5, 4, 3))
cnt = ti.field(ti.i32, shape=(5, 4, 3))


@ti.kernel
def init():
    for i, j in u:
        u[i, j] = (i * 3 + j) % 7 * 0.25
        f[i, j] = (i + j * 5) % 11 * 0.125
        w[i, j] = i * 100 + j


@ti.kernel
def step(dt: ti.f32):
    for i, j in u:
        u[i, j] += dt * f[i, j]
        w[i, j] -= i + j


@ti.kernel
def nd(k: ti.i32):
    for i, j in ti.ndrange(N, M):
        ti.atomic_max(w[i, j], k * j)
        rows[i] += 1  # shared by the row: stays atomic


@ti.kernel
def transpose_add():
    for i, j in sq:
        sq[i, j] += 1 + 0 * sq[j, i]  # names another iteration's element: stays atomic


@ti.kernel
def vec3d():
    for i, j, k in v:
        v[i, j, k] += ti.Vector([i, j, k]) * 0.5
        cnt[i, j, k] += 1


init()
for _ in range(3):
    step(0.5)
nd(150)
vec3d()
vec3d()
transpose_add()

un = ((np.arange(N)[:, None] * 3 + np.arange(M)[None, :]) % 7 * 0.25).astype(np.float32)
fn = ((np.arange(N)[:, None] + np.arange(M)[None, :] * 5) % 11 * 0.125).astype(np.float32)
for _ in range(3):
    un = (un + np.float32(0.5) * fn).astype(np.float32)
wn = np.arange(N)[:, None] * 100 + np.arange(M)[None, :] - 3 * (np.arange(N)[:, None] + np.arange(M)[None, :])
wn = np.maximum(wn, 150 * np.arange(M)[None, :])
print("u", np.array_equal(u.to_numpy(), un), float(u.to_numpy().sum()))
print("w", np.array_equal(w.to_numpy(), wn), int(w.to_numpy().sum()))
print("rows", rows.to_numpy().tolist()[:5], int(rows.to_numpy().sum()))
vn = v.to_numpy()
ok = all(vn[i, j, k, 0] == i and vn[i, j, k, 1] == j and vn[i, j, k, 2] == k
         for i in range(5) for j in range(4) for k in range(3))
print("v", ok, int(cnt.to_numpy().sum()))
print("sq", int(sq.to_numpy().sum()), M * M)
