import taichi as ti

ti.init(arch=ti.cpu)

Object = ti.types.struct(id=ti.i32, pos=ti.math.vec3)
objects = Object.field(shape=3)


@ti.kernel
def place():
    for i in objects:
        objects[i].id.value = 1


place()
