# the common Taichi pattern: random initial positions made with numpy, copied into a field
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
n = 8
pos = ti.Vector.field(2, ti.f32, shape=n)
np.random.seed(1)
pos.from_numpy(np.random.rand(n, 2).astype(np.float32))


@ti.kernel
def centroid() -> ti.math.vec2:
    c = ti.math.vec2(0.0)
    for i in pos:
        c += pos[i] / n
    return c


p = pos.to_numpy()
print(p[:3])
c = centroid()
print(np.allclose([c[0], c[1]], p.mean(axis=0), atol=1e-6), p.mean(axis=0))
