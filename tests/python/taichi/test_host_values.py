"""Host objects a kernel names (a numpy array global) compute at compile time
on CPython, as Python-scope values do in Taichi: `n[1]`, `n - 1`,
`ti.ndrange(*(n - 1))`, `ti.static(n.max())` (vm/frontend/lower_static.cpp,
Lowerer::host_operator); iterators (enumerate, zip) under ti.static."""
import numpy as np
import pytest

import taichi as ti


@pytest.fixture(params=["interp", "jit"])
def engine(request):
    ti.init(arch=ti.cpu, engine=request.param)
    return request.param


def test_numpy_shape_constants(engine):
    n = np.array([3, 4, 5])
    cells = ti.field(ti.i32, shape=tuple(n - 1))

    @ti.kernel
    def fill() -> ti.i32:
        for I in ti.grouped(ti.ndrange(*n - 1)):
            cells[I] = (I.x * (n[1] - 1) + I.y) * (n[2] - 1) + I.z
        return n[0] * 100 + ti.static(n.max())

    assert fill() == 305
    np.testing.assert_array_equal(cells.to_numpy().ravel(), np.arange(2 * 3 * 4))


def test_static_iterators(engine):
    @ti.kernel
    def weighted() -> ti.i32:
        s = 0
        for i, j in ti.static(enumerate([0, 3, 5, 6])):
            s += i * j
        for a, b in ti.static(zip((1, 2), (10, 20))):
            s += a * b
        return s

    assert weighted() == 0 + 3 + 10 + 18 + 10 + 40


def test_errors(engine):
    n = np.array([3, 4])

    @ti.kernel
    def runtime_index(i: ti.i32) -> ti.i32:
        return n[i]

    with pytest.raises(Exception, match="compile-time indices") as e:
        runtime_index(1)
    assert "test_host_values.py" in str(e.value)

    @ti.kernel
    def out_of_range() -> ti.i32:
        return n[5]

    with pytest.raises(IndexError, match="out of bounds"):
        out_of_range()
