import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.u8, shape=())
y = ti.field(ti.i8, shape=())

@ti.kernel
def run():
    a = ti.u8(250)
    a += ti.u8(10)
    x[None] = a
    b = ti.i8(120)
    b = b + ti.i8(10)
    y[None] = b

run()
print(x[None], y[None])
