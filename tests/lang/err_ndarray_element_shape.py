# element_shape() of an ndarray argument takes no arguments; a ti.func whose
# ti.static branches leave a case unhandled reaches its ti.static_assert.
import taichi as ti

ti.init(arch=ti.cpu)


@ti.kernel
def with_an_argument(a: ti.types.ndarray(ndim=1)) -> ti.i32:
    return len(ti.static(a.element_shape(0)))


@ti.func
def scalar_only(qf: ti.template()):
    if ti.static(qf.element_shape() == []):
        return qf[0] * 2.0
    ti.static_assert(qf.element_shape() == [], "scalar_only takes a scalar ndarray")
    return 0.0


@ti.kernel
def a_vector(a: ti.types.ndarray(ndim=1)) -> ti.f32:
    return scalar_only(a)


try:
    with_an_argument(ti.ndarray(ti.f32, shape=4))
except TypeError as e:
    print("TypeError:", str(e).splitlines()[0])
print(a_vector(ti.ndarray(ti.f32, shape=4)))
a_vector(ti.Vector.ndarray(3, ti.f32, shape=4))
