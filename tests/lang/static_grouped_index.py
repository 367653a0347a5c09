import taichi as ti

ti.init(arch=ti.cpu)
K = 3
v = ti.Vector.field(K, dtype=ti.i32, shape=(K, K))
m = ti.Matrix.field(2, 3, dtype=ti.f32, shape=4)
offsets = ti.Vector([1, 2])


@ti.kernel
def stencil():
    # each I is a compile-time vector: its components index fields and vectors
    for I in ti.static(ti.grouped(ti.ndrange(K, K, K))):
        v[I[0], I[1]][I[2]] = I[0] + I[1] * 3 + I[2] * 10
    for i in m:
        for J in ti.static(ti.grouped(ti.ndrange(2, 3))):
            m[i][J] = J[0] + J[1] * 10 + i + offsets[1]


stencil()
print(v[1, 2], v[2, 0])
print(m[3])
