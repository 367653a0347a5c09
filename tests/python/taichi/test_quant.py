"""Quantized types on CPython (vm/types/quant.h, vm/frontend/lower_quant.cpp,
vm/ti/quant_access.cpp): packing, kernel and host reads and writes agreeing
bit for bit, atomics racing on one word, quant_array, and the errors. Every
kernel test runs on the interpreter and on the JIT."""
import numpy as np
import pytest

import taichi as ti

ENGINES = ["interp", "jit"]


@pytest.fixture(params=ENGINES)
def engine(request):
    ti.init(arch=ti.cpu, engine=request.param)
    return request.param


def test_int_fields_share_a_word(engine):
    qi5 = ti.types.quant.int(5, True)
    qu3 = ti.types.quant.int(3, False)
    a, b, c = ti.field(qi5), ti.field(qu3), ti.field(qi5)
    bp = ti.BitpackedFields(max_num_bits=16)
    bp.place(a, b, c)
    ti.root.dense(ti.i, 4).place(bp)

    @ti.kernel
    def store():
        for i in range(4):
            a[i] = i - 2
            b[i] = i + 5      # 7, 8 -> 0 (wraps), 9 -> 1
            c[i] = -16 + i

    store()
    assert [a[i] for i in range(4)] == [-2, -1, 0, 1]
    assert [b[i] for i in range(4)] == [5, 6, 7, 0]
    assert [c[i] for i in range(4)] == [-16, -15, -14, -13]
    a[3] = 17  # 17 wraps to -15 in 5 signed bits
    assert a[3] == -15 and b[3] == 0 and c[3] == -13
    np.testing.assert_array_equal(c.to_numpy(), [-16, -15, -14, -13])
    b.from_numpy(np.array([1, 2, 3, 4], dtype=np.uint32))
    a.fill(7)
    assert [(a[i], b[i], c[i]) for i in range(4)] == [(7, 1, -16), (7, 2, -15), (7, 3, -14), (7, 4, -13)]


def test_atomic_add_wraps_inside_the_field(engine):
    q4 = ti.types.quant.int(4, False)
    qs = ti.types.quant.int(6, True)
    lo, mid, hi = ti.field(q4), ti.field(qs), ti.field(q4)
    bp = ti.BitpackedFields(max_num_bits=32)
    bp.place(lo, mid, hi)
    ti.root.place(bp)
    hi[None] = 9

    @ti.kernel
    def add(n: ti.i32) -> ti.i32:
        for k in range(n):
            lo[None] += 3
            mid[None] -= 1
            ti.atomic_add(hi[None], 0)
        return ti.atomic_add(hi[None], 2)

    assert add(1000) == 9
    assert lo[None] == 3000 % 16
    assert mid[None] == ((-1000 + 32) % 64) - 32
    assert hi[None] == 11


def test_fixed_rounds_and_reads_back(engine):
    fx = ti.types.quant.fixed(bits=10, signed=True, max_value=2.0)
    x = ti.field(fx)
    y = ti.field(fx)
    bp = ti.BitpackedFields(max_num_bits=32)
    bp.place(x, y)
    ti.root.place(bp)
    step = 2.0 / 512

    @ti.kernel
    def set(v: ti.f32):
        x[None] = v
        y[None] += v

    set(0.3)
    assert x[None] == pytest.approx(round(0.3 / step) * step)
    assert y[None] == x[None]
    x[None] = -0.3
    assert x[None] == pytest.approx(-round(0.3 / step) * step)


