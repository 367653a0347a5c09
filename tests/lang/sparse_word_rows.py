# Struct-fors over the cells of bitmasked and dynamic leaves: on the JIT
# their table has a row per 64-cell word of a container and the task walks
# the word's bits (vm/bytecode/flat_rows.h). Words part full, a container's
# last partial word, cells of two fields, the moving index on either axis,
# lists with chunks shorter than a word and not a multiple of it, a
# `continue`, a body that reads no index, and activity changed between
# sweeps: the same output on every engine.
import taichi as ti
ti.init(arch=ti.cpu)

# 1-D bitmasked cells of {p, v} (8 bytes), 200 per block: words 0-2 full
# width, word 3 has 8 cells.
p = ti.field(ti.f32)
v = ti.field(ti.f32)
ti.root.dense(ti.i, 5).bitmasked(ti.i, 200).place(p, v)

@ti.kernel
def spawn():
    for k in range(1000):
        if (k * 7 + k // 200) % 5 < 2 or k % 199 == 0:
            p[k] = k * 0.5
            v[k] = (k % 13) - 6.0

@ti.kernel
def step():
    for i in p:
        if i % 9 == 4:
            continue
        nv = v[i] - 1.0
        np_ = p[i] + nv * 0.25
        if np_ < 0:
            np_ = -np_
            nv = -nv
        p[i] = np_
        v[i] = nv

@ti.kernel
def moments() -> ti.f64:
    s = ti.cast(0, ti.f64)
    for i in p:
        s += ti.cast(p[i], ti.f64) * (i % 17 + 1) + ti.cast(v[i], ti.f64)
    return s

@ti.kernel
def count() -> ti.i32:
    n = 0
    for i in p:
        n += 1
    return n

@ti.kernel
def scale():  # reads no index: only the cell's address
    for i in p:
        v[i] = v[i] * 0.5

spawn()
for _ in range(3):
    step()
scale()
print("1-D", count(), moments())

@ti.kernel
def thin():
    for i in p:
        if i % 3 == 0:
            ti.deactivate(p.snode.parent(), [i])

thin()
step()
print("thinned", count(), moments())

# 2-D: the moving index is the second (dense rows of bitmasked columns) or
# the first (bitmasked rows under dense columns).
a = ti.field(ti.i32)
ti.root.dense(ti.i, 3).bitmasked(ti.j, 130).place(a)
b = ti.field(ti.i32)
ti.root.dense(ti.j, 3).bitmasked(ti.i, 130).place(b)

@ti.kernel
def fill2():
    for i, j in ti.ndrange(3, 130):
        if (i * 31 + j * 5) % 7 < 3:
            a[i, j] = i * 1000 + j
        if (i * 11 + j * 3) % 4 == 1:
            b[j, i] = j * 1000 + i

@ti.kernel
def check2() -> ti.i64:
    s = ti.cast(0, ti.i64)
    for i, j in a:
        s += (a[i, j] - i * 1000 - j) * 1000003 + i * 7 + j
    for i, j in b:
        s += (b[i, j] - i * 1000 - j) * 1000003 + i * 5 + j * 3
    return s

fill2()
print("2-D", check2())

@ti.kernel
def first_cells():
    for i, j in a:
        if j < 12:
            print("a", i, j, a[i, j])

first_cells()

# Lists: chunks of 32 (shorter than a word) and of 100 (not a multiple).
for chunk in (32, 100):
    lst = ti.field(ti.i32)
    ti.root.dense(ti.i, 3).dynamic(ti.j, 400, chunk_size=chunk).place(lst)

    @ti.kernel
    def grow(n: ti.i32):
        for i in range(3):
            for k in range(n + i * 37):
                ti.append(lst.parent(), i, k * 3 + i)

    @ti.kernel
    def sweep() -> ti.i64:
        s = ti.cast(0, ti.i64)
        for i, j in lst:
            lst[i, j] += j
            s += lst[i, j] * (j % 11 + 1) + i
        return s

    grow(150)
    print("list", chunk, sweep(), sweep())
