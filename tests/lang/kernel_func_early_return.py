import taichi as ti
ti.init(arch=ti.cpu)
y = ti.field(ti.i32, shape=6)

@ti.func
def sign(v: ti.i32) -> ti.i32:
    if v < 0:
        return -1
    if v == 0:
        return 0
    return 1

@ti.func
def twice_sign(v):
    return 2 * sign(v)

@ti.kernel
def run():
    for i in range(6):
        y[i] = sign(i - 2) + twice_sign(i - 3) * 10

run()
print([y[i] for i in range(6)])
