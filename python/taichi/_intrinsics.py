"""The ti.* intrinsics. Inside kernels the frontend knows each by its
`_kiln_builtin` name; in Python scope they compute on Python numbers and
host vectors/matrices (elementwise), as Taichi's do."""
import math
import random as _random

from ._matrix import Matrix


def _tag(name):
    def deco(f):
        f._kiln_builtin = name
        return f
    return deco


def _ew(f):
    def g(x, *rest):
        if isinstance(x, Matrix):
            return x._map(lambda v: f(v, *rest))
        return f(x, *rest)
    return g


def _ew2(f):
    def g(a, b):
        if isinstance(a, Matrix) or isinstance(b, Matrix):
            m = a if isinstance(a, Matrix) else b
            av = a.entries if isinstance(a, Matrix) else [a] * len(m.entries)
            bv = b.entries if isinstance(b, Matrix) else [b] * len(m.entries)
            return Matrix._make(m.n, m.m, m.ndim, [f(x, y) for x, y in zip(av, bv)], m.dtype)
        return f(a, b)
    return g


def _define(ns, prefix):
    unary = {
        "sqrt": math.sqrt, "sin": math.sin, "cos": math.cos, "tan": math.tan, "asin": math.asin,
        "acos": math.acos, "atan": math.atan, "tanh": math.tanh, "exp": math.exp, "log": math.log,
        "rsqrt": lambda x: 1 / math.sqrt(x), "floor": lambda x: float(math.floor(x)), "ceil": lambda x: float(math.ceil(x)),
        "round": lambda x: float(math.floor(x + 0.5)), "abs": abs, "popcnt": lambda x: bin(x & 0xFFFFFFFFFFFFFFFF).count("1"),
        "clz": lambda x: 64 - (x & 0xFFFFFFFFFFFFFFFF).bit_length(),
    }
    for n, f in unary.items():
        ns[n] = _tag(prefix + n)(_ew(f))
    binary = {"atan2": math.atan2, "pow": lambda a, b: a ** b, "raw_div": lambda a, b: a / b if isinstance(a, float) or isinstance(b, float) else int(a / b),
              "raw_mod": lambda a, b: math.fmod(a, b) if isinstance(a, float) or isinstance(b, float) else a - int(a / b) * b,
              "bit_shr": lambda a, b: (a % (1 << 32)) >> b}
    for n, f in binary.items():
        ns[n] = _tag(prefix + n)(_ew2(f))


_define(globals(), "ti.")


def _variadic(name, pick):
    """ti.max / ti.min: any number of arguments, element-wise on host vectors."""
    @_tag("ti." + name)
    def f(*args):
        if any(isinstance(a, Matrix) for a in args):
            out = args[0]
            for b in args[1:]:
                out = _ew2(lambda x, y: pick(x, y))(out, b)
            return out
        return pick(*args)
    f.__name__ = name
    return f


import builtins as _builtins  # noqa: E402

max = _variadic("max", _builtins.max)
min = _variadic("min", _builtins.min)


@_tag("ti.select")
def select(cond, a, b):
    if isinstance(cond, Matrix):
        return Matrix._make(cond.n, cond.m, cond.ndim,
                            [x if c else y for c, x, y in zip(cond.entries, a.entries if isinstance(a, Matrix) else [a] * len(cond.entries),
                                                               b.entries if isinstance(b, Matrix) else [b] * len(cond.entries))])
    return a if cond else b


@_tag("ti.cast")
def cast(x, dtype):
    from ._types import dtype_of, cast_scalar
    if isinstance(x, Matrix):
        return x.cast(dtype)
    return cast_scalar(x, dtype_of(dtype))


@_tag("ti.bit_cast")
def bit_cast(x, dtype):
    import struct
    from ._types import dtype_of
    dt = dtype_of(dtype)._kiln_prim
    codes = {"f32": "f", "i32": "i", "u32": "I", "f64": "d", "i64": "q", "u64": "Q"}
    src = "f" if isinstance(x, float) and dt[1:] == "32" else "d" if isinstance(x, float) else ("i" if dt[1:] == "32" else "q")
    if src.upper() == codes[dt].upper() and not isinstance(x, float):
        src = "I" if dt[1:] == "32" else "Q"
        x &= (1 << int(dt[1:])) - 1
    return struct.unpack(codes[dt], struct.pack(src, x))[0]


