# A vector field initialised from the host, stepped by a kernel (particles
# bouncing off y = 0 and x = 1), then printed from the host.
import taichi as ti
ti.init(arch=ti.cpu)

n = 4
pos = ti.Vector.field(2, ti.f32, shape=n)
vel = ti.Vector.field(2, ti.f32, shape=n)
for i in range(n):
    pos[i] = [0.25 * i, 1.0]
    vel[i] = ti.Vector([0.5, -0.25 * (i + 1)])

@ti.kernel
def step(dt: ti.f32):
    for i in pos:
        p = pos[i] + vel[i] * dt
        if p.y < 0:
            p.y = -p.y
            vel[i].y = -vel[i].y
        if p.x > 1:
            p.x = 2 - p.x
            vel[i].x = -vel[i].x
        pos[i] = p

for k in range(4):
    step(1.0)
print(pos)
print(vel)
print(pos[3], vel[3].norm_sqr())
