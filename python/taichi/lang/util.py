"""taichi.lang.util: dtype conversions between Taichi and numpy, as Taichi's
own tests and programs reach them (ti.lang.util.to_numpy_type)."""


def to_numpy_type(dt):
    import numpy as np
    from .._ndarray import _NP
    from .._types import dtype_of
    return getattr(np, _NP[dtype_of(dt)._kiln_prim])


def to_taichi_type(dt):
    from .._types import dtype_of
    return dtype_of(dt)
