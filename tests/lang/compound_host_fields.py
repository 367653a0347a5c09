# Vector, matrix and struct fields filled from the host and printed.
import taichi as ti
ti.init(arch=ti.cpu)

x = ti.Vector.field(3, ti.f32, shape=4)
print(x.n, x.m, x.shape, x.dtype)
x[0] = ti.Vector([1, 2, 3])
x[1] = [4, 5, 6]
x[2][1] = 7
x[3].y = 0.5
print(x)
print(x[1], x[2][1], x[3].y)

m = ti.Matrix.field(2, 2, ti.i32, shape=2)
m[1] = [[1, 2], [3, 4]]
print(m)
print(m[1][1, 0], m.n, m.m)

y = ti.Vector.field(2, ti.f32)
ti.root.dense(ti.i, 3).place(y)
y[2] = [1, 2]
print(y)
y.fill(0.25)
print(y)

vec3 = ti.math.vec3
sf = ti.Struct.field({'a': ti.i32, 'v': vec3}, shape=2)
sf[1].a = 5
sf[1].v = vec3(1, 2, 3)
print(sf[1].a, sf[1].v)
print(sf.a)
print(sf.v)

@ti.dataclass
class Ray:
    ro: vec3
    t: float

rays = Ray.field(shape=3)
rays[0].t = 1.5
rays[2].ro = [1, 2, 3]
print(rays.t)
print(rays.ro)
g = vec3.field(shape=(2, 2))
g[1, 0] = vec3(1)
print(g)