@_tag("ti.random")
def random(dtype=float):
    from ._types import dtype_of
    dt = dtype_of(dtype)._kiln_prim
    # The dtypes a kernel's ti.random draws (vm/frontend), with its message.
    if dt not in ("f16", "f32", "f64", "i32", "u32", "i64", "u64"):
        raise TypeError(f"ti.random() draws f16, f32, f64, i32, u32, i64 or u64, not {dt}")
    if dt == "f16":  # an f32 draw rounded to f16, as in kernels
        import struct
        return struct.unpack("e", struct.pack("e", _random.random()))[0]
    if dt[0] == "f":
        return _random.random()
    bits = int(dt[1:])
    r = _random.getrandbits(bits)
    return r - (1 << bits) if dt[0] == "i" and r >> (bits - 1) else r  # signed as in kernels


@_tag("ti.static")
def static(x, *more):
    if more:
        return (x,) + more
    return x


@_tag("ti.static_assert")
def static_assert(cond, msg=None):
    if not cond:
        raise AssertionError(msg or "static assertion failed")


@_tag("ti.static_print")
def static_print(*args, **kw):
    print(*args, **kw)


@_tag("ti.loop_config")
def loop_config(**kw):
    pass


def _atomic(name, f):
    @_tag("ti." + name)
    def g(x, y):
        raise RuntimeError(f"ti.{name}() on Python values: atomics update field elements or locals inside kernels")
    return g


for _n in ("atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_and", "atomic_or", "atomic_xor", "atomic_mul"):
    globals()[_n] = _atomic(_n, None)


def _kernel_only(name):
    @_tag("ti." + name)
    def g(*args, **kw):
        raise RuntimeError(f"ti.{name}() is only available inside kernels")
    return g


for _n in ("activate", "deactivate", "is_active", "append", "length", "rescale_index", "get_addr"):
    globals()[_n] = _kernel_only(_n)


class ndrange:
    """ti.ndrange(...): a multi-dimensional range (a kernel's parallel loop; iterable in Python too)."""
    _kiln_builtin = "ti.ndrange"
    _kiln_iterable = True

    def __init__(self, *args):
        self.bounds = []
        def as_int(v):
            if isinstance(v, float) or not hasattr(v, "__index__"):
                raise TypeError(f"ti.ndrange() takes integers, not {v!r}")
            return v.__index__()

        for a in args:
            if isinstance(a, (list, tuple)):
                b, e = as_int(a[0]), as_int(a[1])
            else:
                b, e = 0, as_int(a)
            self.bounds.append((b, max(b, e)))
        self.dimensions = [e - b for b, e in self.bounds]

    def __iter__(self):
        import itertools
        for t in itertools.product(*[range(b, e) for b, e in self.bounds]):
            yield t if len(t) != 1 else t[0]

    def grouped(self):
        return grouped(self)


@_tag("ti.grouped")
def grouped(x):
    from ._matrix import Vector
    if isinstance(x, ndrange):
        # () for a 0-D range: x[()] is x[None]
        return (() if t == () else Vector(list(t) if isinstance(t, tuple) else [t]) for t in x)
    shape = x.shape
    import itertools
    return (Vector(list(t)) for t in itertools.product(*[range(s) for s in shape]))


@_tag("ti.loop_unique")
def loop_unique(val, covers=None):
    return val


@_tag("ti.assume_in_range")
def assume_in_range(val, base, low, high):
    return val


@_tag("ti.zero")
def zero(x):
    return x._map(lambda v: type(v)(0)) if isinstance(x, Matrix) else type(x)(0)


@_tag("ti.one")
def one(x):
    return x._map(lambda v: type(v)(1)) if isinstance(x, Matrix) else type(x)(1)


@_tag("ti.stop_grad")
def stop_grad(x):
    """In an autodiff kernel: x's value, through which no gradient flows (a field: its loads)."""
    return x


@_tag("ti.block_local")
def block_local(*fields):
    raise RuntimeError("ti.block_local() is only available inside kernels")


@_tag("ti.cache_read_only")
def cache_read_only(*fields):
    raise RuntimeError("ti.cache_read_only() is only available inside kernels")


@_tag("ti.no_activate")
def no_activate(*snodes):
    raise RuntimeError("ti.no_activate() is only available inside kernels")
