# Struct-for over pointer levels visits active cells with their own coordinates
# (the example of Taichi's sparse docs: block1 [0, 0] [1, 1], block2 [1, 1] [2, 3]).
import taichi as ti
ti.init(arch=ti.cpu, debug=True)
x = ti.field(dtype=ti.i32)
block1 = ti.root.pointer(ti.ij, (4, 4))
block2 = block1.pointer(ti.ij, (2, 2))
pixel = block2.dense(ti.ij, (2, 2))
pixel.place(x)

@ti.kernel
def activate():
    x[2, 3] = 2
    x[5, 6] = 3

@ti.kernel
def show():
    for i, j in block1:
        print('Active block1:', i, j)
    for i, j in block2:
        print('Active block2:', i, j)
    for i, j in x:
        print('field x', i, j, x[i, j])

activate()
show()
