# Host access outside [offset, offset + shape) names the valid range.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=(16, 16), offset=(-8, -8))
x[-8, 7] = 1
print(x[-8, 7])
print(x[0, -9])
