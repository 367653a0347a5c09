import taichi as ti

ti.init(arch=ti.cpu)

Transform = ti.types.struct(position=ti.math.vec3, scale=ti.f32, matrix=ti.math.mat2)
Object = ti.types.struct(id=ti.i32, transform=Transform)
objects = Object.field(shape=3)


@ti.kernel
def place():
    for i in objects:
        # members of a struct member of a struct field, as Taichi's cornell_box sets them
        objects[i].transform.position = [i, 2 * i, 3 * i]
        objects[i].transform.scale = 0.5 * i
        objects[i].transform.matrix = ti.Matrix([[1, i], [0, 1]])
        objects[i].id = 10 + i


place()
for i in range(3):
    t = objects[i].transform
    print(objects[i].id, t.position, t.scale, t.matrix)
