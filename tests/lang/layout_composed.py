# Seed 002's composition: (f * g) is f's block order over g's element order.
import taichi as ti
ti.init(arch=ti.cpu)
c = ti.layout.row_major(2, 1) * ti.layout.row_major(2, 2)
d = ti.layout.row_major(2, 1) * ti.layout.column_major(2, 2)
e = ti.layout.row_major(2, 1) * ti.layout.row_major(2, 2) * ti.layout.column_major(2, 2)
print(c.shape, d.shape, e.shape)
print([c[i, j] for i in range(4) for j in range(2)])
for i in range(4):
    for j in range(2):
        print(f"d[{i}, {j}] -> {d[i, j]}")
f = ti.layout.row_major(2, 1)
g = ti.layout.row_major(2, 2)
h = ti.layout.column_major(2, 2)
print(all(((f * g) * h)[i, j] == (f * (g * h))[i, j] for i in range(8) for j in range(4)))
