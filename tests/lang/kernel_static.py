import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=4)
use_square = True

@ti.kernel
def run():
    for i in range(4):
        if ti.static(use_square):
            x[i] = i * i
        else:
            x[i] = -i
    for k in ti.static(range(3)):
        x[k] += 100 * k

run()
print([x[i] for i in range(4)])
