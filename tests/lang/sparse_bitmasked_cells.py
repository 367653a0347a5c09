# Bitmasked cells activate one by one (unlike a pointer's whole block).
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.dense(ti.i, 4).bitmasked(ti.i, 8).place(x)

@ti.kernel
def fill():
    for i in range(32):
        if i % 5 == 0:
            x[i] = i

@ti.kernel
def visit() -> ti.i32:
    s = 0
    for i in x:
        s += 1000 + x[i]
    return s

fill()
print(visit())
