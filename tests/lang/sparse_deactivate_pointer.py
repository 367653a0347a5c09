# ti.deactivate on a pointer frees the block (block numbers are the
# pointer's own coordinates: block 1 holds x[4..7]); reactivated memory reads 0.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ptr = ti.root.pointer(ti.i, 4)
ptr.dense(ti.i, 4).place(x)

@ti.kernel
def fill():
    for i in range(16):
        x[i] = i + 1

@ti.kernel
def drop(i: ti.i32):
    ti.deactivate(ptr, i)

@ti.kernel
def total() -> ti.i32:
    s = 0
    for i in x:
        s += x[i]
    return s

fill()
print(total())
drop(1)
print(total(), x[5], x[6])
x[4] = 100
print(total(), x[5], x[7])
