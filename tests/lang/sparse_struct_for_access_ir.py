# print_ir: in a struct-for, x[i, j] and y[i, j] (the loop's own cell) are the
# cell's address plus the element's offset; x[i, j + 1] keeps the lookup.
import taichi as ti
ti.init(arch=ti.cpu, print_ir=True)
x = ti.field(ti.i32)
y = ti.field(ti.i32)
ti.root.pointer(ti.ij, 2).dense(ti.ij, 4).place(x, y)

@ti.kernel
def step():
    for i, j in x:
        y[i, j] = x[i, j] + x[i, j + 1]

x[1, 1] = 1
step()
print(y[1, 0], y[1, 1])
