import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run():
    v = ti.Vector([3.0, 4.0])
    print(ti.math.length(v), ti.math.normalize(v), ti.math.dot(v, v))
    print(ti.math.clamp(7, 0, 5), ti.math.clamp(ti.Vector([-1.0, 0.5, 2.0]), 0.0, 1.0))
    print(ti.math.mix(0.0, 10.0, 0.25), ti.math.fract(2.75), ti.math.sign(-3.0), ti.math.step(1.0, 0.5))
    print(ti.math.smoothstep(0.0, 1.0, 0.5), ti.math.distance(v, ti.Vector([0.0, 0.0])))
    print(ti.math.reflect(ti.Vector([1.0, -1.0]), ti.Vector([0.0, 1.0])), ti.math.sqrt(16.0))
    print(ti.math.cross(ti.Vector([1.0, 0.0, 0.0]), ti.Vector([0.0, 1.0, 0.0])))

run()
print(ti.math.clamp(7, 0, 5), ti.math.mix(0.0, 10.0, 0.25), ti.math.length(ti.Vector([3.0, 4.0])))
print(ti.math.smoothstep(0.0, 1.0, 0.5), ti.math.pi)
