# Struct-fors over dense blocks whose body is lane arithmetic at the visited
# cell run on the JIT as one loop over all the blocks' cells, the vector loop
# loading each block's address as it reaches the block
# (vm/bytecode/flat_rows.h): blocks of 64, 20 (rows that end under a mask)
# and 16 cells, i32 and f32 fields, a bitmasked container, a field offset, a
# block of two fields (not flattened: its cells are 8 bytes apart), sweeps
# repeated over an unchanged and a changed set of blocks.
import taichi as ti
ti.init(arch=ti.cpu)

# 8x8 blocks of a 2-D pointer, about a third active, i32 and f32
N, B = 96, 8
x = ti.field(ti.i32)
ti.root.pointer(ti.ij, N // B).dense(ti.ij, B).place(x)
y = ti.field(ti.f32)
ti.root.pointer(ti.ij, N // B).dense(ti.ij, B).place(y)

@ti.kernel
def activate(seed: ti.i32):
    for bi, bj in ti.ndrange(N // B, N // B):
        if (bi * 7 + bj * 13 + seed) % 3 == 0:
            x[bi * B + 1, bj * B + 2] = bi * 100 + bj
            y[bi * B, bj * B] = 1.5

@ti.kernel
def sweep_x():
    for i, j in x:
        x[i, j] = x[i, j] * 3 + 1

@ti.kernel
def sweep_y():
    for i, j in y:
        v = y[i, j]
        y[i, j] = ti.select(v > 4.0, -v, ti.sqrt(v * v + 1.0) * 0.5 + v)

# The same on the host: the cells of every active block
xs, ys = {}, {}

def activate_ref(seed):
    for bi in range(N // B):
        for bj in range(N // B):
            if (bi * 7 + bj * 13 + seed) % 3 == 0:
                for i in range(B):
                    for j in range(B):
                        xs.setdefault((bi * B + i, bj * B + j), 0)
                        ys.setdefault((bi * B + i, bj * B + j), 0.0)
                xs[(bi * B + 1, bj * B + 2)] = bi * 100 + bj
                ys[(bi * B, bj * B)] = 1.5

def sweep_ref():
    for k in xs:
        xs[k] = (xs[k] * 3 + 1 + 2**31) % 2**32 - 2**31

def same():
    xa = x.to_numpy()
    return all(xa[k] == v for k, v in xs.items()) and int((xa != 0).sum()) == sum(1 for v in xs.values() if v)

activate(0)
activate_ref(0)
for _ in range(5):
    sweep_x()
    sweep_ref()
    sweep_y()
print("i32 blocks", len(xs), same())
activate(1)  # more blocks: the kept cell table is rebuilt
activate_ref(1)
for _ in range(3):
    sweep_x()
    sweep_ref()
print("i32 more blocks", len(xs), same())
ya = y.to_numpy()
print("f32", round(float(ya.sum()), 3), int((ya != 0).sum()))

# 4x5 blocks: rows of 20 cells end under a mask
z = ti.field(ti.f32)
ti.root.pointer(ti.ij, (6, 5)).dense(ti.ij, (4, 5)).place(z)

@ti.kernel
def fill_z():
    for i, j in ti.ndrange(24, 25):
        if (i // 4 + j // 5) % 2 == 0:
            z[i, j] = i * 25 + j

@ti.kernel
def sweep_z():
    for i, j in z:
        z[i, j] = z[i, j] * 0.5 + 1.0

fill_z()
for _ in range(4):
    sweep_z()
za = z.to_numpy()
zref = 0.0
for i in range(24):
    for j in range(25):
        if (i // 4 + j // 5) % 2 == 0:
            v = float(i * 25 + j)
            for _ in range(4):
                v = v * 0.5 + 1.0
            zref += v
print("rows of 20", round(float(za.sum()), 2), round(zref, 2), int((za != 0).sum()))

# a bitmasked container of 16-cell blocks, with a field offset
w = ti.field(ti.i32)
ti.root.bitmasked(ti.i, 32).dense(ti.i, 16).place(w, offset=(-100,))

@ti.kernel
def fill_w():
    for k in range(32):
        if k % 5 != 2:
            w[k * 16 - 100 + k % 16] = k

@ti.kernel
def sweep_w():
    for i in w:
        w[i] = (w[i] ^ 5) - 2

fill_w()
for _ in range(3):
    sweep_w()
wsum = 0
for k in range(32):
    if k % 5 != 2:
        for c in range(16):
            v = k if c == k % 16 else 0
            for _ in range(3):
                v = (v ^ 5) - 2
            wsum += v
print("bitmasked", int(w.to_numpy().sum()), wsum)

# two fields in one block's cells: 8 bytes apart, the loop per block stays
a = ti.field(ti.i32)
b = ti.field(ti.i32)
ti.root.pointer(ti.i, 8).dense(ti.i, 32).place(a, b)

@ti.kernel
def fill_ab():
    for k in range(8):
        if k % 2 == 0:
            a[k * 32] = k
            b[k * 32 + 1] = k

@ti.kernel
def sweep_ab():
    for i in a:
        a[i] = a[i] + b[i] * 2 + 1

fill_ab()
for _ in range(2):
    sweep_ab()
print("two fields", int(a.to_numpy().sum()), sum(2 * 32 + k + 2 * (2 * k) for k in (0, 2, 4, 6)))
