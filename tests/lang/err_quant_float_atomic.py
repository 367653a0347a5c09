# quant.float has no atomic add: += in a parallel loop is an error.
import taichi as ti

ti.init(arch=ti.cpu)
f = ti.field(dtype=ti.types.quant.float(exp=5, frac=10))
bp = ti.BitpackedFields(max_num_bits=32)
bp.place(f)
ti.root.place(bp)


@ti.kernel
def race():
    for i in range(8):
        f[None] += 1.0


race()
