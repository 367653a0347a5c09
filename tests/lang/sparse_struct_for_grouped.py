# ti.grouped over a sparse field gives an index vector per active cell.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.pointer(ti.ijk, 2).dense(ti.ijk, 2).place(x)

@ti.kernel
def fill():
    x[0, 1, 2] = 1
    x[3, 3, 3] = 1

@ti.kernel
def sums() -> ti.i32:
    s = 0
    for I in ti.grouped(x):
        s += I.sum() * 100 + x[I]
    return s

fill()
print(sums())
