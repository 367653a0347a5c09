# Tiled all-pairs n-body on the GPU (Taichi's shared-memory pattern): each
# block of T bodies loads T other bodies at a time into a block-shared array
# (ti.simt.block.SharedArray), waits for the whole tile (ti.simt.block.sync),
# and every body of the block reads the tile from shared memory instead of
# global memory. The same step without tiles gives the same accelerations
# (the sums run in the same order), which the program checks.
#   kiln run examples/nbody_tiled.py     (arch=ti.vulkan: shared memory is GPU-only)
import time

import taichi as ti

ti.init(arch=ti.vulkan)

N, T = 2048, 64  # bodies, tile (block) size
pos = ti.Vector.field(3, ti.f32, shape=N)
acc = ti.Vector.field(3, ti.f32, shape=N)
acc_ref = ti.Vector.field(3, ti.f32, shape=N)


@ti.kernel
def init():
    for i in pos:
        pos[i] = ti.math.vec3((i * 37 % 101) * 0.1, (i * 53 % 103) * 0.1, (i * 71 % 107) * 0.1)


@ti.func
def pull(p, q):
    d = q - p
    r2 = d.dot(d) + 0.01
    inv = 1.0 / ti.sqrt(r2)
    return d * (inv * inv * inv)


@ti.kernel
def accel_tiled():
    ti.loop_config(block_dim=T)
    for i in range(N):
        tid = i % T
        tile = ti.simt.block.SharedArray((T,), ti.math.vec3)
        p = pos[i]
        a = ti.math.vec3(0.0)
        for k in range(N // T):
            tile[tid] = pos[k * T + tid]  # each body of the block loads one
            ti.simt.block.sync()
            for j in range(T):
                a += pull(p, tile[j])
            ti.simt.block.sync()  # the tile is read before the next one overwrites it
        acc[i] = a


@ti.kernel
def accel_plain():
    for i in range(N):
        p = pos[i]
        a = ti.math.vec3(0.0)
        for j in range(N):
            a += pull(p, pos[j])
        acc_ref[i] = a


def best_ms(k, runs=3):
    k()
    ti.sync()
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        k()
        ti.sync()
        best = min(best, time.perf_counter() - t)
    return best * 1000


init()
tiled, plain = best_ms(accel_tiled), best_ms(accel_plain)
a, r = acc.to_numpy(), acc_ref.to_numpy()
print("bodies:", N, "tile:", T)
print("accelerations agree:", bool(abs(a - r).max() <= 1e-4 * abs(r).max()))
print("acc[0] =", [round(float(c), 3) for c in a[0]])
print(f"tiled {tiled:.1f} ms, plain {plain:.1f} ms (best of 3)")
