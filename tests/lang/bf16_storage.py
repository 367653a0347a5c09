# ti.bf16 as a storage type: stores round to 8 significant bits (ties to
# even), arithmetic runs in f32 and rounds at each bf16 assignment; the range
# is f32's (65504 * 4 does not overflow as it would in f16).
import taichi as ti
ti.init(arch=ti.cpu)

x = ti.field(ti.bf16, shape=4)
y = ti.field(ti.f16, shape=4)
s = ti.field(ti.f32, shape=())

@ti.kernel
def fill():
    for i in x:
        x[i] = 1.0 / (i + 3)
        y[i] = 1.0 / (i + 3)

@ti.kernel
def total() -> ti.bf16:
    t = ti.bf16(0.0)
    for i in range(4):
        t += x[i]
    return t

@ti.kernel
def big():
    x[0] = 300.7
    x[1] = 65504.0 * 4
    x[2] = -1e-3
    x[3] = ti.cast(257, ti.bf16)

fill()
print([x[i] for i in range(4)])
print([y[i] for i in range(4)])
print(total())
big()
print([x[i] for i in range(4)])
print(x.dtype, x.dtype == ti.bf16)
