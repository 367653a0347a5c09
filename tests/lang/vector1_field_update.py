# A field of 1-vectors (a 1-D particle code, as in Taichi's
# two_stream_instability example): its elements are updated whole with +=
# and -= (a 1-vector or a scalar, which broadcasts), and read through .x.
import taichi as ti

ti.init(arch=ti.cpu)

L = 4.0
x = ti.Vector.field(1, ti.f32, 8)
v = ti.Vector.field(1, ti.f32, 8)


@ti.kernel
def init():
    for p in x:
        x[p].x = p * 0.5
        v[p].x = (-1) ** p * 0.75


@ti.kernel
def step(dt: ti.f32):
    for p in x:
        x[p] += v[p] * dt
        if x[p].x >= L:
            x[p] += -L
        if x[p].x < 0:
            x[p] -= ti.Vector([-L])


init()
for _ in range(3):
    step(1.0)
print(x.to_numpy()[:, 0].tolist())
