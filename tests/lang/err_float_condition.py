import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=4)

@ti.kernel
def run():
    for i in x:
        if x[i]:
            x[i] = 1.0

run()
