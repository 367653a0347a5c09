# small_launches: 2000 launches of a kernel over 4096 f32 (a time step of a
# small simulation), then one read. What it measures is the cost of a launch
# itself: on the CPU engines a call into the engine, on Vulkan a submit.
import taichi as ti
import time
ti.init()
N = 4096
x = ti.field(ti.f32, shape=N)

@ti.kernel
def init():
    for i in x:
        x[i] = (i % 10) * 0.1

@ti.kernel
def step(a: ti.f32):
    for i in x:
        x[i] = x[i] * a + 0.25

init()
step(0.5)
t = time.perf_counter()
for k in range(2000):
    step(0.5)
s = 0.0
for i in range(0, N, 64):
    s += x[i]
ti.sync()  # on a GPU, launches may still run
dt = time.perf_counter() - t
print("checksum", s)
print("time_ms", dt * 1000)
