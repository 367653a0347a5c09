# matrix fields: shape + (n, m)
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
m = ti.Matrix.field(2, 3, ti.f64, shape=2)
m.from_numpy(np.arange(12.0).reshape(2, 2, 3))
print(m[1])


@ti.kernel
def transpose_sum() -> ti.f64:
    s = ti.f64(0.0)
    for i in m:
        s += (m[i] @ m[i].transpose()).trace()
    return s


print(transpose_sum())
a = m.to_numpy()
print(a.shape, a.dtype)
print(repr(a[0]))
r = ti.Matrix.field(2, 2, ti.f32, shape=())
r.from_numpy(np.array([[0.0, -1.0], [1.0, 0.0]]))
print(r.to_numpy())
