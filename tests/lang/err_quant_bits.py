# Bits out of range for a quantized type.
import taichi as ti

ti.init(arch=ti.cpu)
q = ti.types.quant.int(65, True)
