# An augmented assignment to a swizzle of a vector field element names only
# the element's components: `.z` of a 2-vector field is a TypeError at the
# target, with the field and its size (the same check as a swizzle store).
import taichi as ti

ti.init(arch=ti.cpu)
v = ti.Vector.field(2, ti.f32, shape=4)


@ti.kernel
def ok():
    for i in v:
        v[i].yx += ti.math.vec2(1, 2)


@ti.kernel
def bad():
    for i in v:
        v[i].xz += 1.0


ok()
print(v[3])
bad()
print("not reached")
