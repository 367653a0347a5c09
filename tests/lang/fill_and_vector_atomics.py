# x.fill(v) inside kernels (scalar, vector and struct fields, a vector local, a
# field element) and ti.atomic_min/max/add on an element of a vector field.
import taichi as ti

ti.init(arch=ti.cpu)
a = ti.field(ti.i32, shape=(2, 3))
v = ti.Vector.field(2, ti.f32, shape=3)
s = ti.Struct.field({"m": ti.f32, "p": ti.types.vector(2, ti.i32)}, shape=2)
m = ti.Matrix.field(2, 2, ti.i32, shape=2)


@ti.kernel
def fills(k: ti.i32):
    a.fill(k)
    v.fill(ti.Vector([1.5, 2.5]))
    s.fill(k + 1)


@ti.kernel
def element_ops() -> ti.f32:
    w = ti.Vector([0.0, 0.0, 0.0])
    w.fill(4.0)
    v[1].fill(9.0)
    m[0].fill(5)
    old = ti.atomic_min(m[0], ti.Matrix([[1, 7], [3, 9]]))
    ti.atomic_max(m[1], 2)
    ti.atomic_add(m[1], ti.Matrix([[1, 2], [3, 4]]))
    return w.sum() + old.sum()


fills(7)
print(a.to_numpy().tolist())
print(v.to_numpy().tolist())
print(s.m.to_numpy().tolist(), s.p.to_numpy().tolist())
print(element_ops())
print(v.to_numpy().tolist())
print(m.to_numpy().tolist())
