# Appending past a dynamic list's capacity is an IndexError, not a wild write.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.dynamic(ti.i, 4).place(x)

@ti.kernel
def push(n: ti.i32):
    ti.loop_config(serialize=True)
    for k in range(n):
        ti.append(x.parent(), [], k)

push(4)
print(x[3])
push(1)
