# Launches that read nothing back return before the device has run them
# (Vulkan); every host access waits for them first: x[i],
# to_numpy/from_numpy, ti.sync(), a kernel with a return, and
# a read-only ndarray argument changed by the host between launches.
import numpy as np
import taichi as ti

ti.init(arch=ti.vulkan)
n = 1000
x = ti.field(ti.f32, shape=n)
y = ti.field(ti.i32, shape=(8, 125))


@ti.kernel
def step(a: ti.f32):
    for i in x:
        x[i] = x[i] * a + 1.0


@ti.kernel
def count():
    for i, j in y:
        y[i, j] += i * 125 + j


@ti.kernel
def total() -> ti.f32:
    s = 0.0
    for i in x:
        s += x[i]
    return s


@ti.kernel
def add_from(a: ti.types.ndarray(), k: ti.i32):
    for i in x:
        x[i] += a[i] * k


for k in range(50):
    step(0.5)
print(x[0], x[n - 1])                  # fast host path
for k in range(3):
    count()
print(y[7, 124], y.to_numpy().sum())
x.from_numpy(np.zeros(n, dtype=np.float32))
step(0.5)
print(x.to_numpy()[:3])
step(0.5)
ti.sync()
print(x[1], total())
a = np.ones(n, dtype=np.float32)
for k in range(4):
    add_from(a, k)
    a[:] = k + 2                       # the next launch reads the new values
print(x[2], total())
