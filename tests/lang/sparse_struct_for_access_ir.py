# print_ir: in a struct-for, x[i, j] and y[i, j] (the loop's own cell) are the
# cell's address plus the element's offset; x[i, j + 1] keeps the lookup.
# Over a pointer of dense blocks, the loop runs over the pointer's cells with
# a plain loop over each block's cells inside (the address counts up by the
# cell's size); over bitmasked cells, the list's table gives the address.
import taichi as ti
ti.init(arch=ti.cpu, print_ir=True)
x = ti.field(ti.i32)
y = ti.field(ti.i32)
ti.root.pointer(ti.ij, 2).dense(ti.ij, 4).place(x, y)
z = ti.field(ti.i32)
ti.root.dense(ti.i, 2).bitmasked(ti.i, 4).place(z)

@ti.kernel
def step():
    for i, j in x:
        y[i, j] = x[i, j] + x[i, j + 1]

@ti.kernel
def bump():
    for i in z:
        z[i] += i

x[1, 1] = 1
z[5] = 1
step()
bump()
print(y[1, 0], y[1, 1], z[5])
