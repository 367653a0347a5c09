# ti.sparse.grid makes 2-D and 3-D grids only.
import taichi as ti
ti.init(arch=ti.cpu)
g = ti.sparse.grid({'m': ti.f32}, shape=(16,))
