# A struct-for over a purely dense tree needs no list: it is a range_for, and
# x[i] over the two levels (i / 2 and i % 2) is addressed by its counter with
# no check (layout_access: one term, L * 4).
import taichi as ti
ti.init(arch=ti.cpu, print_ir=True)
x = ti.field(ti.i32)
ti.root.dense(ti.i, 4).dense(ti.i, 2).place(x)

@ti.kernel
def fill():
    for i in x:
        x[i] = i

fill()
print(x[7])
