# An index outside [offset, offset + shape) names the valid range, in kernels.
import taichi as ti
ti.init(arch=ti.cpu, debug=True)
x = ti.field(ti.i32, shape=(16, 16), offset=(-8, -8))

@ti.kernel
def get(i: ti.i32, j: ti.i32) -> ti.i32:
    return x[i, j]

print(get(-8, 7))
print(get(8, 0))
