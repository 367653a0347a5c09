# Struct-fors over a sparse domain of 2^36 cells, more than an i32 numbers (a
# pointer level of 2^20 cells over 2^16 dense i16 cells a block): only the
# touched blocks are visited. Blocks freed by deactivation are reused by other
# cells; a cell deactivated since the list was made is not visited, nor a
# reused block under its old cell.
import taichi as ti

ti.init(arch=ti.cpu)
x = ti.field(ti.i16)
blk = ti.root.pointer(ti.ij, 1024)
blk.dense(ti.ij, 256).place(x)
n = ti.field(ti.i64, shape=())


@ti.kernel
def touch(k0: ti.i32, k1: ti.i32):
    for k in range(k0, k1):
        x[k * 100003 % 65000, k * 77777 % 65000] = ti.i16(k + 1)
        x[k * 100003 % 65000 + 1, k * 77777 % 65000 + 2] = 2


@ti.kernel
def stats() -> ti.f32:
    s = 0.0
    for i, j in x:
        s += x[i, j] * ((i + j) % 7 + 1)
        n[None] += 1
    return s


@ti.kernel
def drop(k0: ti.i32, k1: ti.i32):
    for k in range(k0, k1):
        ti.deactivate(blk, [k * 100003 % 65000 // 256, k * 77777 % 65000 // 256])


@ti.kernel
def blocks() -> ti.i32:
    c = 0
    for I in ti.grouped(blk):
        c += 1
    return c


def report():
    n[None] = 0
    s = stats()
    print(s, n[None], blocks())


touch(0, 12)
report()
drop(3, 7)
report()
touch(20, 26)
report()
@ti.kernel
def drop_one(i: ti.i32, j: ti.i32):
    ti.deactivate(blk, [i, j])


drop_one(0, 0)
x[5, 5] = 3
x[60000, 2] = 4
report()
print(x[5, 5], x[60000, 2], x[100003 * 4 % 65000, 77777 * 4 % 65000])
