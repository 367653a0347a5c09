# Writing one element of a pointer block activates the whole block.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
block = ti.root.pointer(ti.ij, 4)
block.dense(ti.ij, 4).place(x)

@ti.kernel
def count() -> ti.i32:
    n = 0
    for i, j in x:
        n += 1
    return n

@ti.kernel
def write():
    x[5, 9] = 3

print(count())
write()
print(count())
print(x[5, 9], x[4, 8], x[7, 11])
