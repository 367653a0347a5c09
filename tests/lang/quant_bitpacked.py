# Quantized fields packed into words: kernel and host reads and writes, the
# atomic += that must not spill into the neighbour, fixed rounding, floats
# with a shared exponent, and a 2-D quant_array under a dense.
import taichi as ti

ti.init(arch=ti.cpu)

qi5 = ti.types.quant.int(5, True)
qu4 = ti.types.quant.int(4, False)
a = ti.field(dtype=qi5)
b = ti.field(dtype=qu4)
c = ti.field(dtype=qi5)
bp = ti.BitpackedFields(max_num_bits=16)
bp.place(a, b, c)
ti.root.dense(ti.i, 4).place(bp)


@ti.kernel
def store():
    for i in range(4):
        a[i] = i - 2
        b[i] = i + 13
        c[i] = -16 + i


@ti.kernel
def bump(n: ti.i32):
    for k in range(n):
        b[1] += 3
        a[2] -= 1


store()
print([a[i] for i in range(4)], [b[i] for i in range(4)], [c[i] for i in range(4)])
bump(100)
print(a[2], b[1], c[1], c[2])
a[0] = 17
print(a[0], b[0], c[0])

fx = ti.types.quant.fixed(bits=10, signed=True, max_value=2.0)
qa = ti.types.quant.float(exp=6, frac=12, signed=True)
qb = ti.types.quant.float(exp=6, frac=13, signed=True)
x = ti.field(dtype=fx)
fa = ti.field(dtype=qa)
fb = ti.field(dtype=qb)
bp2 = ti.BitpackedFields(max_num_bits=64)
bp2.place(x)
bp2.place(fa, fb, shared_exponent=True)
ti.root.place(bp2)


@ti.kernel
def reals(v: ti.f32, p: ti.f32, q: ti.f32):
    x[None] = v
    fa[None] = p
    fb[None] = q


reals(0.3, 3.0, -0.125)
print(x[None], fa[None], fb[None])
fa[None] = 200.0
print(fa[None], fb[None])

q2 = ti.types.quant.int(2, False)
g = ti.field(dtype=q2)
ti.root.dense(ti.i, 3).quant_array(ti.ij, (4, 4), max_num_bits=32).place(g)


@ti.kernel
def grid() -> ti.i32:
    for i, j in g:
        g[i, j] = i + j
    s = 0
    for i, j in g:
        s += ti.cast(g[i, j], ti.i32)
    return s


print(g.shape, grid(), g.to_numpy()[5])

# A vector field of a quantized type: its components packed into one word.
qv = ti.types.quant.fixed(bits=16, max_value=2.0)
v = ti.Vector.field(2, dtype=qv)
bp3 = ti.BitpackedFields(max_num_bits=32)
bp3.place(v.get_scalar_field(0), v.get_scalar_field(1))
ti.root.place(bp3)
v[None] = [1.0, -0.5]


@ti.kernel
def turn():
    v[None] = ti.Vector([-v[None][1], v[None][0]])
    ti.atomic_add(v[None], ti.Vector([0.25, 0.25]))


turn()
print(v[None])
