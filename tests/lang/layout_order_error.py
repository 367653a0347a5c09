# order= names each axis of the field once.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=(4, 4), order="ii")
