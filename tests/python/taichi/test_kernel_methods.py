"""Kernel methods of @ti.data_oriented classes and template arguments on the
launch's fast way (issue 16): a kernel keeps its last few instances with the
template objects each was called with, and a call with those very objects
launches without binding its arguments; a kernel method is a _BoundKernel
made in C (Kernel.__get__) whose call takes the same way. What must hold:
each object its own instance, identity-equal values one instance, the
@ti.data_oriented check, Tape / FwdMode / the profiler, ti.reset, the bound
object's attributes and garbage collection (an object whose kernels ran is collected,
its instances with it). Run by ctest with pytest and
PYTHONPATH=build/python."""
import gc
import weakref

import pytest

import taichi as ti
from taichi._kernel import _BoundKernel


@pytest.fixture(autouse=True)
def fresh():
    ti.init(arch=ti.cpu)
    yield


@ti.data_oriented
class Counter:
    def __init__(self, n, step):
        self.x = ti.field(ti.i32, shape=n)
        self.step = step  # a compile-time constant of this object's instance

    @ti.kernel
    def bump(self, by: ti.i32):
        for i in self.x:
            self.x[i] += by + self.step

    @ti.kernel
    def total(self) -> ti.i32:
        s = 0
        for i in self.x:
            s += self.x[i]
        return s


def test_objects_alternating_each_their_own_instance():
    a, b, c = Counter(4, 1), Counter(2, 10), Counter(3, 100)
    for _ in range(3):  # alternating: every launch sees its own object's fields
        a.bump(1)
        b.bump(2)
        c.bump(0)
    assert a.total() == 4 * 3 * 2 and b.total() == 2 * 3 * 12 and c.total() == 3 * 3 * 100
    assert Counter.bump._core.instances == 3
    # more objects than the kept instances: still each its own
    more = [Counter(1, k) for k in range(20)]
    for _ in range(2):
        for o in more:
            o.bump(1)
    assert [o.total() for o in more] == [2 * (1 + k) for k in range(20)]
    # a wrong argument on the fast way: the general path's error
    with pytest.raises(TypeError):
        a.bump("x")
    with pytest.raises(TypeError, match="takes 2 positional arguments"):
        a.bump(1, 2)
    a.bump(by=1)  # keywords: the general path
    assert a.total() == 4 * 3 * 2 + 4 * 2


def test_template_arguments_by_identity():
    x = ti.field(ti.f32, shape=3)
    y = ti.field(ti.f32, shape=3)

    @ti.kernel
    def fill(f: ti.template(), v: ti.f32, k: ti.template()):
        for i in f:
            f[i] = v + k

    for _ in range(3):
        fill(x, 1.0, 1000)
        fill(y, 1.0, 2000)
    assert x[0] == 1001.0 and y[2] == 2001.0
    assert fill._core.instances == 2
    # an equal value that is another object (ints past CPython's small ones): the same instance
    k = int("1000")
    assert k == 1000 and k is not 1000
    for _ in range(2):
        fill(x, 2.0, k)
    assert x[1] == 1002.0 and fill._core.instances == 2
    for _ in range(2):
        fill(x, 1.0, 2.5)
    assert x[0] == 3.5 and fill._core.instances == 3
    fill(y, 3.0, 2000)
    assert y[1] == 2003.0 and x[2] == 3.5


def test_class_not_data_oriented():
    class Plain:
        def __init__(self):
            self.x = ti.field(ti.i32, shape=2)

        @ti.kernel
        def k(self):
            for i in self.x:
                self.x[i] = 1

    p = Plain()
    for _ in range(2):
        with pytest.raises(ti.TaichiSyntaxError, match="decorate class Plain"):
            p.k()


def test_bound_kernel_object():
    c = Counter(2, 0)
    m = c.bump
    assert isinstance(m, _BoundKernel) and m.k is Counter.__dict__["bump"] and m.obj is c
    assert Counter.bump is Counter.__dict__["bump"]  # on the class: the Kernel itself
    with pytest.raises(AttributeError):
        m.k = None
    m(3)
    m(3)
    assert c.total() == 12
    assert _BoundKernel(Counter.__dict__["total"], c)() == 12
    with pytest.raises(TypeError, match="a bound kernel binds a Kernel"):
        _BoundKernel(len, c)
    # a cycle through the object (a bound kernel kept on it) is collected
    d = Counter(1, 0)
    d.keep = d.bump
    ref = weakref.ref(d)
    del d
    gc.collect()
    assert ref() is None


def test_autodiff_and_profiler_through_methods():
    @ti.data_oriented
    class Sq:
        def __init__(self):
            self.x = ti.field(ti.f32, shape=3, needs_grad=True)
            self.loss = ti.field(ti.f32, shape=(), needs_grad=True)

        @ti.kernel
        def run(self):
            for i in self.x:
                self.loss[None] += self.x[i] * self.x[i]

    s = Sq()
    for i in range(3):
        s.x[i] = i
    s.run()
    s.run()  # the fast way
    with ti.ad.Tape(loss=s.loss):
        s.run()
    assert [s.x.grad[i] for i in range(3)] == [0.0, 2.0, 4.0]
    s.loss[None] = 0
    s.run()
    assert s.loss[None] == 5.0

    ti.init(arch=ti.cpu, kernel_profiler=True)
    c = Counter(2, 0)
    c.bump(1)
    c.bump(1)
    assert ti.profiler.query_kernel_profiler_info("bump").counter == 2
    ti.init(arch=ti.cpu)
    c2 = Counter(2, 0)
    c2.bump(1)
    c2.bump(1)
    assert ti.profiler.query_kernel_profiler_info("bump").counter == 0
    assert c2.total() == 4


