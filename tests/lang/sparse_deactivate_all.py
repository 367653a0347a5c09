# snode.deactivate_all() empties every container of that SNode.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
y = ti.field(ti.i32, shape=4)
block = ti.root.pointer(ti.ij, 4)
block.bitmasked(ti.ij, 4).place(x)

@ti.kernel
def fill():
    for i, j in ti.ndrange(16, 16):
        if (i + j) % 3 == 0:
            x[i, j] = 1
    for k in y:
        y[k] = k

@ti.kernel
def count() -> ti.i32:
    n = 0
    for i, j in x:
        n += x[i, j]
    return n

fill()
print(count())
block.deactivate_all()
print(count(), x[0, 0], y[3])
fill()
print(count())
