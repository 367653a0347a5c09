import taichi as ti
ti.init(arch=ti.cpu)
vec3 = ti.types.vector(3, ti.f32)

@ti.dataclass
class Ray:
    ro: vec3
    rd: vec3

    @ti.func
    def at(self, t):
        return self.ro + t * self.rd

@ti.func
def hit_sphere(r: Ray, center: vec3, radius: ti.f32) -> ti.f32:
    oc = r.ro - center
    b = oc.dot(r.rd)
    c = oc.dot(oc) - radius * radius
    h = b * b - c
    t = -1.0
    if h >= 0:
        t = -b - ti.sqrt(h)
    return t

@ti.kernel
def trace() -> ti.f32:
    r = Ray(ro=vec3(0.0, 0.0, -5.0), rd=vec3(0.0, 0.0, 1.0))
    t = hit_sphere(r, vec3(0.0), 1.0)
    p = r.at(t)
    print(t, p)
    miss = Ray(vec3(0.0, 3.0, -5.0), vec3(0.0, 0.0, 1.0))
    return hit_sphere(miss, vec3(0.0), 1.0)

print(trace())
