import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=(3, 4))

@ti.kernel
def fill():
    for i, j in ti.ndrange(3, 4):
        x[i, j] = i * 10 + j

fill()
for i in range(3):
    print([x[i, j] for j in range(4)])
