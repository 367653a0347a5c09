# Field offsets (Taichi's test_offset.py): indices run over [offset, offset + shape)
# in kernels, on the host and in struct-fors; to_numpy and printing ignore them.
import taichi as ti
import numpy as np
ti.init(arch=ti.cpu)

a = ti.field(ti.i32, shape=(4, 3), offset=(-8, 10))
b = ti.field(ti.i32)
ti.root.dense(ti.ij, (2, 2)).place(b, offset=(16, -16))
c = ti.field(ti.i32, shape=5, offset=-2)
v = ti.Vector.field(2, ti.f32, shape=3, offset=(1,))
m = ti.Matrix.field(2, 2, ti.f32, shape=(2, 2), offset=(-1, -1))
s = ti.field(ti.i32)
ti.root.pointer(ti.i, 2).dense(ti.i, 4).place(s, offset=(-4,))

@ti.kernel
def fill():
    for i, j in a:
        a[i, j] = i * 100 + j
    for i, j in b:
        b[i, j] = i + j * 10
    for i in c:
        c[i] = i
    for i in v:
        v[i] = [i, -i]
    for i, j in m:
        m[i, j][0, 1] = i + j
    s[-3] = 7
    s[2] = 9

@ti.kernel
def sparse_indices():
    for i in s:
        print('s', i, s[i])

@ti.kernel
def grouped_sum() -> ti.i32:
    t = 0
    for I in ti.grouped(a):
        t += I[0] + I[1]
    return t

fill()
print(a[-8, 10], a[-5, 12], b[16, -16], b[17, -15], c[-2], c[2])
print(v[1], v[3], m[-1, -1][0, 1], m[0, 0][0, 1])
print(a.shape, c.shape)
print(a.to_numpy())
print(c.to_numpy())
c.from_numpy(np.array([5, 6, 7, 8, 9], dtype=np.int32))
print(c[-2], c[2])
print(c)
sparse_indices()
print(grouped_sum())
