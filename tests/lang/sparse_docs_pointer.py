# The pointer example of Taichi's sparse docs: `for i, j in block` gives block
# coordinates, and ti.deactivate(block, [i, j]) takes the same coordinates.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32)
block = ti.root.pointer(ti.ij, (4, 4))
pixel = block.dense(ti.ij, (2, 2))
pixel.place(x)

@ti.kernel
def activate():
    x[2, 3] = 1.0
    x[2, 4] = 2.0

@ti.kernel
def print_active():
    for i, j in block:
        print("Active block", i, j)
    for i, j in x:
        print(f'field x[{i}, {j}] = {x[i, j]}')

@ti.kernel
def drop_second_row():
    for i, j in block:
        if j == 2:
            ti.deactivate(block, [i, j])

@ti.kernel
def count() -> ti.i32:
    n = 0
    for i, j in block:
        n += 1
    return n

activate()
print_active()
drop_second_row()
print(count(), x[2, 3], x[2, 4])
