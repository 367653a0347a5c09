import taichi as ti
ti.init(arch=ti.cpu)
m = ti.Matrix.field(2, 2, ti.i32, shape=3)

@ti.kernel
def fill():
    for i in m:
        m[i] = ti.Matrix([[i, 1], [0, i]])
        m[i][0, 1] += 10

@ti.kernel
def prod() -> ti.i32:
    p = ti.Matrix.identity(ti.i32, 2)
    for k in ti.static(range(3)):
        p = p @ m[k]
    return p[0, 1]

fill()
print(prod(), m.n, m.m, m.shape)
