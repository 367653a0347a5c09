import taichi as ti
ti.init(arch=ti.cpu)
r = ti.field(ti.i32, shape=6)

@ti.kernel
def run():
    for i in range(6):
        r[i] = 1 < i <= 4

run()
print([r[i] for i in range(6)])
