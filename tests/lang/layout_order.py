# ti.field(..., order="ji") stores columns contiguously; indexing is unchanged.
import taichi as ti
ti.init(arch=ti.cpu)
c = ti.field(ti.i32, shape=(3, 4), order="ji")
r = ti.field(ti.i32, shape=(3, 4))
print(c.shape, c.snode.physical_index_position(), r.snode.physical_index_position())

@ti.kernel
def fill():
    for i, j in c:
        c[i, j] = i * 10 + j
        r[i, j] = i * 10 + j

fill()
print([c[i, j] for i in range(3) for j in range(4)] == [r[i, j] for i in range(3) for j in range(4)], c[2, 3])
