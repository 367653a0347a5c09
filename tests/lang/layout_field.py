# A field laid out by a composed layout: same values, tiled memory order.
import taichi as ti
ti.init(arch=ti.cpu)
L = ti.layout.row_major(2, 2) * ti.layout.column_major(4, 4)
x = ti.field(ti.f32, layout=L)
y = ti.field(ti.f32, shape=(8, 8))
print(x.shape, x.snode.physical_index_position())

@ti.kernel
def fill():
    for i, j in x:
        x[i, j] = i * 8 + j
    for i, j in y:
        y[i, j] = x[i, j] * 2

fill()
print(y[7, 7], y[5, 2], x[3, 4])
