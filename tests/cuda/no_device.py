import taichi as ti

ti.init(arch=ti.cuda, enable_fallback=False)
x = ti.field(ti.i32, shape=4)


@ti.kernel
def fill():
    for i in x:
        x[i] = i * 2


fill()
print(x.to_numpy().tolist())
