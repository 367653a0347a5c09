# Particles falling in a box, written as a Taichi program with `import kiln as ti`:
# it runs the same under `kiln run` and under CPython with Kiln's Python module
# (host code is then real Python; kernels go to Kiln's frontend):
#   scripts/run examples/python_particles.py
#   PYTHONPATH=build/python /usr/bin/python3 examples/python_particles.py
import kiln as ti
import numpy as np

ti.init(arch=ti.cpu)

n = 16
gravity = -9.8
pos = ti.Vector.field(2, ti.f32, shape=n)
vel = ti.Vector.field(2, ti.f32, shape=n)
bounces = ti.field(ti.i32, shape=())
lowest = ti.field(ti.f32, shape=())


@ti.func
def reflect(i: ti.i32):
    if pos[i][1] < 0:
        pos[i][1] = -pos[i][1]
        vel[i][1] = -vel[i][1] * 0.8
        bounces[None] += 1


@ti.kernel
def init(spread: ti.f32):
    for i in pos:
        pos[i] = ti.Vector([i * spread, 1.0 + 0.05 * i])
        vel[i] = ti.Vector([0.0, 0.0])


@ti.kernel
def step(dt: ti.f32) -> ti.f32:
    lowest[None] = 10.0
    for i in pos:
        vel[i][1] += gravity * dt
        pos[i] += vel[i] * dt
        reflect(i)
        ti.atomic_min(lowest[None], pos[i][1])
    return lowest[None]


@ti.kernel
def heights(out: ti.types.ndarray(dtype=ti.f32, ndim=1)):
    for i in range(n):
        out[i] = pos[i][1]


@ti.kernel
def report(frame: ti.i32):
    print("frame", frame, "bounces", bounces[None])


init(0.1)
for frame in range(1, 121):
    low = step(0.01)
    if frame % 40 == 0:
        report(frame)
        print("lowest %.4f" % low)

h = np.zeros(n, dtype=np.float32)
heights(h)  # the kernel writes the numpy array in place
print("mean height %.4f" % h.mean())
p = pos.to_numpy()
print(p.shape, p.dtype, "x of particle 3: %.2f" % p[3, 0])
p[:, 1] = 2.0
pos.from_numpy(p)
print("after from_numpy:", "%.1f" % pos[5][1], bounces[None] > 0)
