import taichi as ti
ti.init(arch=ti.cpu)

x = ti.field(ti.f32, shape=8)

@ti.func
def scaled(v, k):
    w = v * k
    return w + 1

@ti.kernel
def fill(k: ti.f32):
    for i in x:
        a = i * 2
        v = ti.Vector([a, a + 1, 0.5])
        x[i] = scaled(a, k) + v.sum()

total = 0
fill(1.5)
for i in range(8):
    total += x[i]
print(total)
