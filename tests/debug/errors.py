import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=4)

@ti.kernel
def fill():
    for i in x:
        x[i] = i

fill()
print(x[1])
