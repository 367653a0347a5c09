# Vectors, matrices and dataclasses in kernels: particles bouncing on the floor
# of a slowly rotating frame.   scripts/run examples/bounce.py
import math
import taichi as ti

ti.init(arch=ti.cpu)

vec2 = ti.math.vec2


@ti.dataclass
class Particle:
    pos: vec2
    vel: vec2
    bounces: ti.i32

    @ti.func
    def kinetic(self):
        return 0.5 * self.vel.dot(self.vel)


n = 8
ps = Particle.field(shape=n)


@ti.kernel
def init():
    for i in ps:
        ps[i] = Particle(pos=vec2(0.1 * i, 1.0 + 0.25 * i), vel=vec2(0.5, 0.0))


@ti.kernel
def step(dt: ti.f32):
    for i in ps:
        p = ps[i]
        p.vel.y -= 9.8 * dt
        p.pos += p.vel * dt
        if p.pos.y < 0:
            p.pos.y = -p.pos.y
            p.vel.y = -0.8 * p.vel.y
            p.bounces += 1
        ps[i] = p


@ti.kernel
def energy() -> ti.f32:
    e = 0.0
    for i in ps:
        e += ps[i].kinetic() + 9.8 * ps[i].pos.y
    return e


@ti.kernel
def rotated(angle: ti.f32, i: ti.i32) -> vec2:
    c, s = ti.cos(angle), ti.sin(angle)
    r = ti.Matrix([[c, -s], [s, c]])
    return r @ ps[i].pos


init()
e0 = energy()
for frame in range(200):
    step(0.005)
print(f"energy {e0:.3f} -> {energy():.3f}")
print("bounces:", [ps[i].bounces for i in range(n)])
q = rotated(math.pi / 2, 0)
print(f"particle 0 rotated a quarter turn: ({q[0]:.3f}, {q[1]:.3f})")
