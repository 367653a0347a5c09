import taichi as ti
ti.init(arch=ti.cpu)
first = ti.field(ti.i32, shape=())

@ti.kernel
def find(t: ti.i32):
    first[None] = -1
    ti.loop_config(serialize=True)
    for i in range(100):
        if i * i > t:
            first[None] = i
            break

find(50)
print(first[None])
