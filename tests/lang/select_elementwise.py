import taichi as ti

ti.init(arch=ti.cpu)
m = ti.Matrix.field(2, 2, ti.i32, shape=())
c = ti.Matrix.field(2, 2, ti.i32, shape=())


@ti.kernel
def pick(k: ti.i32) -> ti.types.vector(3, ti.f32):
    v = ti.Vector([1.5, -2.0, 3.0])
    # a scalar condition picks a whole vector; a vector condition picks per element
    whole = ti.select(k > 0, v, ti.Vector([0.0, 0.0, 0.0]))
    per = ti.select(v > 0, v, 0)
    return whole + per


@ti.kernel
def mats():
    c[None] = ti.select(m[None], ti.Matrix([[1, 2], [3, 4]]), -1)


print(pick(1))
print(pick(0))
m[None] = ti.Matrix([[0, 1], [1, 0]])
mats()
print(c[None])
