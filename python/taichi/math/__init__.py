"""taichi.math (`import taichi.math as tm`): GLSL-style types and functions."""
import math as _m

from .._types import VectorType as _VT, MatrixType as _MT, f32 as _f32, i32 as _i32, u32 as _u32, f64 as _f64
from .._matrix import Matrix as _Matrix
from .. import _intrinsics as _in


def _tag(name, f):
    f._kiln_builtin = "ti.math." + name
    return f


vec2, vec3, vec4 = _VT(2, None), _VT(3, None), _VT(4, None)
ivec2, ivec3, ivec4 = _VT(2, _i32), _VT(3, _i32), _VT(4, _i32)
uvec2, uvec3, uvec4 = _VT(2, _u32), _VT(3, _u32), _VT(4, _u32)
dvec2, dvec3, dvec4 = _VT(2, _f64), _VT(3, _f64), _VT(4, _f64)
mat2, mat3, mat4 = _MT(2, 2, 2, None), _MT(3, 3, 2, None), _MT(4, 4, 2, None)
imat2, imat3, imat4 = _MT(2, 2, 2, _i32), _MT(3, 3, 2, _i32), _MT(4, 4, 2, _i32)
dmat2, dmat3, dmat4 = _MT(2, 2, 2, _f64), _MT(3, 3, 2, _f64), _MT(4, 4, 2, _f64)
pi, e, inf, nan = _m.pi, _m.e, _m.inf, _m.nan


def _ew(f):
    return _in._ew(f)


def _ew2(f):
    return _in._ew2(f)


for _n in ("sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "tanh", "exp", "log", "floor", "ceil", "round", "rsqrt",
           "atan2", "pow", "max", "min", "abs", "select"):
    _src = getattr(_in, _n)
    globals()[_n] = _tag(_n, (lambda s: (lambda *a: s(*a)))(_src))


def _clamp(x, lo, hi):
    return _in.min(_in.max(x, lo), hi)


clamp = _tag("clamp", _clamp)
mix = _tag("mix", lambda x, y, a: x * (1 - a) + y * a)
fract = _tag("fract", _ew(lambda x: x - _m.floor(x)))
sign = _tag("sign", _ew(lambda x: 1.0 if x > 0 else -1.0 if x < 0 else 0.0))
step = _tag("step", _ew2(lambda edge, x: 0.0 if x < edge else 1.0))


def _smoothstep(a, b, x):
    def f(v):
        t = min(max((v - a) / (b - a), 0.0), 1.0)
        return t * t * (3 - 2 * t)
    return x._map(f) if isinstance(x, _Matrix) else f(x)


smoothstep = _tag("smoothstep", _smoothstep)
length = _tag("length", lambda v: v.norm())
normalize = _tag("normalize", lambda v: v.normalized())
distance = _tag("distance", lambda a, b: (a - b).norm())
dot = _tag("dot", lambda a, b: a.dot(b))
cross = _tag("cross", lambda a, b: a.cross(b))
reflect = _tag("reflect", lambda i, n: i - 2 * n.dot(i) * n)


def __getattr__(name):
    # the ti.func helpers import taichi itself, so they load on first use
    if name == "__all__":  # `from taichi.math import *` takes them too (cornell_box uses radians)
        import importlib
        funcs = importlib.import_module(__name__ + "._funcs")
        mine = [n for n, v in globals().items() if not n.startswith("_") and not isinstance(v, type(_m))]
        return mine + [n for n, v in vars(funcs).items() if not n.startswith("_") and callable(v) and n not in mine
                       and getattr(v, "__module__", None) == funcs.__name__]
    if not name.startswith("_"):
        import importlib
        funcs = importlib.import_module(__name__ + "._funcs")
        if hasattr(funcs, name):
            return getattr(funcs, name)
    raise AttributeError(f"module 'taichi.math' has no attribute '{name}'")


popcnt = _in.popcnt
clz = _in.clz
