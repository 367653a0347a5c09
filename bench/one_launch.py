# one_launch: a program whose work is one long launch, timed from before it
# (its compile included), as a user's one-shot render runs: a ray marcher
# over a lattice of spheres, 1600x1600 rays of at most 300 steps each, the
# depth of each hit written to the image. On the default engine the kernel
# tiers up to LLVM while that launch runs (docs/llvm_tier.md);
# KILN_TIER_IN_LAUNCH=0 leaves it on the JIT until a later launch.
import sys
import time

import taichi as ti

ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
W = 1600
depth = ti.field(ti.f32, shape=(W, W))


@ti.kernel
def render(radius: ti.f32):
    for px, py in depth:
        # a ray from (0.3, 0.4, -2) through the pixel, its direction normalized
        dx = (px + 0.5) / W - 0.5
        dy = (py + 0.5) / W - 0.5
        inv = 1.0 / ti.sqrt(dx * dx + dy * dy + 1.0)
        dx, dy, dz = dx * inv, dy * inv, inv
        t = 0.0
        steps = 0
        while steps < 300 and t < 40.0:
            # the distance to the nearest sphere of the unit lattice
            qx = 0.3 + t * dx
            qy = 0.4 + t * dy
            qz = -2.0 + t * dz
            qx -= ti.floor(qx) + 0.5
            qy -= ti.floor(qy) + 0.5
            qz -= ti.floor(qz) + 0.5
            d = ti.sqrt(qx * qx + qy * qy + qz * qz) - radius
            if d < 1e-3:
                break
            t += d
            steps += 1
        depth[px, py] = t


@ti.kernel
def total() -> ti.f64:
    s = ti.f64(0.0)
    for i, j in depth:
        s += ti.cast(depth[i, j], ti.f64)
    return s


t0 = time.perf_counter()
render(0.2)
ti.sync()
dt = time.perf_counter() - t0
print("checksum", total())
print("time_ms", dt * 1000)
