"""What a kernel launch keeps from one launch to the next (issue 16), and what
invalidates it: the layout check (a field or tree added, a field placed
late, ti.root opened again), the program (ti.reset / ti.init), and the one
flag that says a launch needs no Python (a Tape, FwdMode or the kernel
profiler). Also the Kernel object itself, now a C type (KernelBase): its
attributes, weak references and garbage collection. Run by ctest with pytest
and PYTHONPATH=build/python."""
import gc
import weakref

import pytest

import taichi as ti
from taichi import _state


@pytest.fixture(autouse=True)
def fresh():
    ti.init(arch=ti.cpu)
    yield


def test_fields_after_the_first_launch():
    x = ti.field(ti.f32, shape=8)

    @ti.kernel
    def fill(a: ti.f32):
        for i in x:
            x[i] = a * i

    fill(1.0)
    fill(2.0)
    assert x[3] == 6.0
    # a new tree, laid out at the next launch
    y = ti.field(ti.i32, shape=4)

    @ti.kernel
    def count(n: ti.i32) -> ti.i32:
        for i in y:
            y[i] += n
        return y[0] + y[3]

    assert count(2) == 4
    assert count(3) == 10
    # declared but not placed: every launch refuses, until it is placed
    z = ti.field(ti.i32)
    for _ in range(2):
        with pytest.raises(RuntimeError, match="never placed"):
            fill(3.0)
    ti.root.dense(ti.i, 4).place(z)

    @ti.kernel
    def put(v: ti.i32):
        for i in z:
            z[i] = v + i

    put(5)
    fill(3.0)
    assert z[3] == 8 and x[2] == 6.0
    # ti.root looked at after a launch: an empty open tree, then SNodes under it
    r = ti.root
    fill(4.0)
    w = ti.field(ti.f32)
    r.dense(ti.i, 2).place(w)

    @ti.kernel
    def twice():
        for i in w:
            w[i] = x[i] * 2

    twice()
    assert w[1] == 8.0 and x[1] == 4.0


def test_reset_and_init_between_launches():
    @ti.kernel
    def inc(a: ti.i32) -> ti.i32:
        return a + 1

    assert inc(1) == 2
    ti.reset()
    assert inc(2) == 3
    ti.init(arch=ti.cpu)
    x = ti.field(ti.i32, shape=2)

    @ti.kernel
    def put(v: ti.i32):
        x[1] = v

    put(7)
    assert inc(3) == 4 and x[1] == 7


def test_tape_forward_mode_and_profiler_between_launches():
    x = ti.field(ti.f32, shape=4, needs_grad=True)
    loss = ti.field(ti.f32, shape=(), needs_grad=True)

    @ti.kernel
    def square_sum():
        for i in x:
            loss[None] += x[i] * x[i]

    for i in range(4):
        x[i] = i
    square_sum()  # plain: in C
    assert _state.tape is None
    with ti.ad.Tape(loss=loss):  # the flag turns: the launch is recorded
        square_sum()
    assert [x.grad[i] for i in range(4)] == [0.0, 2.0, 4.0, 6.0]
    loss[None] = 0
    square_sum()  # plain again, not recorded
    assert loss[None] == 14.0

    p = ti.field(ti.f32, shape=(), needs_dual=True)
    y = ti.field(ti.f32, shape=(), needs_dual=True)

    @ti.kernel
    def cube():
        y[None] = p[None] * p[None] * p[None]

    p[None] = 2.0
    with ti.ad.FwdMode(loss=y, param=p):
        cube()
    assert y.dual[None] == 12.0
    p[None] = 3.0
    cube()
    assert y[None] == 27.0

    ti.init(arch=ti.cpu, kernel_profiler=True)

    @ti.kernel
    def one() -> ti.i32:
        return 1

    assert one() + one() == 2
    assert ti.profiler.query_kernel_profiler_info("one").counter == 2
    ti.init(arch=ti.cpu)  # profiler off: launches are not counted
    assert one() == 1
    assert ti.profiler.query_kernel_profiler_info("one").counter == 0


def test_kernel_object():
    @ti.kernel
    def add(a: ti.i32, b: ti.i32) -> ti.i32:
        """Adds."""
        return a + b

    assert add.__name__ == "add" and add.__doc__ == "Adds." and add.__wrapped__ is not None
    assert add._core is None
    assert add(1, 2) == 3 and add(b=5, a=1) == 6
    assert add._core is not None
    with pytest.raises(TypeError, match="missing 1 required positional argument"):
        add(1)
    with pytest.raises(TypeError):
        add(1, "x")
    add.note = "kept"
    assert add.__dict__["note"] == "kept"
    # a cycle through the kernel's __dict__ is collected
    @ti.kernel
    def lonely():
        pass

    lonely()
    lonely.me = lonely
    ref = weakref.ref(lonely)
    del lonely
    gc.collect()
    assert ref() is None
