# nbody_example: Taichi's own n-body example (python/taichi/examples/simulation/
# nbody.py) as its users write it: 2-D vector fields, the force zeroed in one
# loop and accumulated in memory, `force[i] += f` inside `if i != j:` over j,
# with diff.norm(eps) and (1 / r) ** 3. 3000 bodies (the example's), 2 steps
# after a warm-up step. Prints a checksum (sum of positions, f64) and the time.
import math
import sys
import time

import taichi as ti

ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = 3000
G, m = 1, 1
pos = ti.Vector.field(2, ti.f32, N)
vel = ti.Vector.field(2, ti.f32, N)
force = ti.Vector.field(2, ti.f32, N)


@ti.kernel
def initialize():
    for i in range(N):
        theta = (i * 37 % 101) / 101 * 2 * math.pi
        r = ((i * 53 % 103) / 103 * 0.6 + 0.4) * 0.4
        offset = r * ti.Vector([ti.cos(theta), ti.sin(theta)])
        pos[i] = ti.Vector([0.5, 0.5]) + offset
        vel[i] = ti.Vector([-offset.y, offset.x]) * 120


@ti.kernel
def compute_force():
    for i in range(N):
        force[i] = [0.0, 0.0]
    for i in range(N):
        p = pos[i]
        for j in range(N):
            if i != j:
                diff = p - pos[j]
                r = diff.norm(1e-5)
                f = -G * m * m * (1.0 / r) ** 3 * diff
                force[i] += f


@ti.kernel
def update(dt: ti.f32):
    for i in range(N):
        vel[i] += dt * force[i] / m
        pos[i] += dt * vel[i]


@ti.kernel
def check() -> ti.f64:
    s = ti.f64(0.0)
    ti.loop_config(serialize=True)
    for i in range(N):
        s += ti.f64(pos[i].x) + ti.f64(pos[i].y)
    return s


initialize()
compute_force()
update(1e-5)
t = time.perf_counter()
for k in range(2):
    compute_force()
    update(1e-5)
ti.sync()  # on a GPU, launches may still run
dt = time.perf_counter() - t
print("checksum", check())
print("time_ms", dt * 1000)
