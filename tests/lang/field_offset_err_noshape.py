# An offset needs a shape: a field placed later gives it to place().
import taichi as ti
ti.init(arch=ti.cpu)
b = ti.Vector.field(3, dtype=ti.f32, shape=None, offset=(3,))
