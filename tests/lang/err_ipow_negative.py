import taichi as ti
ti.init(arch=ti.cpu)

z = ti.field(ti.i32, shape=())


@ti.kernel
def power(x: ti.i32, y: ti.template()):
    z[None] = x ** y


power(3, 2)
print(z[None])
power(10, -2)
