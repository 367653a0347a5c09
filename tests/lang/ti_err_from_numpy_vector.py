# a vector field needs the trailing axis of length n
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
v = ti.Vector.field(3, ti.f32, shape=8)
v.from_numpy(np.zeros((8, 3)))
v.from_numpy(np.zeros((8, 2)))
