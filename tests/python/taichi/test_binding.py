"""The `taichi` package on CPython (python/taichi, python/core): kernels,
fields, templates, data-oriented classes, zero-copy arrays, errors and
object lifetimes across ti.init / ti.reset. Run by ctest with pytest and
PYTHONPATH=build/python."""
import numpy as np
import pytest

import taichi as ti


@pytest.fixture(autouse=True)
def fresh():
    ti.init(arch=ti.cpu)
    yield


def test_kernel_func_and_field():
    n = 8
    x = ti.field(ti.f32, shape=(n, n))
    total = ti.field(ti.i32, shape=())

    @ti.func
    def weight(i: ti.i32, j: ti.i32) -> ti.f32:
        return (i * n + j) / 2

    @ti.kernel
    def fill(scale: ti.f32):
        for i, j in x:
            x[i, j] = weight(i, j) * scale
            if x[i, j] > 10:
                total[None] += 1

    fill(1.5)
    assert total[None] == 50
    assert x[7, 7] == 47.25
    assert [x[0, j] for j in range(3)] == [0.0, 0.75, 1.5]
    x[1, 2] = 3
    assert x.to_numpy()[1, 2] == 3.0


def test_names_from_the_enclosing_function():
    # `dt` is a parameter of the function that defines the kernel: CPython keeps
    # no closure cell for names used only in annotations.
    def make(dt, k):
        @ti.kernel
        def twice(a: dt) -> dt:
            return a * k
        return twice

    assert make(ti.f64, 2)(1.25) == 2.5
    assert make(ti.i32, 3)(7) == 21


def test_templates_by_identity():
    a = ti.field(ti.i32, shape=4)
    b = ti.field(ti.i32, shape=4)

    @ti.kernel
    def fill(f: ti.template(), v: ti.i32):
        for i in f:
            f[i] = v + i

    fill(a, 10)
    fill(b, 20)
    fill(a, 30)
    assert a.to_numpy().tolist() == [30, 31, 32, 33]
    assert b.to_numpy().tolist() == [20, 21, 22, 23]
    assert fill._core.instances == 2


def test_data_oriented_class():
    @ti.data_oriented
    class Sim:
        def __init__(self, n):
            self.x = ti.Vector.field(2, ti.f32, shape=n)
            self.g = 2.0

        @ti.func
        def force(self, i):
            return ti.Vector([0.0, -self.g * i])

        @ti.kernel
        def step(self, dt: ti.f32):
            for i in self.x:
                self.x[i] += self.force(i) * dt

    s = Sim(3)
    s.step(0.5)
    assert s.x[2].to_list() == [0.0, -2.0]
    assert s.x.to_numpy().shape == (3, 2)


def test_numpy_arrays_are_shared_not_copied():
    a = np.zeros(5, dtype=np.float32)

    @ti.kernel
    def bump(arr: ti.types.ndarray(dtype=ti.f32, ndim=1)):
        for i in arr:
            arr[i] += i

    bump(a)
    assert a.tolist() == [0, 1, 2, 3, 4]
    a[0] = 100  # a write through numpy is what the kernel sees next
    bump(a)
    assert a.tolist() == [100, 2, 4, 6, 8]
    v = ti.Vector.ndarray(3, ti.f32, shape=2)

    @ti.kernel
    def setv(arr: ti.types.ndarray()):
        for i in arr:
            arr[i] = ti.Vector([i, 1, 2])

    setv(v)
    assert v.to_numpy().tolist() == [[0, 1, 2], [1, 1, 2]]


def test_vector_matrix_and_tuple_returns():
    @ti.kernel
    def spin(r: ti.types.matrix(2, 2, ti.i32)) -> ti.types.vector(2, ti.i32):
        return r @ ti.Vector([1, 10])

    @ti.kernel
    def swap(a: ti.i32, b: ti.f64) -> (ti.f64, ti.i32):
        return b, a

    assert spin(ti.Matrix([[1, 2], [3, 4]])).to_list() == [21, 43]
    assert swap(3, 0.5) == (0.5, 3)


def test_compile_errors_point_at_the_kernel_line():
    x = ti.field(ti.f32, shape=4)

    @ti.kernel
    def bad():
        for i in x:
            if x[i]:
                x[i] = 1

    with pytest.raises(ti.TaichiTypeError) as e:
        bad()
    msg = str(e.value)
    assert "conditions must be integers" in msg
    assert "test_binding.py:" in msg and "^" in msg and "if x[i]:" in msg


