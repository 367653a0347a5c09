# nbody_soa: all-pairs gravity over 4096 bodies with masses, written as users
# write it in structure-of-arrays form: one f32 field per coordinate and one for
# the mass, and the acceleration summed in three scalar locals (`ax += dx * s`,
# which fast_math splits into partial sums). 2 steps after a warm-up step.
# Prints a checksum (sum of positions, summed serially in f64) and the time.
import taichi as ti
import time
import sys
ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = 4096
x = ti.field(ti.f32, shape=N)
y = ti.field(ti.f32, shape=N)
z = ti.field(ti.f32, shape=N)
m = ti.field(ti.f32, shape=N)
vx = ti.field(ti.f32, shape=N)
vy = ti.field(ti.f32, shape=N)
vz = ti.field(ti.f32, shape=N)

@ti.kernel
def init():
    for i in x:
        x[i] = (i * 37 % 101) * 0.1
        y[i] = (i * 53 % 103) * 0.1
        z[i] = (i * 71 % 107) * 0.1
        m[i] = 0.5 + (i % 7) * 0.25
        vx[i] = 0.0
        vy[i] = 0.0
        vz[i] = 0.0

@ti.kernel
def step(dt: ti.f32):
    for i in range(N):
        xi = x[i]
        yi = y[i]
        zi = z[i]
        ax = 0.0
        ay = 0.0
        az = 0.0
        for j in range(N):
            dx = x[j] - xi
            dy = y[j] - yi
            dz = z[j] - zi
            r2 = dx * dx + dy * dy + dz * dz + 0.01
            inv = 1.0 / ti.sqrt(r2)
            s = m[j] * inv * inv * inv
            ax += dx * s
            ay += dy * s
            az += dz * s
        vx[i] += ax * dt
        vy[i] += ay * dt
        vz[i] += az * dt
    for i in range(N):
        x[i] += vx[i] * dt
        y[i] += vy[i] * dt
        z[i] += vz[i] * dt

@ti.kernel
def check() -> ti.f64:
    s = ti.f64(0.0)
    ti.loop_config(serialize=True)
    for i in range(N):
        s += ti.f64(x[i]) + ti.f64(y[i]) + ti.f64(z[i])
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
