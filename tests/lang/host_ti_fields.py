# host access to fields: reads, writes with casts, shapes, dtypes, fill
import taichi as ti
ti.init(arch=ti.cpu)

a = ti.field(ti.f32, shape=3)
b = ti.field(ti.i32, shape=(2, 3))
c = ti.field(ti.f64, shape=())
u = ti.field(ti.u8, shape=2)
h = ti.field(ti.f16, shape=1)

a[0] = 0.1
a[1] = 1 / 3
a[2] = 7
print(a[0], a[1], a[2])
for i in range(2):
    for j in range(3):
        b[i, j] = i * 10 + j + 0.9
print([[b[i, j] for j in range(3)] for i in range(2)])
c[None] = 0.1
print(c[None], c.shape, a.shape, b.shape)
u[0] = 255
u[1] = 256 + 7
print(u[0], u[1])
h[0] = 0.1
print(h[0])
print(a.dtype, b.dtype, c.dtype, u.dtype, h.dtype)
a.fill(-1.5)
b.fill(4)
print([a[i] for i in range(3)], sum(b[i, j] for i in range(2) for j in range(3)))
idx = (1, 2)
b[idx] = 99
print(b[1, 2], b[idx])
