"""ti.svd, ti.polar_decompose, ti.sym_eig and ti.eig (python/taichi/_decomp.py):
ti.funcs that inline into kernels, checked against numpy on the interpreter,
the JIT and (f32, when a device is present) Vulkan, plus their usage errors."""
import numpy as np
import pytest

import taichi as ti

ARCHS = [("cpu", "interp"), ("cpu", "jit"), ("vulkan", None)]


def _init(arch, engine, fp):
    if arch == "vulkan":
        if fp == ti.f64:
            pytest.skip("f64 decompositions are checked on the CPU engines")
        try:
            ti.init(arch=ti.vulkan, default_fp=fp, enable_fallback=False)
        except RuntimeError as e:
            pytest.skip(f"no Vulkan device: {e}")
    else:
        ti.init(arch=ti.cpu, engine=engine, default_fp=fp)


MATS = {2: [[[1, 1], [2, 3]], [[0, 0], [0, 0]], [[2, 0], [0, -3]], [[1, 2], [2, 4]]],
        3: [[[1, 1, 3], [9, -3, 2], [-3, 4, 2]], [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
            [[1, 2, 3], [2, 4, 6], [1, 0, 1]], [[2, 0, 0], [0, 2, 0], [0, 0, -1]],
            [[1, 2, 3], [2, 4, 6], [3, 6, 9]]]}


def _tol(fp):
    return 2e-5 if fp == ti.f32 else 1e-12


@pytest.mark.parametrize("arch,engine", ARCHS)
@pytest.mark.parametrize("fp", [ti.f32, ti.f64])
@pytest.mark.parametrize("n", [2, 3])
def test_svd_and_polar(arch, engine, fp, n):
    _init(arch, engine, fp)
    A = ti.Matrix.field(n, n, fp, shape=len(MATS[n]))
    U, S, V, R, P = (ti.Matrix.field(n, n, fp, shape=len(MATS[n])) for _ in range(5))

    @ti.kernel
    def run():
        for i in A:
            U[i], S[i], V[i] = ti.svd(A[i], fp)
            R[i], P[i] = ti.polar_decompose(A[i], fp)

    A.from_numpy(np.array(MATS[n], dtype=np.float64))
    run()
    tol = _tol(fp)
    for i, a in enumerate(MATS[n]):
        a = np.array(a, dtype=np.float64)
        u, s, v, r, p = (X.to_numpy()[i].astype(np.float64) for X in (U, S, V, R, P))
        scale = max(1.0, np.abs(a).max())
        np.testing.assert_allclose(u @ s @ v.T, a, atol=tol * scale)
        np.testing.assert_allclose(u.T @ u, np.eye(n), atol=tol)
        np.testing.assert_allclose(v.T @ v, np.eye(n), atol=tol)
        assert np.linalg.det(u) == pytest.approx(1, abs=tol) and np.linalg.det(v) == pytest.approx(1, abs=tol)
        np.testing.assert_allclose(s, np.diag(np.diag(s)), atol=0)
        sv = np.diag(s)
        assert list(np.abs(sv)) == sorted(np.abs(sv), reverse=True)
        np.testing.assert_allclose(np.abs(sv), np.linalg.svd(a, compute_uv=False), atol=tol * scale)
        np.testing.assert_allclose(r @ p, a, atol=tol * scale)
        np.testing.assert_allclose(r.T @ r, np.eye(n), atol=tol)
        np.testing.assert_allclose(p, p.T, atol=tol * scale)


@pytest.mark.parametrize("arch,engine", ARCHS)
@pytest.mark.parametrize("fp", [ti.f32, ti.f64])
def test_sym_eig(arch, engine, fp):
    _init(arch, engine, fp)
    mats = [[[5, 3, 0], [3, 2, 0], [0, 0, 0]]] + [[[a, 1, 1], [1, 2, 2], [1, 2, 2]] for a in range(4)] + \
           [[[1, 0, 0], [0, 1, 0], [0, 0, 1]]]
    A = ti.Matrix.field(3, 3, fp, shape=len(mats))
    w = ti.Vector.field(3, fp, shape=len(mats))
    Q = ti.Matrix.field(3, 3, fp, shape=len(mats))
    w2 = ti.Vector.field(2, fp, shape=())
    Q2 = ti.Matrix.field(2, 2, fp, shape=())

    @ti.kernel
    def run():
        for i in A:
            w[i], Q[i] = ti.sym_eig(A[i], fp)
        w2[None], Q2[None] = ti.sym_eig(ti.Matrix([[5, 3], [3, 2]], fp), fp)

    A.from_numpy(np.array(mats, dtype=np.float64))
    run()
    tol = _tol(fp) * 10
    for i, a in enumerate(mats):
        a = np.array(a, dtype=np.float64)
        wi, qi = w.to_numpy()[i].astype(np.float64), Q.to_numpy()[i].astype(np.float64)
        np.testing.assert_allclose(np.sort(wi), np.linalg.eigvalsh(a), atol=tol)
        np.testing.assert_allclose(a @ qi, qi * wi, atol=tol)
        np.testing.assert_allclose(qi.T @ qi, np.eye(3), atol=tol)
    np.testing.assert_allclose(np.sort(w2[None].to_numpy()), np.linalg.eigvalsh([[5, 3], [3, 2]]), atol=tol)


@pytest.mark.parametrize("arch,engine", ARCHS)
def test_eig2x2(arch, engine):
    _init(arch, engine, ti.f32)
    mats = [[[1, 1], [2, 3]], [[1, -1], [1, 1]], [[2, 0], [0, 5]], [[4, 0], [1, 4]], [[0, -2], [3, 1]]]
    A = ti.Matrix.field(2, 2, ti.f32, shape=len(mats))
    vals = ti.Matrix.field(2, 2, ti.f32, shape=len(mats))
    vecs = ti.Matrix.field(4, 2, ti.f32, shape=len(mats))

    @ti.kernel
    def run():
        for i in A:
            vals[i], vecs[i] = ti.eig(A[i])

    A.from_numpy(np.array(mats, dtype=np.float32))
    run()
    for i, a in enumerate(mats):
        a = np.array(a, dtype=np.complex128)
        v = vals.to_numpy()[i]
        e = v[:, 0] + 1j * v[:, 1]
        W = vecs.to_numpy()[i]
        X = W[0::2, :] + 1j * W[1::2, :]
        ref = np.linalg.eigvals(a)
        assert min(abs(e[0] - ref[0]) + abs(e[1] - ref[1]), abs(e[0] - ref[1]) + abs(e[1] - ref[0])) < 1e-5, (e, ref)
        for k in range(2):
            assert np.linalg.norm(X[:, k]) == pytest.approx(1, abs=1e-5)
            np.testing.assert_allclose(a @ X[:, k], e[k] * X[:, k], atol=1e-5)


def test_errors():
    ti.init(arch=ti.cpu)

    @ti.kernel
    def not_square():
        ti.svd(ti.Matrix([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))

    @ti.kernel
    def svd4():
        ti.svd(ti.Matrix.identity(float, 4))

    @ti.kernel
    def eig3():
        ti.eig(ti.Matrix.identity(float, 3))

    @ti.kernel
    def sym_eig4():
        ti.sym_eig(ti.Matrix.identity(float, 4))

    for k, msg in ((not_square, "ti.svd needs a square matrix"), (svd4, "ti.svd supports 2x2 and 3x3 matrices"),
                   (eig3, "ti.eig supports only 2x2 matrices"), (sym_eig4, "ti.sym_eig supports 2x2 and 3x3")):
        with pytest.raises(Exception, match=msg) as e:
            k()
        assert "called from taichi/test_decomp.py" in str(e.value), str(e.value)
