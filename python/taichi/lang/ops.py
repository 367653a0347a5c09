"""taichi.lang.ops: operators as functions, usable in kernels and in Python scope."""
from .._intrinsics import (abs, sqrt, rsqrt, sin, cos, tan, asin, acos, atan, atan2, tanh, exp, log, floor, ceil,  # noqa: F401
                           round, pow, max, min, select, cast, bit_cast, raw_div, raw_mod, bit_shr, popcnt, clz, random,
                           atomic_add, atomic_sub, atomic_min, atomic_max, atomic_and, atomic_or, atomic_xor)
from .._kernel import pyfunc as _pyfunc


@_pyfunc
def logical_not(a):
    return a == 0


@_pyfunc
def logical_and(a, b):
    return (a != 0) & (b != 0)


@_pyfunc
def logical_or(a, b):
    return (a != 0) | (b != 0)


@_pyfunc
def bit_not(a):
    return ~a
