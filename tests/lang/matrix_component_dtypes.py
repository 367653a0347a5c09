# A vector or matrix field with a dtype per component, as in Taichi: here
# quantized types packed into one 32-bit word per row by ti.BitpackedFields.
# The components share one compute type (f32 for a quantized float and a
# fixed-point type; i32 for quantized ints of different widths).
import taichi as ti

ti.init(arch=ti.cpu)
qflt = ti.types.quant.float(exp=8, frac=5, signed=True)
qfxt = ti.types.quant.fixed(bits=10, signed=True, scale=0.1)
a = ti.Matrix.field(2, 2, dtype=[[qflt, qfxt], [qflt, qfxt]])
c = ti.Matrix.field(2, 2, dtype=[[qflt, qfxt], [qflt, qfxt]])
for m in (a, c):
    for i in range(2):
        bits = ti.BitpackedFields(max_num_bits=32)
        bits.place(m.get_scalar_field(i, 0), m.get_scalar_field(i, 1))
        ti.root.dense(ti.i, 3).place(bits)

q4, q12, q16 = (ti.types.quant.int(bits=b, signed=True) for b in (4, 12, 16))
v = ti.Vector.field(3, dtype=[q4, q12, q16])
bits = ti.BitpackedFields(max_num_bits=32)
bits.place(v.get_scalar_field(0), v.get_scalar_field(1), v.get_scalar_field(2))
ti.root.dense(ti.i, 4).place(bits)


@ti.kernel
def init():
    for k in range(3):
        a[k] = [[1.0 + k, 3.0], [2.0, -1.5 * k]]
        c[k] = a[k] + ti.Matrix([[2.0, 4.0], [-2.0, 1.0]])
    for i in range(4):
        v[i] = [i - 3, 100 * i - 500, 1000 * i]


@ti.kernel
def sums() -> ti.f32:
    s = 0.0
    for k in range(3):
        s += c[k].sum()
    return s


init()
for k in range(3):
    print(k, c[k][0, 0], c[k][0, 1], c[k][1, 0], c[k][1, 1])
print(sums())
print([[v[i][j] for j in range(3)] for i in range(4)])