def test_runtime_errors_are_python_exceptions():
    x = ti.field(ti.f32, shape=4)

    @ti.kernel
    def far(i: ti.i32):
        x[i] = 1

    with pytest.raises(IndexError) as e:
        far(4)
    assert "out of bounds" in str(e.value) and "shape (4,)" in str(e.value)
    with pytest.raises(IndexError):
        x[4] = 1
    with pytest.raises(TypeError):
        far(1.5)  # a float for an integer parameter

    @ti.func
    def helper():
        return 1

    with pytest.raises(ti.TaichiSyntaxError):
        helper()


def test_objects_across_reset():
    x = ti.field(ti.i32, shape=2)

    @ti.kernel
    def put(v: ti.i32):
        x[0] = v

    put(5)
    ti.reset()
    with pytest.raises(RuntimeError):
        x[0]
    ti.init(arch=ti.cpu)
    y = ti.field(ti.i32, shape=2)

    @ti.kernel
    def put2(v: ti.i32):
        y[1] = v

    put2(7)
    assert y[1] == 7
    with pytest.raises(RuntimeError):
        put(1)  # its field belongs to the discarded program


def test_kernel_print_interleaves_with_python(capfd):
    @ti.kernel
    def hello(v: ti.i32):
        print("kernel", v)

    print("before")
    hello(3)
    print("after")
    assert capfd.readouterr().out == "before\nkernel 3\nafter\n"


def test_struct_fields_and_host_values():
    pt = ti.types.struct(p=ti.math.vec2, m=ti.f32)
    s = pt.field(shape=3)

    @ti.kernel
    def init():
        for i in s:
            s[i].p = ti.Vector([i, 2 * i])
            s[i].m = 0.5 * i

    init()
    assert s.m.to_numpy().tolist() == [0, 0.5, 1]
    assert s[2].p.to_list() == [2.0, 4.0]
    v = ti.Vector([1.0, 2.0, 2.0])
    assert v.norm() == 3.0 and (v * 2).to_list() == [2.0, 4.0, 4.0]


def test_more_errors_and_options():
    @ti.kernel
    def broken() -> ti.i32:
        return undefined_name + 1  # noqa: F821

    with pytest.raises(NameError) as e:
        broken()
    assert "test_binding.py:%d" % (broken.fn.__code__.co_firstlineno + 2) in str(e.value)

    @ti.kernel
    def swap(a: ti.i32, b: ti.f64) -> (ti.f64, ti.i32):
        return b, a

    with pytest.raises(TypeError, match="missing 1 required positional argument"):
        swap(1)
    c = ti.field(ti.i64, shape=(2, 3))
    with pytest.raises(ValueError, match=r"shape \(2, 3\), got shape \(3, 2\)"):
        c.from_numpy(np.zeros((3, 2)))
    a64 = np.zeros((2, 3), dtype=np.float32)

    @ti.kernel
    def add_one(a: ti.types.ndarray(dtype=ti.f64, ndim=2)):
        for i, j in a:
            a[i, j] += 1

    with pytest.raises(TypeError, match="expects elements of f64, got f32"):
        add_one(a64)
    with pytest.raises(ValueError, match="Non contiguous numpy arrays are not supported"):
        add_one(np.zeros((4, 6))[::2, ::2])

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

    with pytest.raises(IndexError, match="c2"):
        oob(10)


def test_kernel_profiler(capsys):
    ti.init(arch=ti.cpu, kernel_profiler=True)
    x = ti.field(ti.f32, shape=1000)

    @ti.kernel
    def fill(v: ti.f32):
        for i in x:
            x[i] = v

    for k in range(3):
        fill(k)
    q = ti.profiler.query_kernel_profiler_info("fill")
    assert q.counter == 3 and 0 < q.min <= q.avg <= q.max
    ti.profiler.print_kernel_profiler_info()
    out = capsys.readouterr().out
    assert "Kernel Profiler" in out and "3x" in out and "fill" in out
    ti.init(arch=ti.cpu)
    assert ti.profiler.query_kernel_profiler_info("fill").counter == 0


def test_dlpack_views_share_field_memory():
    x = ti.field(ti.f32, shape=(3, 4))
    v = ti.Vector.field(3, ti.i32, shape=5)
    cm = ti.field(ti.f64, shape=(2, 3), order="ji")  # column-major: a strided view

    @ti.kernel
    def bump():
        for i, j in x:
            x[i, j] += i * 10 + j
        for i in v:
            v[i] += ti.Vector([i, 2 * i, 3 * i])
        for i, j in cm:
            cm[i, j] = i * 10 + j

    a, b, c = np.from_dlpack(x), np.from_dlpack(v), np.from_dlpack(cm)
    x[1, 1] = 100
    bump()  # the views see what kernels write: no copies
    assert a[1, 1] == 111 and a.shape == (3, 4)
    assert b.shape == (5, 3) and b[4].tolist() == [4, 8, 12]
    assert c.tolist() == [[0, 1, 2], [10, 11, 12]] and c.strides == (8, 16)
    ti.reset()
    assert a[0, 3] == 3  # the memory outlives the program the view came from
    ti.init(arch=ti.cpu)
    s = ti.field(ti.f32)
    ti.root.pointer(ti.i, 4).dense(ti.i, 4).place(s)
    with pytest.raises(ValueError, match="use to_numpy"):
        np.from_dlpack(s)


