# Struct-fors over the row shapes the compiled tiers read their own way (the
# JIT's and the LLVM tier's word rows: a row per 64-cell word whose bits the
# task walks; the LLVM tier's dense blocks under pointers as a vector loop
# from the row's address): dynamic lists of lengths 0, 1, 63, 64, 65 and 130
# (chunks of 64 and of 32), bitmasked words with holes (only a word's top
# bit, only its bit 0, an empty word between, a partial last word), and
# pointer blocks of 15 and 4x5 cells, no multiple of a vector's lanes.
# The same output on every engine.
import taichi as ti
ti.init(arch=ti.cpu)

lengths = (0, 1, 63, 64, 65, 130)
for chunk in (64, 32):
    lst = ti.field(ti.i32)
    ti.root.dense(ti.i, 6).dynamic(ti.j, 256, chunk_size=chunk).place(lst)
    n_of = ti.field(ti.i32, 6)
    last = ti.field(ti.i32, 6)
    for i, n in enumerate(lengths):
        n_of[i] = n
        last[i] = -1

    @ti.kernel
    def grow():
        for i in range(6):
            for k in range(n_of[i]):
                ti.append(lst.parent(), i, k * 7 + i)

    @ti.kernel
    def sweep() -> ti.i64:
        s = ti.cast(0, ti.i64)
        for i, j in lst:
            lst[i, j] += j
            s += lst[i, j] * (j % 11 + 1) + i * 100003
            ti.atomic_max(last[i], j)
        return s

    @ti.kernel
    def count() -> ti.i32:
        n = 0
        for i, j in lst:
            n += 1
        return n

    grow()
    print("list", chunk, count(), sweep(), sweep(), [last[i] for i in range(6)])

# Bitmasked, 200 cells a container (words 0-2 full width, word 3 of 8 cells).
m = ti.field(ti.i32)
ti.root.dense(ti.i, 2).bitmasked(ti.i, 200).place(m)
lo = ti.field(ti.i32, ())
hi = ti.field(ti.i32, ())

@ti.kernel
def spawn():
    m[63] = 1  # word 0: its top bit only
    m[128] = 2  # word 1 empty, word 2: its bit 0 only
    m[199] = 3  # the partial last word's last cell
    for k in range(200, 400):
        if k % 5 != 0:
            m[k] = k

@ti.kernel
def bump() -> ti.i64:
    s = ti.cast(0, ti.i64)
    for i in m:
        m[i] += i
        s += m[i] * (i % 13 + 1)
        ti.atomic_min(lo[None], i)
        ti.atomic_max(hi[None], i)
    return s

spawn()
lo[None] = 1 << 30
hi[None] = -1
print("bitmasked", bump(), lo[None], hi[None], m[63], m[128], m[199], m[205])

# Dense blocks under pointers: 15 cells (1-D) and 4x5 (2-D) a block.
d = ti.field(ti.f32)
ti.root.pointer(ti.i, 4).dense(ti.i, 15).place(d)
g = ti.field(ti.i32)
ti.root.pointer(ti.ij, (3, 2)).dense(ti.ij, (4, 5)).place(g)

@ti.kernel
def seed():
    for k in ti.static((0, 31, 59)):  # blocks 0, 2 and 3
        d[k] = 1.0
    g[0, 0] = 1
    g[9, 7] = 2  # block (2, 1), the last

@ti.kernel
def add_d():
    for i in d:
        d[i] += 1.5

@ti.kernel
def mix_d():
    for i in d:
        d[i] = d[i] * 2.0 + i

@ti.kernel
def add_g():
    for i, j in g:
        g[i, j] += i * 10 + j

@ti.kernel
def sums() -> ti.f64:
    s = ti.cast(0, ti.f64)
    for i in d:
        s += ti.cast(d[i], ti.f64) * (i + 1)
    for i, j in g:
        s += g[i, j] * (i * 7 + j + 1)
    return s

seed()
for _ in range(3):
    add_d()
    add_g()
mix_d()
print("blocks", sums(), d[0], d[14], d[30], d[59], g[0, 0], g[3, 4], g[9, 7], g[8, 5])
