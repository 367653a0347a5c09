# from_numpy copies an array into a field, casting to the field's dtype
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
x = ti.field(ti.f32, 4)
x.from_numpy(np.array([1, 7, 3, 5]))
print(x[0], x[1], x[2], x[3])
m = ti.field(ti.i32, shape=(2, 3))
m.from_numpy(np.arange(6).reshape(2, 3) * 3)


@ti.kernel
def total() -> ti.i32:
    s = 0
    for i, j in m:
        s += m[i, j] * (i + 1)
    return s


print(total())
m.from_numpy(np.arange(6).reshape(3, 2).T)  # a transposed view is copied in its logical order
print(m.to_numpy())
x.from_numpy(np.linspace(0, 1, 4, dtype=np.float32))
print(x.to_numpy())
