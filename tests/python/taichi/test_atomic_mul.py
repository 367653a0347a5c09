"""ti.atomic_mul (ir::AtomicOp::mul): every integer and float width on the
interpreter and the JIT (products wrap like the non-atomic op), racing
updates from a parallel loop, and the quantized-type refusal."""
import numpy as np
import pytest

import taichi as ti


@pytest.fixture(params=["interp", "jit"])
def engine(request):
    ti.init(arch=ti.cpu, engine=request.param)
    return request.param


@pytest.mark.parametrize("dt,start,by,want", [(ti.u8, 200, 2, 144), (ti.i8, -100, 3, -44), (ti.i16, 300, 300, 24464),
                                              (ti.i64, 3_000_000_000, 5, 15_000_000_000), (ti.u32, 1 << 31, 3, 1 << 31),
                                              (ti.f64, 1.5, -4.0, -6.0), (ti.f16, 1.5, 3.0, 4.5)])
def test_widths(engine, dt, start, by, want):
    x = ti.field(dt, shape=())

    @ti.kernel
    def mul(v: dt) -> dt:
        return ti.atomic_mul(x[None], v)

    x[None] = start
    assert mul(by) == start
    assert x[None] == want


def test_races(engine):
    n = 4096
    x = ti.field(ti.f64, shape=())
    k = ti.field(ti.i64, shape=())

    @ti.kernel
    def run():
        for i in range(n):
            ti.atomic_mul(x[None], 1.0 + (i % 2) * 2.0 ** -20)  # n/2 factors of (1 + 2^-20)
            if i < 62:
                ti.atomic_mul(k[None], 2)

    x[None] = 1.0
    k[None] = 1
    run()
    assert x[None] == pytest.approx((1 + 2.0 ** -20) ** (n // 2), rel=1e-12)
    assert k[None] == 2 ** 62


def test_quant_refused(engine):
    q = ti.field(ti.types.quant.int(8, True))
    bp = ti.BitpackedFields(max_num_bits=32)
    bp.place(q)
    ti.root.place(bp)

    @ti.kernel
    def bad():
        ti.atomic_mul(q[None], 2)

    with pytest.raises(Exception, match="atomic mul is not supported on") as e:
        bad()
    assert "test_atomic_mul.py" in str(e.value)
