import taichi as ti
ti.init(arch=ti.cpu, default_fp=ti.f64)

@ti.kernel
def tenth() -> float:
    return 0.1 * 3

x = ti.field(float, shape=())

@ti.kernel
def store():
    x[None] = 1 / 3

store()
print(tenth())
print(x[None])
