import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=(4, 4))

@ti.kernel
def run(k: ti.i32):
    for i in range(4):
        x[i, i + k] = 1

run(0)
print("ok")
run(1)
print("unreachable")
