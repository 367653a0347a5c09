# Seed 002's strided layout: ranks order dimensions from slowest to fastest.
import taichi as ti
ti.init(arch=ti.cpu)
c = ti.layout.strided(shape=[2, 2, 2], ranks=[0, 2, 1])
for i in range(2):
    for j in range(2):
        for k in range(2):
            print(f"c[{i}, {j}, {k}] -> {c[i, j, k]}")
print(ti.layout.strided([2, 3], [0, 1])[1, 1], ti.layout.strided([2, 3], [1, 0])[1, 1])
