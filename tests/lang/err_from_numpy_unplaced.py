# from_numpy into a field that has no place in a tree (here the dual of a
# field declared with needs_grad but not needs_dual) says the field is not
# placed, before it looks at the array's shape.
import numpy as np
import taichi as ti

ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=4, needs_grad=True)


@ti.kernel
def fill():
    for i in x:
        x[i] = i * 2


fill()
print(x.to_numpy())
x.dual.from_numpy(np.ones(4, dtype=np.float32))
print("not reached")
