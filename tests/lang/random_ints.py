# Integer draws: ti.random(ti.i32) covers negative and positive values, a
# die roll from it is uniform, u32 draws are never negative.
import taichi as ti
ti.init(arch=ti.cpu, random_seed=3)

counts = ti.field(ti.i32, shape=6)
signs = ti.field(ti.i32, shape=2)
umin = ti.field(ti.i64, shape=())

@ti.kernel
def roll(n: ti.i32):
    umin[None] = ti.i64(1) << 40
    for i in range(n):
        r = ti.random(ti.i32)
        counts[r % 6] += 1
        if r < 0:
            signs[0] += 1
        else:
            signs[1] += 1
        u = ti.random(dtype=ti.u32)
        ti.atomic_min(umin[None], ti.cast(u, ti.i64))

n = 60000
roll(n)
print([abs(counts[k] - n // 6) < 600 for k in range(6)])
print(sum([counts[k] for k in range(6)]) == n)
print(abs(signs[0] - signs[1]) < 1500)
print(umin[None] >= 0)
