# to_numpy / from_numpy over layouts that are not one row-major block: blocked
# (div/mod addressing), SOA vector components, and sparse pointer SNodes
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
# blocked layout: 2x2 blocks of 2x2 cells
b = ti.field(ti.i32)
ti.root.dense(ti.ij, 2).dense(ti.ij, 2).place(b)
# SOA vector field: components apart
v = ti.Vector.field(2, ti.i32, shape=3, layout=ti.Layout.SOA)
# sparse: pointer over dense
s = ti.field(ti.f32)
ti.root.pointer(ti.i, 4).dense(ti.i, 2).place(s)


@ti.kernel
def init():
    for i, j in b:
        b[i, j] = i * 10 + j
    for i in v:
        v[i] = ti.Vector([i, -i])
    s[5] = 2.5


init()
print(b.to_numpy())
print(v.to_numpy())
print(s.to_numpy())
b.from_numpy(np.arange(16, dtype=np.int32).reshape(4, 4).T)
print(b[1, 0], b[0, 1], b.to_numpy()[3])
s.from_numpy(np.arange(8, dtype=np.float32))
print(s[7], s.to_numpy())
f = ti.field(np.float32, shape=2)  # numpy dtypes name Taichi's types
print(f.dtype, f.to_numpy().dtype)
