import taichi as ti
ti.init(arch=ti.cpu)
n = 100000
x = ti.field(ti.i32, shape=n)

@ti.kernel
def fill():
    for i in x:
        x[i] = i % 7

@ti.kernel
def total() -> ti.i64:
    s = ti.i64(0)
    for i in x:
        s += x[i]
    return s

@ti.kernel
def flags() -> ti.i32:
    bits = 0
    for i in range(20):
        bits |= 1 << i
    return bits

fill()
print(total(), flags())
