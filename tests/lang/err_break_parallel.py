import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=8)

@ti.kernel
def run():
    for i in range(8):
        if i > 3:
            break
        x[i] = i

run()
