import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=(3, 3))

@ti.kernel
def fill():
    for I in ti.grouped(x):
        x[I] = I[0] * 3 + I[1]

@ti.kernel
def fill2():
    for I in ti.grouped(ti.ndrange(2, 2)):
        x[I] += 100

fill()
fill2()
print([x[i, j] for i in range(3) for j in range(3)])
