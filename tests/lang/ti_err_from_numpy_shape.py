# from_numpy with the wrong shape names both shapes
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=(4, 4))
x.from_numpy(np.ones((4, 4)))
print(x[3, 3])
x.from_numpy(np.ones((4, 5)))
