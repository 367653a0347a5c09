import taichi as ti
ti.init(arch=ti.cpu)
n = 1000
x = ti.Vector.field(3, ti.i32, shape=n)

@ti.kernel
def fill():
    for i in x:
        x[i] = ti.Vector([i % 2, i % 3, 1])

@ti.kernel
def total() -> ti.types.vector(3, ti.i32):
    s = ti.Vector([0, 0, 0])
    for i in x:
        s += x[i]
    return s

fill()
t = total()
print(t[0], t[1], t[2])
