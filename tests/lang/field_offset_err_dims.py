# An offset needs one entry per dimension of the shape.
import taichi as ti
ti.init(arch=ti.cpu)
a = ti.field(dtype=ti.f32, shape=3, offset=(3, 4))
