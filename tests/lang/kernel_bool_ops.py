import taichi as ti
ti.init(arch=ti.cpu)
r = ti.field(ti.i32, shape=6)
hits = ti.field(ti.i32, shape=())

@ti.func
def touch() -> ti.i32:
    hits[None] += 1
    return 1

@ti.kernel
def run():
    for i in range(6):
        r[i] = (i > 1 and i < 4) + 10 * (i == 0 or i == 5) + 100 * (not i)

@ti.kernel
def short():
    a = 0
    if a != 0 and touch():
        a = 5
    if a == 0 or touch():
        a = 6

run()
short()
print([r[i] for i in range(6)], hits[None])
