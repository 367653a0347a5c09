# Heat diffusion on a rod: the initial temperatures are built with numpy,
# copied into a field, stepped by a kernel, and read back for analysis.
#   scripts/run examples/heat_numpy.py
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
n = 16
temp = ti.field(ti.f32, shape=n)
nxt = ti.field(ti.f32, shape=n)

# a hot middle section, cold ends
t0 = np.zeros(n, dtype=np.float32)
t0[6:10] = 100.0
temp.from_numpy(t0)


@ti.kernel
def step(k: ti.f32):
    for i in temp:
        left = temp[ti.max(i - 1, 0)]  # insulated ends
        right = temp[ti.min(i + 1, n - 1)]
        nxt[i] = temp[i] + k * (left - 2 * temp[i] + right)
    for i in temp:
        temp[i] = nxt[i]


for s in range(50):
    step(0.25)
t = temp.to_numpy()
print("after 50 steps:")
print(t)
print("total heat", t.sum(), "(started with", t0.sum(), ")")
print("hottest cell", t.argmax(), "max", t.max(), "spread (std-like)", np.sqrt(((t - t.mean()) ** 2).mean()))