def test_reset_between_method_launches():
    c = Counter(2, 1)
    c.bump(1)
    c.bump(1)
    assert c.total() == 8
    ti.reset()
    c = Counter(2, 1)  # a fresh program: new fields, a new instance
    c.bump(2)
    c.bump(2)
    assert c.total() == 12


def test_objects_collected_after_their_launches():
    # As in Taichi (its template mapper keys such objects by weak reference):
    # a kernel's instances do not keep their template objects alive. Each
    # object that goes takes its instances with it; the others stay fast.
    keep = Counter(2, 5)
    keep.bump(1)
    refs = []
    for k in range(6):
        c = Counter(3, k)
        c.bump(1)
        c.bump(2)  # the fast way, with c in the kept instances
        assert c.total() == 3 * (3 + 2 * k)
        refs.append(weakref.ref(c))
        del c
    gc.collect()
    assert [r() for r in refs] == [None] * 6
    assert Counter.bump._core.instances == 1 and Counter.total._core.instances == 0
    keep.bump(1)
    assert keep.total() == 2 * 12

    # a new object (perhaps at a freed one's address) gets its own instance
    fresh_obj = Counter(1, 100)
    fresh_obj.bump(0)
    fresh_obj.bump(0)
    assert fresh_obj.total() == 200 and Counter.bump._core.instances == 2

    # a field passed as ti.template() is held weakly too
    g = ti.field(ti.i32, shape=2)
    fill_i32(g, 3)
    fill_i32(g, 4)
    assert g[1] == 4 and fill_i32._core.instances == 1
    r = weakref.ref(g)
    del g
    gc.collect()
    assert r() is None and fill_i32._core.instances == 0


# (At module level: a kernel defined in a function reads that function's
# locals through a snapshot of its frame, which holds them while it lives.)
@ti.kernel
def fill_i32(f: ti.template(), v: ti.i32):
    for i in f:
        f[i] = v


@ti.kernel
def both(p: ti.template()):
    p[0].x[0] += 1
    p[1].x[0] += 2


def test_objects_collected_with_a_tuple_and_ti_reset():
    # a tuple of objects (tuples take no weak references) is held, and so its
    # objects; ti.reset drops every instance
    a, b = Counter(1, 0), Counter(1, 0)
    pair = (a, b)
    both(pair)
    both(pair)
    assert a.total() == 2 and b.total() == 4
    ra = weakref.ref(a)
    del a, b, pair
    gc.collect()
    assert ra() is not None and both._core.instances == 1
    ti.reset()
    ti.init(arch=ti.cpu)
    both((Counter(1, 0), Counter(1, 0)))
    gc.collect()
    assert ra() is None and both._core.instances == 1


@ti.kernel
def axpy(f: ti.template(), a: ti.f32, b: ti.i32):
    for i in f:
        f[i] = f[i] * a + b


@ti.kernel
def scale(f: ti.template(), by: ti.f32 = 1.0, add: ti.i32 = 5):
    for i in f:
        f[i] = f[i] * by + add


def test_keyword_calls_on_the_fast_way():
    # keywords naming the parameters after the positional ones are the
    # positional call they mean (the kept instance runs them); anything else
    # is bound by Python's rules on the general path, with its errors
    f = ti.field(ti.f32, shape=2)
    g = ti.field(ti.f32, shape=2)
    axpy(f, 1.0, 1)
    for _ in range(3):
        axpy(f, b=1, a=2.0)
        axpy(f=g, a=1.0, b=2)
        axpy(g, 1.0, b=3)
    assert f[0] == 15.0 and g[1] == 15.0 and axpy._core.instances == 2
    with pytest.raises(TypeError, match="unexpected keyword argument 'c'"):
        axpy(f, a=1.0, c=2)
    with pytest.raises(TypeError, match="multiple values for argument 'f'"):
        axpy(f, 1.0, f=g)
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'b'"):
        axpy(f, a=1.0)
    with pytest.raises(TypeError):
        axpy(f, a="x", b=1)
    assert f[0] == 15.0
    # defaults fill what the call leaves out
    h = ti.field(ti.f32, shape=2)
    for _ in range(3):
        scale(h)
        scale(h, 2.0)
        scale(h, add=1)
        scale(add=2, f=h)
    v = 0.0
    for _ in range(3):
        v = (((v * 1 + 5) * 2 + 5) * 1 + 1) * 1 + 2
    assert h[0] == v == 126.0 and scale._core.instances == 1
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'f'"):
        scale()
    c = Counter(2, 1)
    c.bump(by=1)
    c.bump(by=2)
    c.bump(2)
    assert c.total() == 2 * (2 + 3 + 3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'step'"):
        c.bump(step=1)
