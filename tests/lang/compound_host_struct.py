# Struct types and dataclasses on the host: construction by position,
# keyword, missing members zero and broadcast; printing as a dict.
import taichi as ti
ti.init(arch=ti.cpu)

vec3 = ti.math.vec3

@ti.dataclass
class Ray:
    ro: vec3
    rd: vec3
    t: float

print(Ray(vec3(0), vec3(1, 0, 0), 1.0))
print(Ray(vec3(0), rd=vec3(1, 0, 0)))
print(Ray(t=1.0))
print(Ray(1))
print(Ray())
r = Ray(vec3(1, 2, 3), t=0.5)
print(r.ro, r.rd, r.t)
r.t = 2.5
r.ro.y = 5
r.rd = vec3(0, 0, 1)
print(r)
print(r.keys)

S = ti.types.struct(a=ti.i32, b=ti.f32)
print(S(1, 2))
print(S(b=0.5))
T = ti.types.struct(s=S, w=ti.types.vector(2, ti.i32))
print(T(S(1, 2), [3, 4]))
t = T(S(7, 1.5), [1, 2])
print(t.s.a, t.s.b, t.w)
