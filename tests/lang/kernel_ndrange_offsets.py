import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=(4, 5))

@ti.kernel
def fill():
    for i, j in ti.ndrange((1, 3), (2, 5)):
        x[i, j] = 1 + i * j

fill()
for i in range(4):
    print(*[x[i, j] for j in range(5)])
