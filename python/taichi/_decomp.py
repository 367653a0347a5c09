"""ti.svd, ti.polar_decompose, ti.sym_eig and ti.eig on small matrices, as
ti.funcs: they inline into the calling kernel, so every engine (interpreter,
JIT, Vulkan) runs the same scalar code.

Both decompositions use Jacobi rotations, fully unrolled with ti.static (a
runtime loop at a kernel's top level would become its parallel loop):
- sym_eig: two-sided rotations zero the off-diagonal of a symmetric matrix;
- svd: one-sided rotations (Hestenes) turn the columns of A·V orthogonal.
  AᵀA is never formed, so an f64 SVD keeps f64 accuracy.
Rotations have determinant +1, so V (and U, built to match) are rotations; the
sign of det(A) goes to the last singular value, as Taichi's svd does."""
import taichi as ti

_SWEEPS = 8  # cyclic Jacobi converges quadratically: 3x3 reaches f64 round-off in ~5


def _pairs(n):
    return [(p, q) for p in range(n) for q in range(p + 1, n)]


def _eps(dt):
    return 2.0 ** -52 if dt == ti.f64 else 2.0 ** -23


@ti.func
def _rotation(app, aqq, apq):
    """cos and sin of the Jacobi rotation J = [[c, s], [-s, c]] that zeroes
    entry (p, q) of Jᵀ·M·J for the symmetric 2x2 [[app, apq], [apq, aqq]]."""
    c = app * 0 + 1
    s = app * 0
    if apq != 0:
        theta = (aqq - app) / (2 * apq)
        t = 1 / (ti.abs(theta) + ti.sqrt(theta * theta + 1))  # the smaller root: |angle| <= pi/4
        if theta < 0:
            t = -t
        c = 1 / ti.sqrt(t * t + 1)
        s = t * c
    return c, s


@ti.func
def _rotated(M, p: ti.template(), q: ti.template(), c, s):
    """M·J: columns p and q rotated."""
    for k in ti.static(range(M.n)):
        mp, mq = M[k, p], M[k, q]
        M[k, p] = c * mp - s * mq
        M[k, q] = s * mp + c * mq
    return M


@ti.func
def _sym_eig(A, dt: ti.template()):
    a = A.cast(dt)
    V = ti.Matrix.identity(dt, A.n)
    for _ in ti.static(range(_SWEEPS)):
        for p, q in ti.static(_pairs(A.n)):
            c, s = _rotation(a[p, p], a[q, q], a[p, q])
            a = _rotated(a, p, q, c, s)
            for k in ti.static(range(A.n)):  # Jᵀ·(a·J): rows p and q
                mp, mq = a[p, k], a[q, k]
                a[p, k] = c * mp - s * mq
                a[q, k] = s * mp + c * mq
            V = _rotated(V, p, q, c, s)
    w = ti.Vector([a[i, i] for i in ti.static(range(A.n))], dt=dt)
    return w, V


@ti.func
def _col_dot(M: ti.template(), p: ti.template(), q: ti.template()):
    r = M[0, p] * M[0, q]
    for k in ti.static(range(1, M.n)):
        r += M[k, p] * M[k, q]
    return r


@ti.func
def _unit_orthogonal(u, dt: ti.template()):
    """A unit vector orthogonal to the unit 3-vector u: u crossed with the axis
    u is least aligned with."""
    e = ti.Vector([1, 0, 0], dt=dt)
    if ti.abs(u[1]) < ti.abs(u[0]) and ti.abs(u[1]) <= ti.abs(u[2]):
        e = ti.Vector([0, 1, 0], dt=dt)
    elif ti.abs(u[2]) < ti.abs(u[0]) and ti.abs(u[2]) < ti.abs(u[1]):
        e = ti.Vector([0, 0, 1], dt=dt)
    return u.cross(e).normalized()


@ti.func
def _svd(A, dt: ti.template()):
    a = A.cast(dt)  # becomes A·V, whose columns are sigma_i * u_i
    V = ti.Matrix.identity(dt, A.n)
    for _ in ti.static(range(_SWEEPS)):
        for p, q in ti.static(_pairs(A.n)):
            c, s = _rotation(_col_dot(a, p, p), _col_dot(a, q, q), _col_dot(a, p, q))
            a = _rotated(a, p, q, c, s)
            V = _rotated(V, p, q, c, s)
    # Largest column first. Swapping columns p, q as (q, -p) is a rotation too.
    for p, q in ti.static([(0, 1)] if A.n == 2 else [(0, 1), (1, 2), (0, 1)]):
        if _col_dot(a, p, p) < _col_dot(a, q, q):
            for k in ti.static(range(A.n)):
                ap, vp = a[k, p], V[k, p]
                a[k, p], V[k, p] = a[k, q], V[k, q]
                a[k, q], V[k, q] = -ap, -vp
    col0 = ti.Vector([a[k, 0] for k in ti.static(range(A.n))], dt=dt)
    col1 = ti.Vector([a[k, 1] for k in ti.static(range(A.n))], dt=dt)
    s0 = col0.norm()
    u0 = ti.Vector([1 if k == 0 else 0 for k in ti.static(range(A.n))], dt=dt)
    if s0 > 0:
        u0 = col0 / s0
    U = ti.Matrix.identity(dt, A.n)
    S = ti.Matrix.zero(dt, A.n, A.n)
    if ti.static(A.n == 2):
        u1 = ti.Vector([-u0[1], u0[0]], dt=dt)  # det(U) = +1
        U = ti.Matrix.cols([u0, u1])
        S[0, 0], S[1, 1] = s0, u1.dot(col1)
    else:
        col2 = ti.Vector([a[k, 2] for k in ti.static(range(A.n))], dt=dt)
        r = col1 - col1.dot(u0) * u0  # orthogonal already, up to round-off
        rn = r.norm()
        u1 = _unit_orthogonal(u0, dt)
        if rn > s0 * ti.static(64 * _eps(dt)):
            u1 = r / rn
        u2 = u0.cross(u1)  # det(U) = +1
        U = ti.Matrix.cols([u0, u1, u2])
        S[0, 0], S[1, 1], S[2, 2] = s0, u1.dot(col1), u2.dot(col2)
    return U, S, V


