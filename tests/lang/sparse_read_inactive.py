# Reading an inactive cell gives 0 and activates nothing.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
block = ti.root.pointer(ti.i, 8)
block.dense(ti.i, 8).place(x)

@ti.kernel
def read_some() -> ti.i32:
    s = 0
    for i in range(64):
        s += x[i]
    return s

@ti.kernel
def active_blocks() -> ti.i32:
    n = 0
    for i in block:
        n += 1
    return n

print(read_some(), active_blocks())
print(x[17], active_blocks())
