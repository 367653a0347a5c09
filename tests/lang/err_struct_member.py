import taichi as ti
ti.init(arch=ti.cpu)

@ti.dataclass
class Body:
    mass: ti.f32
    pos: ti.types.vector(2, ti.f32)

@ti.kernel
def run() -> ti.f32:
    b = Body(mass=2.0)
    return b.velocity[0]

print(run())
