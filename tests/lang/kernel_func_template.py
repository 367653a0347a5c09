import taichi as ti
ti.init(arch=ti.cpu)
a = ti.field(ti.f32, shape=4)
b = ti.field(ti.f32, shape=4)

@ti.func
def axpy(dst: ti.template(), src: ti.template(), k: ti.f32, i: ti.i32):
    dst[i] += k * src[i]

@ti.kernel
def run():
    for i in range(a.shape[0]):
        a[i] = i
        b[i] = 1.0
    for i in range(4):
        axpy(b, a, 0.5, i)
    for f in ti.static([a, b]):
        for i in f:
            f[i] *= 2

run()
print([a[i] for i in range(4)])
print([b[i] for i in range(4)])
