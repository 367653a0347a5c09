# A struct-for over a dense field whose levels block its axes visits the
# cells in the layout's order, as Taichi's: block by block, each block's cells
# in a row (ti.root.dense(ti.ij, 2).dense(ti.ij, 3): (0, 0) (0, 1) (0, 2)
# (1, 0) ... (2, 2), then the block at (0, 3)). A flat field's order is
# row-major, a column-major one's goes down its columns. The loop's own cell
# (and the other fields placed in it) is addressed by the loop's counter;
# other accesses keep their indices. Every engine prints the same.
import taichi as ti

ti.init(arch=ti.cpu)

a = ti.field(ti.i32)
b = ti.field(ti.f32)
ti.root.dense(ti.ij, 2).dense(ti.ij, 3).place(a, b)  # 6x6, two fields in a cell
col = ti.field(ti.i32)
ti.root.dense(ti.j, 3).dense(ti.i, 2).place(col)  # column-major 2x3
flat = ti.field(ti.i32, shape=(2, 3))
t = ti.field(ti.i32)
ti.root.dense(ti.ijk, 2).dense(ti.ijk, (1, 3, 2)).place(t)  # 3-D: 2x6x4
o = ti.field(ti.i32)
ti.root.dense(ti.ij, 2).dense(ti.ij, 2).place(o, offset=(-2, 1))  # indices [-2, 2) x [1, 5)
# The outer cell holds the inner block and `p`: the blocks are not back to
# back, so the address of q's cell is two terms of the counter, not one.
p, q = ti.field(ti.i64), ti.field(ti.i16)
outer = ti.root.dense(ti.ij, 2)
outer.place(p)
outer.dense(ti.ij, 2).place(q)
v = ti.Vector.field(2, ti.f32)
ti.root.dense(ti.i, 3).dense(ti.i, 2).place(v)  # one axis, two levels: row-major
m = ti.field(ti.i32)
ti.root.dense(ti.ij, 2).dense(ti.ij, 3).place(m)
visit = ti.field(ti.i32, shape=())


@ti.kernel
def fill_cells():
    for i, j in a:
        a[i, j] += i * 10 + j
        b[i, j] = a[i, j] * 0.5
    for i, j in col:
        col[i, j] = i * 10 + j
    for i, j, k in t:
        t[i, j, k] = i * 100 + j * 10 + k
    for i, j in o:
        o[i, j] = i * 10 + j
    for i, j in q:
        q[i, j] = ti.i16(i * 4 + j)
        p[i // 2, j // 2] = 7  # not q's own cell: an index of its own, and a plain store of the same value
    for I in ti.grouped(m):
        m[I] = I[0] * 10 + I[1] + a[I] * 1000


@ti.kernel
def neighbours() -> ti.i32:
    s = 0
    for i, j in a:
        s += a[(i + 1) % 6, j] * j - a[i, (j + 5) % 6] * i  # other cells: their own indices
    return s


@ti.kernel
def orders():
    ti.loop_config(serialize=True)
    for i, j in a:
        print('a', i, j)
    ti.loop_config(serialize=True)
    for i, j in col:
        print('col', i, j)
    ti.loop_config(serialize=True)
    for i, j in flat:
        print('flat', i, j)
    ti.loop_config(serialize=True)
    for i, j in o:
        print('o', i, j)
    ti.loop_config(serialize=True)
    for i in v:
        print('v', i)
    ti.loop_config(serialize=True)
    for I in ti.grouped(q):
        print('q', I)


@ti.kernel
def order_3d():
    ti.loop_config(serialize=True)
    for i, j, k in t:
        t[i, j, k] = visit[None]
        visit[None] += 1


fill_cells()
print(a.to_numpy().tolist())
print(b.to_numpy().tolist())
print(col.to_numpy().tolist())
print(t.to_numpy().tolist())
print(o.to_numpy().tolist(), o[-2, 1], o[1, 4])
print(q.to_numpy().tolist(), p.to_numpy().tolist())
print(m.to_numpy().tolist())
print(neighbours())
orders()
order_3d()
print(t.to_numpy().tolist())
a.fill(3)
print(a.to_numpy().sum(), b.to_numpy().sum())