def test_math_funcs_randn_and_sparse_reset():
    import taichi.math as tm
    from taichi.math import cmul, cexp

    @ti.kernel
    def k() -> ti.types.vector(4, ti.f32):
        z = cmul(tm.vec2(1, 2), tm.vec2(3, 4))
        e = cexp(tm.vec2(0, 3.14159265))
        r = tm.refract(tm.vec3(1, 1, 1), tm.vec3(0, 1, 0), 2.0)
        return ti.Vector([z[0], z[1], e[0], tm.log2(8.0) + r[1]])

    assert np.allclose(k().to_numpy(), [-5, 10, -1, 2], atol=1e-5)
    n = 100000
    x = ti.field(ti.f64, shape=n)
    s = ti.field(ti.f32)
    ti.root.pointer(ti.i, 8).dense(ti.i, 8).place(s)

    @ti.kernel
    def draw():
        for i in x:
            x[i] = ti.randn(ti.f64)
        s[3] = 1

    draw()
    a = x.to_numpy()
    assert abs(a.mean()) < 0.02 and abs(a.std() - 1) < 0.02
    assert s[3] == 1
    ti.deactivate_all_snodes()
    assert s[3] == 0


def test_fields_builder():
    x = ti.field(ti.f32)
    fb = ti.FieldsBuilder()
    fb.dense(ti.i, 4).place(x)
    tree = fb.finalize()

    @ti.kernel
    def put():
        for i in range(4):
            x[i] = i * 3

    put()
    assert x.to_numpy().tolist() == [0, 3, 6, 9]
    y = ti.field(ti.i32)  # a second builder: its own tree, zero-initialized
    fb2 = ti.FieldsBuilder()
    fb2.pointer(ti.i, 2).dense(ti.i, 2).place(y)
    fb2.finalize()
    assert y[3] == 0
    y[3] = 7
    assert y[3] == 7 and x[3] == 9
    with pytest.raises(ti.InvalidOperationError):
        fb2.dense(ti.i, 2)
    tree.destroy()
    with pytest.raises(RuntimeError, match="destroyed"):
        x[0]


def test_api_misuse_errors():
    with pytest.raises(ValueError, match="must name each of the field's 2 axes once"):
        ti.field(ti.f32, shape=(3, 4), order="ii")
    with pytest.raises(ValueError, match="needs a shape"):
        ti.field(ti.f32, order="i")
    with pytest.raises(TypeError, match="floating-point"):
        ti.field(ti.i32, shape=4, needs_grad=True)
    with pytest.raises(TypeError, match="floating-point"):
        ti.Vector.field(3, ti.i32, shape=4, needs_dual=True)
    with pytest.raises(TypeError, match="integers"):
        list(ti.ndrange(0.5, 2))
    with pytest.raises(ValueError, match="1 to 4096 components, got 0"):
        ti.Vector.field(0, ti.f32, shape=4)
    with pytest.raises(ValueError, match="2 axes but 3 sizes"):
        ti.root.dense(ti.ij, (1, 2, 3))
    ns = {"ti": ti}
    exec("def made_by_exec():\n    pass\n", ns)  # no source file for inspect to read
    k = ti.kernel(ns["made_by_exec"])
    with pytest.raises(ti.TaichiSyntaxError, match="cannot find the source"):
        k()


def test_field_offsets():
    x = ti.field(ti.f32, shape=(4, 4), offset=(-2, -2))
    v = ti.Vector.field(2, ti.i32, shape=3, offset=5)

    @ti.kernel
    def k():
        for i, j in x:  # a struct-for yields offset indices
            x[i, j] = i * 10 + j
        for i in v:
            v[i] = ti.Vector([i, -i])

    k()
    assert x[-2, -2] == -22 and x[1, 1] == 11 and v[7].to_list() == [7, -7]
    assert x.to_numpy()[0, 0] == -22  # to_numpy ignores offsets, as in Taichi
    with pytest.raises(IndexError, match="valid indices are -2 to 1"):
        x[2, 0]
    with pytest.raises(Exception, match="offset"):
        ti.field(ti.f32, offset=(1,))
