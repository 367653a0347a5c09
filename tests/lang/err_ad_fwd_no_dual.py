# Forward-mode autodiff seeds param.dual: a parameter field declared with
# needs_grad but not needs_dual has no dual to seed. Both the seed's copy
# (from_numpy on the unplaced x.dual) and ti.ad.FwdMode say so, instead of
# complaining about the unplaced field's shape.
import numpy as np
import taichi as ti

ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=4, needs_grad=True)
y = ti.field(ti.f32, shape=(), needs_grad=True, needs_dual=True)


@ti.kernel
def f():
    for i in x:
        y[None] += x[i] ** 2


x.from_numpy(np.arange(4, dtype=np.float32))
f()
print(y[None])
try:
    x.dual.from_numpy(np.ones(4, dtype=np.float32))
except RuntimeError as e:
    print("from_numpy:", e)
with ti.ad.FwdMode(loss=y, param=x, seed=[1.0, 0.0, 0.0, 0.0]):
    f()
print("not reached")
