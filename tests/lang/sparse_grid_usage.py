# ti.sparse.grid: a struct field on a bitmasked SNode, whose cells activate
# when written; ti.sparse.usage: the fraction of its cells that are active
# (an f32, as Taichi computes it).
import taichi as ti
ti.init(arch=ti.cpu)
g = ti.sparse.grid({'pos': ti.math.vec2, 'mass': ti.f32, 'ids': ti.types.vector(3, ti.i32)}, shape=(10, 10))
print(ti.sparse.usage(g))
g[0, 0].pos = ti.math.vec2(1.0, 2.0)
g[0, 0].mass = 1.0
g[3, 4].ids[2] = 123


@ti.kernel
def spread():
    for i, j in g:  # the active cells
        g[i + 5, j + 1].mass = g[i, j].mass + 1


spread()
print(ti.sparse.usage(g), g[3, 4].ids, g[0, 0].pos, g[5, 1].mass, g[9, 9].mass)
h = ti.sparse.grid({'m': ti.f32}, shape=(4, 4, 4))
h[1, 2, 3].m = 1
print(ti.sparse.usage(h), h.shape)
