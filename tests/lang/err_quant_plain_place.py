# A field of a quantized type must be packed (ti.BitpackedFields / quant_array).
import taichi as ti

ti.init(arch=ti.cpu)
x = ti.field(dtype=ti.types.quant.int(20, True))
ti.root.dense(ti.i, 4).place(x)
