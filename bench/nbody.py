# nbody: all-pairs gravity over 4096 bodies (f32), 2 steps after a warm-up
# step. Prints a checksum (sum of positions, summed serially in f64) and the time.
import taichi as ti
import time
import sys
ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = 4096
pos = ti.Vector.field(3, ti.f32, shape=N)
vel = ti.Vector.field(3, ti.f32, shape=N)

@ti.kernel
def init():
    for i in pos:
        pos[i] = ti.math.vec3((i * 37 % 101) * 0.1, (i * 53 % 103) * 0.1, (i * 71 % 107) * 0.1)
        vel[i] = ti.math.vec3(0.0)

@ti.kernel
def step(dt: ti.f32):
    for i in range(N):
        p = pos[i]
        a = ti.math.vec3(0.0)
        for j in range(N):
            d = pos[j] - p
            r2 = d.dot(d) + 0.01
            inv = 1.0 / ti.sqrt(r2)
            a += d * (inv * inv * inv)
        vel[i] += a * dt
    for i in range(N):
        pos[i] += vel[i] * dt

@ti.kernel
def check() -> ti.f64:
    s = ti.f64(0.0)
    ti.loop_config(serialize=True)
    for i in range(N):
        s += ti.f64(pos[i].x) + ti.f64(pos[i].y) + ti.f64(pos[i].z)
    return s

init()
step(0.001)
t = time.perf_counter()
for k in range(2):
    step(0.001)
ti.sync()  # on a GPU, launches may still run
dt = time.perf_counter() - t
print("checksum", check())
print("time_ms", dt * 1000)