@ti.func
def _eig2x2(A, dt: ti.template()):
    """Eigenvalues as rows (real, imaginary) and unit eigenvectors as columns
    of a 4x2 matrix whose even rows are real parts and odd rows imaginary."""
    a, b, c, d = ti.cast(A[0, 0], dt), ti.cast(A[0, 1], dt), ti.cast(A[1, 0], dt), ti.cast(A[1, 1], dt)
    m = (a + d) / 2
    disc = (a - d) * (a - d) / 4 + b * c  # m*m - det, without the cancellation
    vals = ti.Matrix.zero(dt, 2, 2)
    vecs = ti.Matrix.zero(dt, 4, 2)
    if disc >= 0:
        r = ti.sqrt(disc)
        l0, l1 = m + r, m - r
        v0 = ti.Vector([1, 0], dt=dt)
        v1 = ti.Vector([0, 1], dt=dt)
        if b != 0:  # (A - l I) v = 0 is solved by v = (b, l - a)
            v0, v1 = ti.Vector([b, l0 - a]), ti.Vector([b, l1 - a])
        elif c != 0:  # and by v = (l - d, c)
            v0, v1 = ti.Vector([l0 - d, c]), ti.Vector([l1 - d, c])
        else:  # diagonal: the axes, in the order of the eigenvalues
            l0, l1 = a, d
        v0, v1 = v0.normalized(), v1.normalized()
        vals[0, 0], vals[1, 0] = l0, l1
        vecs[0, 0], vecs[2, 0] = v0[0], v0[1]
        vecs[0, 1], vecs[2, 1] = v1[0], v1[1]
    else:  # complex pair m ± iw; b != 0 here (a triangular matrix has real eigenvalues)
        w = ti.sqrt(-disc)
        vals[0, 0], vals[0, 1] = m, w
        vals[1, 0], vals[1, 1] = m, -w
        norm = ti.sqrt(b * b + (m - a) * (m - a) + w * w)
        # v = (b, m - a ± iw) / norm
        vecs[0, 0], vecs[2, 0], vecs[3, 0] = b / norm, (m - a) / norm, w / norm
        vecs[0, 1], vecs[2, 1], vecs[3, 1] = b / norm, (m - a) / norm, -w / norm
    return vals, vecs


def _dt(dt):
    return float if dt is None else dt


@ti.func
def svd(A, dt: ti.template() = None):
    """A = U @ S @ V.transpose() for a 2x2 or 3x3 A: U and V rotations, S
    diagonal, largest singular value first (the last carries det(A)'s sign)."""
    ti.static_assert(A.n == A.m, "ti.svd needs a square matrix")
    ti.static_assert(A.n == 2 or A.n == 3, "ti.svd supports 2x2 and 3x3 matrices")
    return _svd(A, ti.static(_dt(dt)))


@ti.func
def polar_decompose(A, dt: ti.template() = None):
    """A = R @ P for a 2x2 or 3x3 A: R a rotation, P symmetric."""
    ti.static_assert(A.n == A.m, "ti.polar_decompose needs a square matrix")
    ti.static_assert(A.n == 2 or A.n == 3, "ti.polar_decompose supports 2x2 and 3x3 matrices")
    U, S, V = _svd(A, ti.static(_dt(dt)))
    return U @ V.transpose(), V @ S @ V.transpose()


@ti.func
def sym_eig(A, dt: ti.template() = None):
    """Eigenvalues (a vector) and unit eigenvectors (the columns of a matrix)
    of a symmetric 2x2 or 3x3 A."""
    ti.static_assert(A.n == A.m, "ti.sym_eig needs a square matrix")
    ti.static_assert(A.n == 2 or A.n == 3, "ti.sym_eig supports 2x2 and 3x3 matrices")
    return _sym_eig(A, ti.static(_dt(dt)))


@ti.func
def eig(A, dt: ti.template() = None):
    """Eigenvalues and eigenvectors of a real 2x2 A, complex parts included
    (Taichi's layout: see _eig2x2)."""
    ti.static_assert(A.n == A.m, "ti.eig needs a square matrix")
    ti.static_assert(A.n == 2, "ti.eig supports only 2x2 matrices")
    return _eig2x2(A, ti.static(_dt(dt)))
