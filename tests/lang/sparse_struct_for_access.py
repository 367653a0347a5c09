# Struct-for accesses at the loop's own indices address the visited cell
# directly (the struct_for_access pass); everything else keeps the lookup.
# Same results either way, on every kind of container.
import taichi as ti
ti.init(arch=ti.cpu)

# pointer of dense, two fields in one cell, a neighbour read across blocks
x = ti.field(ti.i32)
y = ti.field(ti.f32)
blk = ti.root.pointer(ti.ij, 4)
blk.dense(ti.ij, 4).place(x, y)

# bitmasked leaf with a field offset; dynamic lists; pointer holding the place
b = ti.field(ti.i32)
ti.root.bitmasked(ti.i, 32).place(b, offset=(-5,))
d = ti.field(ti.i32)
ti.root.dense(ti.i, 3).dynamic(ti.j, 16, chunk_size=4).place(d)
p = ti.field(ti.i64)
ti.root.pointer(ti.i, 10).place(p)
v = ti.Vector.field(2, ti.f32)
ti.root.pointer(ti.i, 4).dense(ti.i, 2).place(v)

@ti.kernel
def fill():
    x[1, 2] = 5
    x[6, 5] = 7
    x[7, 7] = 9
    x[8, 4] = 11
    for k in range(11):
        b[k * 3 - 5] = k * 3 - 5
    for i in range(3):
        for j in range(i * 5 + 1):
            ti.append(d.parent(), [i], i * 100 + j)
    p[3] = 30
    p[7] = 70
    v[5] = [1.5, 2.5]

@ti.kernel
def sweep():
    for i, j in x:
        x[i, j] += 1
        y[i, j] = x[i, j] * 0.5
    for i in b:
        b[i] = b[i] * 2 + i
    for i, j in d:
        d[i, j] += j
    for i in p:
        p[i] = p[i] + i
    for i in v:
        v[i] = v[i] * 2.0 + i

@ti.kernel
def neighbours() -> ti.i32:
    # x[i, j + 1] may leave the block (and its block may be inactive): a lookup
    s = 0
    for i, j in x:
        s += x[i, j + 1] * 1000 + x[i, j]
    return s

fill()
sweep()
print([(i, j, x[i, j], y[i, j]) for i in range(16) for j in range(16) if x[i, j]])
print([b[k] for k in range(-5, 27)])
print([[d[i, j] for j in range(12)] for i in range(3)])
print([p[i] for i in range(10)], v[5], v[4])
print(neighbours())
