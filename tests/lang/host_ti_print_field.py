# print(field) shows the elements as numpy does (Taichi prints str(field.to_numpy()))
import taichi as ti
ti.init()
a = ti.field(ti.f32, shape=5)
print(a)
for i in range(5):
    a[i] = i * 0.1
print(a)
b = ti.field(ti.i32, shape=(3, 4))
for i in range(3):
    for j in range(4):
        b[i, j] = i * j * 7 - 5
print(b)
c = ti.field(ti.f64, shape=30)
for i in range(30):
    c[i] = 1.0 / (i + 1)
print(c)
d = ti.field(ti.f32, shape=4)
d[0] = 1e-5; d[1] = 1.0; d[2] = 123.5; d[3] = -2
print(d)
e = ti.field(ti.i32, shape=2000)
print(e)
z = ti.field(ti.f32, shape=())
z[None] = 0.1
print(z)
f = ti.field(ti.f32, shape=(2, 2, 2))
print(f)
g = ti.field(ti.f32, shape=3)
g[0] = 1.5; g[1] = float('nan'); g[2] = float('inf')
print(g)
