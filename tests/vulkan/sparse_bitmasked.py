# Bitmasked SNodes on the device: writes activate (every bitmasked level on
# the way), reads of inactive cells give 0, ti.activate / ti.deactivate /
# ti.is_active (a deactivated cell reads 0 when it comes back), struct-fors
# over the active cells in the order of the runtime's lists (prints), over a
# bitmasked level with a dense block under it and under a dense parent, and
# the host's view of the same memory; a struct-for that activates cells of
# its own SNode. Also i64(i) compared with a constant
# (lavapipe's sign extension bug: now shifts).
import taichi as ti

ti.init(arch=ti.vulkan)
x = ti.field(ti.f32)
y = ti.field(ti.i32)
outer = ti.root.dense(ti.i, 3).bitmasked(ti.i, 4)
outer.place(x)
blk = ti.root.bitmasked(ti.ij, (2, 2))
blk.dense(ti.ij, (2, 3)).place(y)


@ti.kernel
def fill():
    for i in range(12):
        if i % 3 != 1:
            x[i] = i * 1.5


@ti.kernel
def walk():
    for i in x:
        print("x", i, x[i])


@ti.kernel
def ops() -> ti.i32:
    ti.deactivate(outer, [3])
    ti.activate(blk, [1, 0])
    y[1, 5] = 7  # block (0, 1)
    return ti.is_active(outer, [3]) * 100 + ti.is_active(outer, [4]) * 10 + ti.is_active(blk, [1, 1])


@ti.kernel
def blocks():
    for I in ti.grouped(blk):
        print("block", I)
    for i, j in y:
        if y[i, j] != 0:
            print("y", i, j, y[i, j])


@ti.kernel
def reads(i: ti.i32) -> ti.f32:
    return x[i] + x[i + 1]


# Cells the struct-for activates are not visited: it goes over the cells
# active when it started (a snapshot of the masks, as the runtime's lists).
@ti.kernel
def shift():
    for i in x:
        if i + 1 < 12:
            x[i + 1] += 100.0


@ti.kernel
def i64_compare(i: ti.i32) -> ti.i32:
    a = ti.i64(i)
    return (a >= 0) * 1 + (a < 4) * 10 + (a > 0) * 100 + (a == 1) * 1000


fill()
walk()
print(ops(), x[3], x[4])
x[3] = 2.5
print(x[3], reads(3), reads(0))
blocks()
shift()
walk()
print(i64_compare(1), i64_compare(-1), i64_compare(7))
