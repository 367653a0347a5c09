import taichi as ti
ti.init(arch=ti.cpu)
# A sparse domain far larger than memory is legal: 2**20 x 2**20 f32 cells
# (4 TiB if dense), of which only the blocks a program touches are allocated.
x = ti.field(ti.f32)
blk = ti.root.pointer(ti.ij, 1024)
blk.dense(ti.ij, 1024).place(x)
print(x.shape)


@ti.kernel
def touch():
    for k in range(8):
        x[k * 100003, k * 77777] = k + 1


@ti.kernel
def total() -> ti.f32:
    s = 0.0
    for i, j in x:
        s += x[i, j]
    return s


touch()
print(total())
print(x[700021, 544439])
n = ti.field(ti.i32, shape=())


@ti.kernel
def count():
    for I in ti.grouped(blk):
        n[None] += 1


count()
print(n[None])
