"""ti.* helpers written as ti.funcs (inlined into kernels)."""
import math as _m

import taichi as ti


@ti.func
def randn(dt: ti.template() = float):
    """A standard normal draw of type dt (Box-Muller on two ti.random(dt) draws)."""
    u1 = 1.0 - ti.random(dt)  # in (0, 1]: its log is finite
    u2 = ti.random(dt)
    return ti.sqrt(-2.0 * ti.log(u1)) * ti.cos(2.0 * _m.pi * u2)
