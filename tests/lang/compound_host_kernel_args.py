# Vectors, matrices and dataclasses passed to kernels and returned.
import taichi as ti
ti.init(arch=ti.cpu)

vec3 = ti.math.vec3

@ti.kernel
def shift(v: vec3, d: ti.f32) -> vec3:
    return v + d

@ti.kernel
def corner(m: ti.math.mat2) -> ti.f32:
    return m[0, 1] + m[1, 0]

@ti.dataclass
class Sphere:
    center: vec3
    radius: ti.f32

    @ti.func
    def volume_ish(self):
        return 4.0 * self.radius * self.radius * self.radius

@ti.kernel
def make(r: ti.f32) -> Sphere:
    return Sphere(vec3(0, 1, 0), r)

@ti.kernel
def size(s: Sphere) -> ti.f32:
    return s.volume_ish() + s.center.y

print(shift(vec3(1, 2, 3), 0.5))
print(shift(ti.Vector([0.0, 0.0, 1.0]), 1.0))
print(corner(ti.math.mat2(1, 2, 3, 4)))
print(make(2.5))
print(size(Sphere(vec3(1, 2, 3), 0.5)))
balls = Sphere.field(shape=2)
balls[1] = Sphere(vec3(1, 2, 3), 2.0)

@ti.kernel
def total() -> ti.f32:
    t = 0.0
    for i in range(2):
        t += balls[i].volume_ish()
    return t

print(total())
print(balls[1].center, balls[1].radius)