@pytest.mark.parametrize("signed", [True, False])
def test_float_kernel_and_host_agree(engine, signed):
    qf = ti.types.quant.float(exp=5, frac=12, signed=signed)
    x = ti.field(qf)
    bp = ti.BitpackedFields(max_num_bits=32)
    bp.place(x)
    ti.root.dense(ti.i, 8).place(bp)
    vals = [0.0, 1.0, 0.75, 3.14159, 1000.0, 1 / 1024, 6.0e-5, 12.5]
    if signed:
        vals = [v * (-1) ** i for i, v in enumerate(vals)]

    @ti.kernel
    def put(v: ti.types.ndarray()):
        for i in range(8):
            x[i] = v[i]

    @ti.kernel
    def get(out: ti.types.ndarray()):
        for i in range(8):
            out[i] = x[i]

    put(np.array(vals, dtype=np.float32))
    from_kernel = [x[i] for i in range(8)]
    for i, v in enumerate(vals):
        x[i] = v
    host = [x[i] for i in range(8)]
    out = np.zeros(8, dtype=np.float32)
    get(out)
    assert from_kernel == host
    assert list(out) == host
    for v, h in zip(vals, host):
        assert h == pytest.approx(v, rel=2 ** -11, abs=1e-4)


def test_shared_exponent(engine):
    qa = ti.types.quant.float(exp=6, frac=12, signed=True)
    qb = ti.types.quant.float(exp=6, frac=13, signed=True)
    a, b = ti.field(qa), ti.field(qb)
    bp = ti.BitpackedFields(max_num_bits=32)
    bp.place(a, b, shared_exponent=True)
    ti.root.place(bp)

    @ti.kernel
    def put(x: ti.f32, y: ti.f32):
        a[None] = x
        b[None] = y

    put(3.0, -0.125)
    assert a[None] == 3.0 and b[None] == -0.125
    a[None] = 200.0  # the larger exponent costs b precision
    assert a[None] == 200.0 and b[None] == pytest.approx(-0.125, abs=200 / 2 ** 11)
    put(0.0, 0.0)
    assert a[None] == 0.0 and b[None] == 0.0


def test_quant_array_2d_and_struct_for(engine):
    q2 = ti.types.quant.int(2, False)
    x = ti.field(q2)
    ti.root.dense(ti.i, 3).quant_array(ti.ij, (4, 4), max_num_bits=32).place(x)
    assert x.shape == (12, 4)

    @ti.kernel
    def fill():
        for i, j in x:
            x[i, j] = i + j

    @ti.kernel
    def total() -> ti.i32:
        s = 0
        for i, j in x:
            s += x[i, j]
        return s

    fill()
    expect = np.fromfunction(lambda i, j: (i + j) % 4, (12, 4), dtype=np.int64)
    np.testing.assert_array_equal(x.to_numpy(), expect)
    assert total() == expect.sum()


def test_errors():
    ti.init(arch=ti.cpu)
    with pytest.raises(ValueError, match="bits must be between"):
        ti.types.quant.int(65, True)
    with pytest.raises(ValueError, match="exponent"):
        ti.types.quant.float(exp=9, frac=10)
    q = ti.types.quant.int(20, True)
    x = ti.field(q)
    with pytest.raises(TypeError, match="BitpackedFields"):
        ti.root.dense(ti.i, 4).place(x)
    with pytest.raises(TypeError, match="cannot have a shape"):
        ti.field(q, shape=4)
    y = ti.field(q)
    bp = ti.BitpackedFields(max_num_bits=32)
    bp.place(x, y)
    with pytest.raises(ValueError, match="need 40 bits"):
        ti.root.place(bp)
    with pytest.raises(Exception, match="At least 2 fields"):
        ti.BitpackedFields(max_num_bits=32).place(ti.field(ti.types.quant.float(exp=5, frac=10)),
                                                   shared_exponent=True)
    ti.init(arch=ti.cpu)  # x and y above were never placed
    f = ti.field(ti.types.quant.float(exp=5, frac=10))
    g = ti.field(ti.types.quant.int(8, True))
    bp = ti.BitpackedFields(max_num_bits=32)
    bp.place(f, g)
    ti.root.place(bp)

    @ti.kernel
    def float_race():
        for i in range(8):
            f[None] += 1.0

    with pytest.raises(Exception, match="no atomic add"):
        float_race()

    @ti.kernel
    def qmin():
        ti.atomic_min(g[None], 3)

    with pytest.raises(Exception, match="atomic min is not supported"):
        qmin()

    @ti.kernel
    def serial_float():
        for i in range(1):
            f[None] += 1.5

    serial_float()
    assert f[None] == 1.5
