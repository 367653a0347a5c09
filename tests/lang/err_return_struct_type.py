# As in Taichi: a kernel returns a struct of its annotated type itself (a
# struct of other member types is an error, not converted).
import taichi as ti
ti.init(arch=ti.cpu)
sphere = ti.types.struct(center=ti.math.vec3, radius=float)
sphere_i = ti.types.struct(center=ti.math.vec3, radius=int)


@ti.kernel
def good() -> sphere:
    return sphere(center=ti.math.vec3([1, 2, 3]), radius=2)


@ti.kernel
def bad() -> sphere:
    return sphere_i(center=ti.math.vec3([1, 2, 3]), radius=2)


print(good())
print(bad())
