import taichi as ti
ti.init(arch=ti.cpu)
r = ti.field(ti.i32, shape=5)

@ti.kernel
def run():
    for i in range(5):
        a = ti.select(i > 2, 10, 20)
        b = 1 if i % 2 == 0 else 2
        r[i] = a + b

run()
print([r[i] for i in range(5)])
