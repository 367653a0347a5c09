import taichi as ti
ti.init(arch=ti.cpu)
r = ti.field(ti.i32, shape=4)

@ti.kernel
def run():
    for i in range(4):
        acc = 0
        for j in range(100):
            if j % 2 == 1:
                continue
            if j > 2 * i + 4:
                break
            acc += j
        r[i] = acc

run()
print([r[i] for i in range(4)])
