# ti.rescale_index maps a field index onto a coarser (or finer) SNode's index space.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
block = ti.root.pointer(ti.ij, (4, 2))
pixel = block.dense(ti.ij, (8, 4))
pixel.place(x)
coarse = ti.field(ti.i32)
ti.root.dense(ti.ij, (4, 2)).place(coarse)

@ti.kernel
def mark():
    x[9, 3] = 1
    x[30, 7] = 1
    for i, j in x:
        if x[i, j] == 1:
            I = ti.rescale_index(x, block, [i, j])
            coarse[I] += 1

@ti.kernel
def show():
    print(ti.rescale_index(x, coarse, ti.Vector([17, 6])))
    print(ti.rescale_index(coarse, x, ti.Vector([3, 1])))

mark()
print([[coarse[i, j] for j in range(2)] for i in range(4)])
show()
