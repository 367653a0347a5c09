import taichi as ti
ti.init(arch=ti.cpu)


@ti.kernel
def make() -> ti.types.vector(70000, ti.i32):
    return ti.Vector([0])


make()
