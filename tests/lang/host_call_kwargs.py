# A host function called in a kernel with compile-time arguments, keywords
# included, runs at compile time and its result is a constant (as in Taichi:
# np.array(3, dtype=np.int32) in a kernel).
import taichi as ti
ti.init(arch=ti.cpu)


def scaled(x, factor=1, offset=0):
    return x * factor + offset


@ti.kernel
def k() -> ti.i32:
    a = scaled(3, factor=10, offset=2)
    b = scaled(4, offset=1)
    return a * 100 + b


print(k())
