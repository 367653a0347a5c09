# In a struct-for over a blocked dense field (visited in its layout's order,
# its own cell addressed by the loop's counter), an access beside the loop's
# cell keeps its indices and its bounds check: the error names the index and
# the field's shape with its offsets, as over a flat field.
import taichi as ti

ti.init(arch=ti.cpu)
g = ti.field(ti.i32)
ti.root.dense(ti.ij, 2).dense(ti.ij, 2).place(g, offset=(-2, 1))


@ti.kernel
def shift(k: ti.i32):
    for i, j in g:
        g[i, j] = g[i, j + k] + 1


shift(0)
print("ok", g.to_numpy().sum())
shift(1)
print("unreachable")
