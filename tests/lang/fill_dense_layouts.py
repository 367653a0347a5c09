# x.fill(v) over dense layouts: row- and column-major, vectors with their
# components together (AoS) or apart (SoA), an offset field, a 2-level
# blocked layout (not one strided block: element by element), and a field
# sharing its dense SNode with another, which fill leaves alone.
import taichi as ti

ti.init(arch=ti.cpu)

a = ti.field(ti.f32, shape=(3, 4))
b = ti.field(ti.i32)
ti.root.dense(ti.j, 4).dense(ti.i, 3).place(b)  # column-major
v = ti.Vector.field(3, ti.f32, shape=(2, 5))  # AoS
s = ti.Vector.field(2, ti.i16)
ti.root.dense(ti.i, 6).place(s.get_scalar_field(0))
ti.root.dense(ti.i, 6).place(s.get_scalar_field(1))  # SoA
o = ti.field(ti.f64, shape=(4,), offset=(-2,))
blk = ti.field(ti.u8)
ti.root.dense(ti.ij, 2).dense(ti.ij, 3).place(blk)
p, q = ti.field(ti.i32), ti.field(ti.i32)
ti.root.dense(ti.i, 5).place(p, q)
q.fill(9)

a.fill(1.5)
b.fill(-7)
v.fill(ti.Vector([1, 2, 3]))
s.fill(ti.Vector([4, -5]))
o.fill(0.25)
blk.fill(200)
p.fill(3)
for f in (a, b, v, s, o, blk, p, q):
    print(f.to_numpy().tolist())
