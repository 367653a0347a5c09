# A field's shape must match its layout's shape.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=(4, 4), layout=ti.layout.row_major(4, 2))
