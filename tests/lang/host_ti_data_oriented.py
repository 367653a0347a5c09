# @ti.data_oriented classes holding fields and kernel methods
import taichi as ti
ti.init(arch=ti.cpu)

@ti.data_oriented
class Particles:
    def __init__(self, n):
        self.n = n
        self.pos = ti.field(ti.f32, shape=n)
        self.vel = ti.field(ti.f32, shape=n)

    @ti.kernel
    def init(self):
        for i in self.pos:
            self.pos[i] = i
            self.vel[i] = 1.0

    @ti.kernel
    def step(self, dt: ti.f32):
        for i in self.pos:
            self.pos[i] += self.vel[i] * dt

    def positions(self):
        return [self.pos[i] for i in range(self.n)]

p = Particles(4)
q = Particles(2)
p.init()
q.init()
for _ in range(4):
    p.step(0.25)
q.step(2.0)
print(p.positions())
print(q.positions())
