# The kiln Python module's own behaviour: vector/matrix/tuple arguments and
# returns, zero-copy numpy arrays, fields of every kind, and errors raised as
# Python exceptions carrying Kiln's message (kind, file:line:col, caret).
# Run by ctest as `python3 test_module.py` with PYTHONPATH at build/python.
import sys

import numpy as np
import kiln as ti

ti.init(arch=ti.cpu)
vec3 = ti.math.vec3
scale = 2
m = ti.Matrix.field(2, 2, ti.f64, shape=3)
c = ti.field(ti.i64, shape=(2, 3))


@ti.func
def twice(x):
    return x * scale


@ti.kernel
def dot(u: vec3, v: ti.types.vector(3, ti.f32)) -> ti.f32:
    return twice(u.dot(v))


@ti.kernel
def swap(a: ti.i32, b: ti.f64) -> (ti.f64, ti.i32):
    return b, a


@ti.kernel
def spin(r: ti.types.matrix(2, 2, ti.i32)) -> ti.types.vector(2, ti.i32):
    return r @ ti.Vector([1, 10])


@ti.kernel
def add_one(a: ti.types.ndarray(dtype=ti.f64, ndim=2)):
    for i, j in a:
        a[i, j] += 1


@ti.kernel
def fill_fields():
    for i in m:
        m[i] = ti.Matrix([[i, 1], [2, i * 0.5]])
    for i, j in c:
        c[i, j] = i * 10 + j


@ti.kernel
def checked(i: ti.i32) -> ti.i64:
    return c[i, 0]


def expect(exc, needle, f, *args):
    try:
        f(*args)
    except exc as e:
        assert needle in str(e), "message %r lacks %r" % (str(e), needle)
        return
    raise AssertionError("%s(%s) did not raise %s" % (f.__name__, args, exc.__name__))


assert dot([1, 2, 3], (4, 5, 6)) == 64.0
assert swap(7, 2.5) == (2.5, 7)
assert spin([[1, 2], [3, 4]]) == [21, 43]

a = np.zeros((2, 3))
add_one(a)
add_one(a)
assert (a == 2).all(), a  # written in place: no copy

fill_fields()
assert m[2] == [[2.0, 1.0], [2.0, 1.0]]
mm = m.to_numpy()
assert mm.shape == (3, 2, 2) and mm.dtype == np.float64 and mm[1, 1, 1] == 0.5
assert c.to_numpy().tolist() == [[0, 1, 2], [10, 11, 12]]
c.from_numpy(np.arange(6).reshape(2, 3))
assert c[1, 2] == 5 and c.shape == (2, 3) and c.dtype == ti.i64
c.fill(4)
assert c[0, 0] == 4
m[0] = [[9, 8], [7, 6]]
assert m.to_numpy()[0].tolist() == [[9, 8], [7, 6]]

# errors: Python exception classes with Kiln's messages
expect(TypeError, "expects elements of f64, got f32", add_one, np.zeros((2, 3), dtype=np.float32))
expect(ValueError, "must be C-contiguous", add_one, np.zeros((4, 6))[::2, ::2])
expect(ValueError, "has shape (3,), got a kiln_vector of shape (2,)", dot, [1, 2], [1, 2, 3])
expect(TypeError, "takes 2 arguments, got 1", swap, 1)
expect(ValueError, "the field has shape (2, 3), the array (3, 2)", c.from_numpy, np.zeros((3, 2)))
expect(IndexError, "out of bounds", c.__getitem__, (5, 0))


@ti.kernel
def broken() -> ti.i32:
    return undefined_name + 1


expect(NameError, "test_module.py:%d" % (broken._fn.__code__.co_firstlineno + 2), broken)



@ti.kernel
def scaled_copy(src: ti.template(), dst: ti.template(), k: ti.template()):
    for i, j in src:
        dst[i, j] = src[i, j] * k


d = ti.field(ti.i64, shape=(2, 3))
scaled_copy(c, d, 3)
assert d.to_numpy().tolist() == [[12] * 3] * 2
expect(TypeError, "must be a field or a number", scaled_copy, c, d, "x")

ti.init(default_ip=ti.i64)


@ti.kernel
def big(a: int) -> int:
    return a * 2


assert big(1 << 40) == 1 << 41

ti.init(debug=True)
c2 = ti.field(ti.i32, shape=4)


@ti.kernel
def oob(i: ti.i32) -> ti.i32:
    return c2[i]


expect(IndexError, "c2", oob, 10)
caps = ti.capabilities()
assert "interp" in caps["engines"] and "f32" in caps["engines"]["jit"], caps
assert caps["cuda_devices"] >= 0 and caps["vulkan_devices"] >= caps["vulkan_cpu_devices"]
print("kiln python module: all checks passed")
