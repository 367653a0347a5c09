# A flattened 2-D ndrange whose body indexes the row and the column plus
# constants and arguments: in bounds for whole rows (the LLVM tier checks
# each row's ends once and runs it unchecked), and past the end of a row,
# which must raise the IndexError of the first bad access.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=(6, 7))
y = ti.field(ti.f32, shape=(6, 7))

@ti.kernel
def fill(k: ti.i32):
    for i, j in ti.ndrange((0, 6), (1, 7)):
        x[i, j] = i * 10 + j + k
        y[i, j - 1] = x[i, j] * 0.5

@ti.kernel
def shift(d: ti.i32):
    for i, j in ti.ndrange(6, 7):
        if j + d < 7:
            x[i, j] = x[i, j + d] + x[i - 0, j]

@ti.kernel
def bump(d: ti.i32):
    for i, j in ti.ndrange(6, 7):
        x[i, j + d] += 1

def total(f):
    return sum(f[i, j] for i in range(6) for j in range(7))

fill(3)
print(total(x), total(y))
shift(1)
print([x[i, 2] for i in range(6)], [x[5, j] for j in range(7)])
bump(0)
print(total(x))
bump(1)
