import taichi as ti
ti.init(arch=ti.cpu)
n = 4
pos = ti.Vector.field(2, ti.f32, shape=n)
vel = ti.Vector.field(2, ti.f32, shape=n)

@ti.kernel
def init():
    for i in pos:
        pos[i] = ti.Vector([0.25 * i, 1.0])
        vel[i] = ti.Vector([0.5, -1.0 - i])

@ti.kernel
def step(dt: ti.f32):
    for i in pos:
        vel[i].y -= 10.0 * dt
        pos[i] += vel[i] * dt
        if pos[i].y < 0:
            pos[i].y = -pos[i].y
            vel[i].y = -vel[i].y * 0.5

init()
for s in range(4):
    step(0.125)
for i in range(n):
    print(f"{pos[i][0]:.4f} {pos[i][1]:.4f} {vel[i][1]:.4f}")
