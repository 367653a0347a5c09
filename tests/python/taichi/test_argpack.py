"""ti.types.argpack (python/taichi/_argpack.py, python/core/kernel.cpp,
vm/frontend/lower_kernel.cpp): kernel parameters grouping scalars, vectors,
structs, ndarrays (by reference) and other packs; and their usage errors."""
import numpy as np
import pytest

import taichi as ti


@pytest.fixture(params=["interp", "jit"])
def engine(request):
    ti.init(arch=ti.cpu, engine=request.param)
    return request.param


def test_scalars_vectors_structs(engine):
    st = ti.types.struct(a=ti.i32, c=ti.f32)
    pt = ti.types.argpack(n=ti.i32, flag=bool, v=ti.types.vector(3, ti.f32), s=st)

    @ti.kernel
    def f(p: pt) -> ti.f32:
        r = p.v[1] * p.n + p.s.a + p.s.c
        if p.flag:
            r = -r
        return r

    assert f(pt(n=2, flag=False, v=[1, 2, 3], s=st(a=5, c=0.5))) == 9.5
    assert f(pt(3, True, ti.Vector([0, 1, 0]), st(a=1, c=1.0))) == -5.0


def test_ndarray_members_by_reference(engine):
    inner = ti.types.argpack(k=ti.i32, scale=ti.f32)
    pt = ti.types.argpack(a=ti.types.ndarray(dtype=ti.math.vec2, ndim=1), b=ti.types.ndarray(ti.i32, ndim=2), c=inner)
    a = ti.ndarray(ti.math.vec2, shape=4)  # default_fp elements
    a.fill([7, 8])  # one element's value, to every element
    np.testing.assert_array_equal(a.to_numpy(), [[7, 8]] * 4)
    with pytest.raises(ValueError, match="one element of shape"):
        a.fill([1, 2, 3])
    b = np.zeros((2, 3), dtype=np.int32)

    @ti.kernel
    def fill(p: pt, q: inner) -> ti.i32:
        for i in range(p.a.shape[0]):
            p.a[i] = ti.Vector([i, p.c.scale * i])
        for i, j in ti.ndrange(p.b.shape[0], p.b.shape[1]):
            p.b[i, j] = i * 10 + j + p.c.k + q.k
        return p.b.shape[1]

    assert fill(pt(a=a, b=b, c=inner(k=100, scale=2.0)), inner(1000, 0)) == 3
    np.testing.assert_array_equal(a.to_numpy(), [[0, 0], [1, 2], [2, 4], [3, 6]])
    np.testing.assert_array_equal(b, [[1100, 1101, 1102], [1110, 1111, 1112]])
    b64 = np.zeros((2, 3), dtype=np.int64)
    with pytest.raises(TypeError, match="'p.b' expects elements of i32"):
        fill(pt(a=a, b=b64, c=inner(k=0, scale=0)), inner(0, 0))


def test_errors(engine):
    pt = ti.types.argpack(a=ti.i32, b=ti.f32)
    other = ti.types.argpack(a=ti.i32, b=ti.f32)

    @ti.kernel
    def f(p: pt) -> ti.f32:
        return p.a + p.b

    assert f(pt(a=1, b=0.5)) == 1.5
    with pytest.raises(TypeError, match="expected a pack of"):
        f(other(a=1, b=0.5))
    with pytest.raises(TypeError, match="takes a pack made by its argpack type"):
        f(3)
    with pytest.raises(TypeError, match="no member 'c'"):
        pt(a=1, c=2)
    with pytest.raises(TypeError, match="member 'b' has no value"):
        pt(a=1)
    with pytest.raises(TypeError, match="argpacks are kernel parameters only"):
        ti.types.struct(x=pt)

    @ti.kernel
    def ret(p: pt) -> pt:
        return p

    with pytest.raises(Exception, match="unsupported return type annotation"):
        ret(pt(a=1, b=2))

    @ti.kernel
    def missing(p: pt) -> ti.i32:
        return p.c

    with pytest.raises(Exception, match="'c'") as e:
        missing(pt(a=1, b=2))
    assert "test_argpack.py" in str(e.value)
