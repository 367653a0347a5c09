# Pointers nested three levels deep, with a dense leaf block.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32)
l1 = ti.root.pointer(ti.ij, 2)
l2 = l1.pointer(ti.ij, 4)
l3 = l2.pointer(ti.ij, 2)
l3.dense(ti.ij, 4).place(x)

@ti.kernel
def paint():
    for i in range(64):
        x[i, 63 - i] = 1.0

@ti.kernel
def count(level: ti.template()) -> ti.i32:
    n = 0
    for i, j in level:
        n += 1
    return n

paint()
print(count(l1), count(l2), count(l3), count(x))
