# fill() writes the active cells only, as Taichi's struct-for based fill does.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.bitmasked(ti.i, 8).place(x)
x[1] = 5
x[6] = 5
x.fill(3)
print([x[i] for i in range(8)])

# Every sparse shape: only the active elements change, nothing is activated
# (fill walks the active containers as a struct-for does, not every index).
a = ti.field(ti.f32)
blk = ti.root.pointer(ti.ij, 4)
blk.dense(ti.ij, 4).place(a)
b = ti.field(ti.i32)
ti.root.dense(ti.i, 4).bitmasked(ti.i, 8).place(b)
c = ti.field(ti.i32)
ti.root.pointer(ti.i, 8).place(c)
d = ti.field(ti.i32)
lists = ti.root.dense(ti.i, 3).dynamic(ti.j, 20, chunk_size=4)
lists.place(d)
v = ti.Vector.field(2, ti.f64)
ti.root.pointer(ti.i, 3).bitmasked(ti.i, 5).place(v)


@ti.kernel
def setup():
    a[1, 2] = 5.0
    a[9, 14] = 1.0
    b[3] = 1
    b[30] = 2
    c[5] = 7
    for i in range(3):
        for k in range(i * 5 + 1):
            ti.append(lists, [i], k)
    v[7] = [1.0, 2.0]


@ti.kernel
def census() -> ti.i32:
    n = 0
    for i, j in a:
        n += 1
    for i in b:
        n += 100
    for i in c:
        n += 10000
    return n


setup()
a.fill(2.5)
b.fill(-1)
c.fill(9)
d.fill(4)
v.fill(0.5)
print(a.to_numpy().sum(), (a.to_numpy() != 0).sum(), census())
print(b.to_numpy().tolist())
print(c.to_numpy().tolist())
print(d.to_numpy().sum(), [d[i, 0] for i in range(3)], d[2, 10], d[2, 11])
print(v.to_numpy().tolist())
