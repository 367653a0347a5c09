import taichi as ti
ti.init(arch=ti.cpu)
vec2 = ti.types.vector(2, ti.f32)

@ti.func
def reflect(d: vec2, n: vec2) -> vec2:
    return d - 2 * d.dot(n) * n

@ti.kernel
def run():
    r = reflect(ti.Vector([1.0, -1.0]), ti.Vector([0.0, 1.0]))
    print(r)

run()
