# ti.get_addr(x, I): the address of x[I] as a u64. Addresses move between runs;
# their differences are the layout: byte strides of dense axes in each order,
# AoS neighbours, blocks of nested dense SNodes, cells of a sparse block.
import taichi as ti

ti.init(arch=ti.cpu)

X, Y, Z = 4, 3, 2
ijk = ti.field(ti.i32, shape=(X, Y, Z))
kji = ti.field(ti.i32, shape=(X, Y, Z), order="kji")
d = ti.field(ti.f64, shape=5)

# column-major: the first index is contiguous
col = ti.field(ti.f32)
ti.root.dense(ti.j, 3).dense(ti.i, 4).place(col)

# AoS: a and b share a cell
a = ti.field(ti.i32)
b = ti.field(ti.f32)
ti.root.dense(ti.i, 6).place(a, b)

v = ti.Vector.field(3, ti.f32, shape=4)

# Taichi's layout example: 1x2 blocks of 2x2 blocks of 2x2 cells
nest = ti.field(ti.i32)
ti.root.dense(ti.ij, (1, 2)).dense(ti.ij, 2).dense(ti.ij, 2).place(nest)

# a sparse block: cells of one active block are contiguous
sp = ti.field(ti.i32)
ti.root.pointer(ti.i, 4).dense(ti.i, 8).place(sp)


@ti.kernel
def addr(x: ti.template(), i: ti.i32, j: ti.i32, k: ti.i32) -> ti.u64:
    return ti.get_addr(x, [i, j, k])


@ti.kernel
def strides():
    print("f64", ti.get_addr(d, 3) - ti.get_addr(d, 0))
    print("col", ti.get_addr(col, [1, 0]) - ti.get_addr(col, [0, 0]), ti.get_addr(col, [0, 1]) - ti.get_addr(col, [0, 0]))
    print("aos", ti.get_addr(b, 0) - ti.get_addr(a, 0), ti.get_addr(a, 1) - ti.get_addr(a, 0))
    print("vec", ti.get_addr(v, 1) - ti.get_addr(v, 0), ti.get_addr(v.get_scalar_field(2), 0) - ti.get_addr(v, 0))


@ti.kernel
def layout():
    for i, j in nest:
        base = ti.get_addr(nest.snode, [0, 0])
        nest[i, j] = int(ti.get_addr(nest.snode, [i, j]) - base) // 4


@ti.kernel
def sparse_cells() -> ti.i32:
    sp[13] = 1  # activates block 1
    return int(ti.get_addr(sp, 15) - ti.get_addr(sp, 9))


def offset(x, base, i, j, k):
    return addr(x, i, j, k) - base


b0, k0 = addr(ijk, 0, 0, 0), addr(kji, 0, 0, 0)
print("ijk", [offset(ijk, b0, i, j, k) for (i, j, k) in [(0, 0, 1), (0, 1, 0), (1, 0, 0), (3, 2, 1)]])
print("kji", [offset(kji, k0, i, j, k) for (i, j, k) in [(0, 0, 1), (0, 1, 0), (1, 0, 0), (3, 2, 1)]])
ok = all(offset(kji, k0, i, j, k) == 4 * (k * X * Y + j * X + i) for i in range(X) for j in range(Y) for k in range(Z))
print("kji formula", ok)
strides()
layout()
for i in range(4):
    print([nest[i, j] for j in range(8)])
print("sparse", sparse_cells())
