# A component of a vector or matrix field element chosen at run time:
# r[i, j][k] = v and r[i, j][k] += v with a loop variable k, as Taichi's
# snow_phaseField writes one Runge-Kutta stage's rate per step; a matrix
# field takes two runtime indices. Reads use the same index.
import taichi as ti

ti.init(arch=ti.cpu)

rate = ti.Vector.field(4, ti.f32, shape=(2, 2))
m = ti.Matrix.field(2, 3, ti.i32, shape=2)
hits = ti.Vector.field(3, ti.i32, shape=())


@ti.kernel
def run():
    for i, j in rate:
        for k in range(4):
            rate[i, j][k] = k * 1.5 + i
            rate[i, j][k] += rate[i, j][k] * 0.5
    for p in m:
        for a, b in ti.ndrange(2, 3):
            m[p][a, b] = p * 100 + a * 10 + b
    for t in range(30):
        hits[None][t % 3] += 1  # atomic, from parallel iterations


run()
print(rate.to_numpy()[1, 0].tolist())
print(m.to_numpy().tolist())
print(hits[None])
