import taichi as ti
ti.init(arch=ti.cpu)

Particle = ti.types.struct(p=ti.types.vector(2, ti.f32), m=ti.f32, id=ti.i32)
ps = Particle.field(shape=4)

@ti.kernel
def init():
    for i in ps:
        ps[i] = Particle(p=ti.Vector([i * 1.0, 2.0]), m=0.5 * i, id=i + 100)
    ps[3].m = 9.0

@ti.kernel
def total_mass() -> ti.f32:
    s = 0.0
    for i in ps:
        s += ps[i].m
    return s

@ti.kernel
def get(i: ti.i32) -> Particle:
    return ps[i]

init()
print(total_mass())
q = get(2)
print(q.id, q.m, q.p[0], q.p[1])
