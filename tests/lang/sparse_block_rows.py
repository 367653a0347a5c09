# Struct-fors over dense blocks under a sparse container run each block's
# cells as a loop inside the container's cell (lower_sparse.cpp): the
# indices, their order, field offsets, several fields in a block, continue,
# axes the container does not split, and layouts where that does not apply.
import taichi as ti
ti.init(arch=ti.cpu)

# 2-D: pointer of 4x2 blocks, two fields, an offset
a = ti.field(ti.i32)
b = ti.field(ti.f32)
blk = ti.root.pointer(ti.ij, (3, 4)).dense(ti.ij, (4, 2))
blk.place(a, b, offset=(-4, 2))

@ti.kernel
def fill2():
    a[-4, 2] = 1
    a[3, 9] = 1
    b[5, 4] = 1.0

@ti.kernel
def step2() -> ti.i32:
    s = 0
    for i, j in a:
        if (i + j) % 3 == 0:
            continue
        a[i, j] += i * 100 + j
        b[i, j] = a[i, j] * 0.5
        s += 1
    return s

fill2()
print("visited", step2())
got = []
for i in range(-4, 8):
    for j in range(2, 10):
        if a[i, j] != 0:
            got.append((i, j, a[i, j], b[i, j]))
ref = []
blocks = ((0, 0), (1, 3), (2, 1))  # of a[-4, 2], a[3, 9], b[5, 4]
for i in range(-4, 8):
    for j in range(2, 10):
        if ((i + 4) // 4, (j - 2) // 2) not in blocks:
            continue
        v = 1 if (i, j) in ((-4, 2), (3, 9)) else 0
        w = 1.0 if (i, j) == (5, 4) else 0.0
        if (i + j) % 3 != 0:
            v += i * 100 + j
            w = v * 0.5
        if v:
            ref.append((i, j, v, w))
print("2-D cells", len(got), got == ref)

# serial order: blocks in list order, cells row-major in each
o = ti.field(ti.i32)
ti.root.pointer(ti.i, 4).dense(ti.i, 3).place(o)

@ti.kernel
def order():
    o[10] = 1
    o[1] = 1
    ti.loop_config(serialize=True)
    for i in o:
        print(i)

order()

# 3-D: the pointer splits i and j, the block i, j and k
c = ti.field(ti.i32)
ti.root.pointer(ti.ij, 2).dense(ti.ijk, (2, 2, 3)).place(c)

@ti.kernel
def step3() -> ti.i32:
    c[3, 1, 2] = 5
    s = 0
    for i, j, k in c:
        s += i * 100 + j * 10 + k + c[i, j, k]
    return s

ref3 = sum(i * 100 + j * 10 + k for i in (2, 3) for j in (0, 1) for k in range(3)) + 5
print("3-D", step3(), ref3)

# grouped indices, and a bitmasked container of blocks
d = ti.field(ti.i32)
ti.root.bitmasked(ti.i, 8).dense(ti.i, 4).place(d)

@ti.kernel
def grouped() -> ti.i32:
    d[9] = 2
    d[30] = 3
    for I in ti.grouped(d):
        d[I] += I[0]
    s = 0
    for i in d:
        s += d[i]
    return s

print("grouped", grouped(), sum(range(8, 12)) + sum(range(28, 32)) + 5)

# a pointer whose first place is shallower than the looped block: the block
# keeps its own list
e = ti.field(ti.i32)
f = ti.field(ti.i32)
p = ti.root.pointer(ti.i, 4)
p.place(e)
p.dense(ti.i, 1).dense(ti.i, 3).place(f)

@ti.kernel
def shallow() -> ti.i32:
    f[5] = 1
    s = 0
    for i in f:
        s += i + f[i]
    return s

print("shallow", shallow(), 3 + 4 + 5 + 1)
