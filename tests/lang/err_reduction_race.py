import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=16)

@ti.kernel
def product() -> ti.f32:
    p = 1.0
    for i in x:
        p *= x[i]
    return p

x.fill(2.0)
print(product())
