import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run() -> ti.f32:
    a = ti.Vector([1.0, 2.0, 2.0])
    b = ti.Vector([0.0, 1.0, 0.0])
    c = a.cross(b)
    print(a.dot(b), a.norm(), a.norm_sqr())
    print(c)
    n = ti.Vector([3.0, 4.0]).normalized()
    print(n)
    return ti.Vector([1.0, 0.0]).cross(ti.Vector([0.0, 1.0]))

print(run())
