# float() and int() of host numbers in a kernel are Python's conversions at
# compile time, as in Taichi (Taichi's test_random_int: float(2 ** 31)).
import taichi as ti

ti.init(arch=ti.cpu, default_fp=ti.f64)
x = ti.field(ti.f64, shape=4)


@ti.kernel
def fill():
    x[0] = float(2 ** 31)
    x[1] = int(2.75) + int(-2.75)
    x[2] = float(True) + int(7)
    k = 3
    x[3] = float(k) / 2  # a kernel value: a cast, as before


fill()
print(x.to_numpy().tolist())
