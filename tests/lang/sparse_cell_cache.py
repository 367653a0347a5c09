# A struct-for over blocks keeps its cell table across launches while no
# cell's activity changes (launch.cpp cached_table): every way of changing
# activity between two launches (host writes, kernel activation and
# deactivation, deactivate_all, a bitmasked level, nested pointers, the
# same kernel's earlier task) must show in the next launch's cells.
import taichi as ti
ti.init(arch=ti.cpu)

N, B = 32, 4
x = ti.field(ti.i32)
blk = ti.root.pointer(ti.ij, N // B)
blk.dense(ti.ij, B).place(x)


@ti.kernel
def sweep() -> ti.i32:
    n = 0
    for i, j in x:
        x[i, j] += 1
        n += 1
    return n


@ti.kernel
def activate(bi: ti.i32, bj: ti.i32):
    x[bi * B, bj * B] += 0


@ti.kernel
def deactivate(bi: ti.i32, bj: ti.i32):
    ti.deactivate(blk, [bi, bj])


@ti.kernel
def fill_then_sweep(bi: ti.i32) -> ti.i32:
    for k in range(N // B):  # a task before the struct-for activates a column of blocks
        x[bi * B, k * B] += 0
    n = 0
    for i, j in x:
        n += 1
    return n


@ti.kernel
def blocks() -> ti.i32:
    n = 0
    for b0, b1 in blk:
        n += b0 * 100 + b1
    return n


def total():
    return sum(x[i, j] for i in range(N) for j in range(N))


activate(0, 0)
print("one block", sweep(), sweep(), total())
x[9, 17] = 5  # host write: block (2, 4)
print("host write", sweep(), total())
activate(7, 7)
print("kernel activation", sweep(), blocks())
deactivate(0, 0)
print("deactivated", sweep(), blocks(), total())
blk.deactivate_all()
print("deactivate_all", sweep(), total())
print("same kernel", fill_then_sweep(3), sweep(), sweep())
deactivate(3, 0)
activate(0, 3)  # as many blocks as before, one moved
print("moved", sweep(), blocks())

# A bitmasked level over dense blocks, and nested pointers.
y = ti.field(ti.f32)
bm = ti.root.bitmasked(ti.i, 16)
bm.dense(ti.i, 8).place(y)
z = ti.field(ti.i32)
outer = ti.root.pointer(ti.i, 4)
inner = outer.pointer(ti.i, 4)
inner.dense(ti.i, 8).place(z)


@ti.kernel
def count_y() -> ti.i32:
    n = 0
    for i in y:
        y[i] += 1.0
        n += 1
    return n


@ti.kernel
def count_z() -> ti.i32:
    n = 0
    for i in z:
        n += i
    return n


@ti.kernel
def drop_inner(k: ti.i32):
    ti.deactivate(inner, [k])


y[3] = 1.0
print("bitmasked", count_y(), count_y())
y[100] = 1.0
print("bitmasked more", count_y())
bm.deactivate_all()
y[40] = 2.0
print("bitmasked after deactivate_all", count_y(), y[40])
z[0] = 1
z[40] = 1
print("nested", count_z(), count_z())
drop_inner(5)  # cells 40..47
print("nested dropped", count_z())
z[127] = 1
print("nested again", count_z())
outer.deactivate_all()
print("nested empty", count_z())
