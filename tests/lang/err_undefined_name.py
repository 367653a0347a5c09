import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=4)

@ti.kernel
def run():
    for i in x:
        x[i] = i * scale

run()
