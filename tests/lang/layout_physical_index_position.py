# Seed 001: virtual vs physical indices; a column-major field keeps b[i, j].
import taichi as ti
ti.init(arch=ti.cpu)
a = ti.field(ti.f32, shape=(128, 32, 8))
b = ti.field(ti.f32)
ti.root.dense(ti.j, 32).dense(ti.i, 16).place(b)
mapping_a = a.snode.physical_index_position()
assert mapping_a == {0: 0, 1: 1, 2: 2}
mapping_b = b.snode.physical_index_position()
assert mapping_b == {0: 1, 1: 0}
print(mapping_a, mapping_b, b.shape)

@ti.kernel
def fill():
    for i, j in b:
        b[i, j] = i + j * 100

fill()
print(b[15, 0], b[0, 31], b[3, 7])
