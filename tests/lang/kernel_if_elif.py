import taichi as ti
ti.init(arch=ti.cpu)
c = ti.field(ti.i32, shape=7)

@ti.kernel
def classify():
    for i in range(7):
        v = i - 3
        if v < 0:
            c[i] = -1
        elif v == 0:
            c[i] = 0
        elif v < 2:
            c[i] = 1
        else:
            c[i] = 2

classify()
print([c[i] for i in range(7)])
