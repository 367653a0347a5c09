import taichi as ti
ti.init(arch=ti.cpu)
n = 8
x = ti.field(ti.f32, shape=(n, n))
total = ti.field(ti.i32, shape=())

@ti.func
def weight(i: ti.i32, j: ti.i32) -> ti.f32:
    return (i * n + j) / 2

@ti.kernel
def fill(scale: ti.f32):
    for i, j in x:
        x[i, j] = weight(i, j) * scale
        if x[i, j] > 10:
            total[None] += 1

fill(1.5)
print(total[None], f"{x[7, 7]:.2f}", [x[0, j] for j in range(3)])
