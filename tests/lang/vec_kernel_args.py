import taichi as ti
ti.init(arch=ti.cpu)
vec3 = ti.types.vector(3, ti.f32)
mat2 = ti.types.matrix(2, 2, ti.i32)

@ti.kernel
def scale(v: vec3, k: ti.f32) -> vec3:
    return v * k

@ti.kernel
def det(m: mat2) -> ti.i32:
    return m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0]

@ti.kernel
def pair(a: ti.i32) -> (ti.i32, ti.f32):
    return a * 2, a / 4

r = scale(ti.Vector([1.0, 2.0, 3.0]), 0.5)
print(r[0], r[1], r[2])
print(det(ti.Matrix([[1, 2], [3, 4]])))
print(pair(3))
