import taichi as ti
ti.init(arch=ti.cpu)
g = ti.Vector([1.0, 2.0, 3.0])

@ti.kernel
def f() -> ti.f32:
    return g[1] + g.z + g.norm_sqr()

print(f())
