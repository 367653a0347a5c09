# A list assigned to a vector or matrix local replaces its elements, each
# converted to the local's dtype (Taichi's mciso example: R = float(I), then
# R = [i + p, j, k]).
import taichi as ti

ti.init(arch=ti.cpu)
r = ti.Vector.field(3, ti.f32, shape=4)
m = ti.Matrix.field(2, 2, ti.f32, shape=())


@ti.kernel
def fill():
    for I in ti.grouped(r):
        i = I[0]
        R = float(ti.Vector([i, i, i]))
        if i % 2 == 0:
            p = 0.25 * i
            R = [i + p, i, 1]
        else:
            R = [i, i * 2, 3]
        r[I] = R
    M = ti.Matrix([[1.0, 0.0], [0.0, 1.0]])
    M = [[2, 3], [4, 5.5]]
    m[None] = M


fill()
print(r.to_numpy().tolist())
print(m.to_numpy().tolist())
