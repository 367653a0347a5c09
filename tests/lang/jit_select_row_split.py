# A select whose value is the counter split by a constant (`i // 1000`, the
# form the JIT's vector planner reads as an ndrange's row; here as the
# select's third operand): the JIT kept the split's kind but dropped the
# row shape, and the trace's compile failed with "IndexError: map::at" (a
# kiln-fuzz find, seed 3091385). Every engine prints the interpreter's values.
import taichi as ti

ti.init(arch=ti.cpu)
L = 1100
xi = ti.field(ti.i32, shape=L)
xj = ti.field(ti.i32, shape=L)


@ti.kernel
def init():
    for i in xj:
        xj[i] = (i * 7) % 5 - 2


@ti.kernel
def pick_prev():
    for i in range(3, 1035):
        xi[i] = ti.select(xj[i - 1], xj[i - 1], (i // 1000))


@ti.kernel
def pick_const():
    for i in range(0, 1035):
        xi[i] = ti.select(xj[i], 4, i // 1000) + ti.select(xj[i] > 0, i % 100, 0)


@ti.kernel
def pick_sum() -> ti.i32:
    s = 0
    for i in range(5, 1090):
        s += ti.select(xj[i] < 0, i // 512, i % 512)
    return s


init()
pick_prev()
print(sum(xi[i] for i in range(L)), [xi[i] for i in [3, 999, 1000, 1001, 1034, 1035]])
pick_const()
print(sum(xi[i] for i in range(L)), [xi[i] for i in [0, 1, 99, 999, 1000, 1034]])
print(pick_sum())
