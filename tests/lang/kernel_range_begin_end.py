import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=10)

@ti.kernel
def mark(a: ti.i32, b: ti.i32):
    for i in range(a, b):
        x[i] = i * i

mark(3, 7)
print([x[i] for i in range(10)])
