"""ti.graph (python/taichi/graph.py): a graph of kernel launches over named
arguments replays them in order, computing what the same launches made one by
one compute (Taichi's mpm88_graph and stable_fluid_graph examples); its
placeholders are checked against the kernels when built and the values given
to run() against the placeholders."""
import numpy as np
import pytest

import taichi as ti


@pytest.fixture(autouse=True)
def cpu():
    ti.init(arch=ti.cpu)


@ti.kernel
def scale(a: ti.types.ndarray(dtype=ti.math.vec2, ndim=1), k: ti.f32):
    for i in a:
        a[i] = a[i] * k


@ti.kernel
def add_to(a: ti.types.ndarray(dtype=ti.math.vec2, ndim=1), total: ti.types.ndarray(dtype=ti.f32, ndim=0)):
    for i in a:
        total[None] += a[i].x + a[i].y


def _args():
    a = ti.graph.Arg(ti.graph.ArgKind.NDARRAY, "a", dtype=ti.math.vec2, ndim=1)
    k = ti.graph.Arg(ti.graph.ArgKind.SCALAR, "k", ti.f32)
    total = ti.graph.Arg(ti.graph.ArgKind.NDARRAY, "total", ti.f32, ndim=0)
    return a, k, total


def test_sequential_appended_twice_runs_like_the_launches():
    a, k, total = _args()
    b = ti.graph.GraphBuilder()
    step = b.create_sequential()
    step.dispatch(scale, a, k)
    step.dispatch(add_to, a, total)
    b.append(step)
    b.append(step)
    g = b.compile()
    arr = ti.Vector.ndarray(2, ti.f32, shape=3)
    arr.from_numpy(np.array([[1, 2], [3, 4], [5, 6]], np.float32))
    tot = ti.ndarray(ti.f32, shape=())
    g.run({"a": arr, "k": 2.0, "total": tot})
    # scale by 2 (sum 42), then by 2 again (sum 84)
    assert tot[None] == 126.0
    assert arr.to_numpy().tolist() == [[4, 8], [12, 16], [20, 24]]


def test_dispatch_with_constants_and_a_data_oriented_kernel():
    @ti.data_oriented
    class Adder:
        @ti.kernel
        def add(self, a: ti.types.ndarray(dtype=ti.math.vec2, ndim=1), v: ti.f32):
            for i in a:
                a[i] += v

    a, _, _ = _args()
    b = ti.graph.GraphBuilder()
    b.dispatch(Adder().add, a, 0.5)
    arr = ti.Vector.ndarray(2, ti.f32, shape=2)
    b.compile().run({"a": arr})
    assert arr.to_numpy().tolist() == [[0.5, 0.5], [0.5, 0.5]]


def test_placeholders_checked_against_the_kernel():
    b = ti.graph.GraphBuilder()
    a1 = ti.graph.Arg(ti.graph.ArgKind.NDARRAY, "a", dtype=ti.math.vec2, ndim=2)
    with pytest.raises(ti.TaichiCompilationError, match="doesn't match kernel's annotated ndim=1"):
        b.dispatch(scale, a1, 1.0)
    a3 = ti.graph.Arg(ti.graph.ArgKind.NDARRAY, "a", dtype=ti.math.vec3, ndim=1)
    with pytest.raises(ti.TaichiCompilationError, match="doesn't match kernel's annotated dtype"):
        b.dispatch(scale, a3, 1.0)
    ki = ti.graph.Arg(ti.graph.ArgKind.SCALAR, "k", ti.i32)
    a, _, _ = _args()
    with pytest.raises(ti.TaichiCompilationError, match="graph argument 'k' has dtype i32, which doesn't match"):
        b.dispatch(scale, a, ki)
    with pytest.raises(ti.TaichiCompilationError, match="kernel 'scale' takes 2 arguments, the graph gives it 1"):
        b.dispatch(scale, a)


def test_run_checks_its_values():
    a, k, total = _args()
    b = ti.graph.GraphBuilder()
    b.dispatch(scale, a, k)
    g = b.compile()
    arr = ti.Vector.ndarray(2, ti.f32, shape=2)
    with pytest.raises(RuntimeError, match="argument 'k' is not given"):
        g.run({"a": arr})
    with pytest.raises(RuntimeError, match=r"but got an ndarray with dtype=i32\[2\], ndim=1"):
        g.run({"a": ti.Vector.ndarray(2, ti.i32, shape=2), "k": 1.0})
    with pytest.raises(RuntimeError, match="argument 'k' must be a Python int or float, got str"):
        g.run({"a": arr, "k": "1"})


def test_arg_errors():
    with pytest.raises(RuntimeError, match="tag must be a ti.graph.ArgKind variant"):
        ti.graph.Arg("ndarray", "a", ti.f32)
    with pytest.raises(RuntimeError, match=r"Invalid argument: shape"):
        ti.graph.Arg(ti.graph.ArgKind.NDARRAY, "a", ti.f32, ndim=1, shape=(2,))
    with pytest.raises(RuntimeError, match="must specify a scalar type"):
        ti.graph.Arg(ti.graph.ArgKind.SCALAR, "s", ti.math.vec2)
    b = ti.graph.GraphBuilder()
    b.dispatch(scale, ti.graph.Arg(ti.graph.ArgKind.NDARRAY, "x", ti.math.vec2, ndim=1), 1.0)
    b.dispatch(add_to, ti.graph.Arg(ti.graph.ArgKind.NDARRAY, "x", ti.math.vec2, ndim=1),
               ti.graph.Arg(ti.graph.ArgKind.NDARRAY, "x", ti.f32, ndim=0))
    with pytest.raises(RuntimeError, match="two different graph arguments are named 'x'"):
        b.compile()
    with pytest.raises(RuntimeError, match="takes what create_sequential\\(\\) made"):
        b.append(scale)
