"""dtypes and type objects: ti.f32 ..., ti.types.vector/matrix/struct/ndarray,
ti.template(). Each describes itself to kernels through `_kiln_static()`
(see python/core/static.cpp)."""
from . import _core


class DataType:
    __slots__ = ("_kiln_prim",)

    def __init__(self, name):
        self._kiln_prim = name

    def __repr__(self):
        return self._kiln_prim

    def __str__(self):
        return self._kiln_prim

    def __eq__(self, other):
        if isinstance(other, DataType):
            return self._kiln_prim == other._kiln_prim
        return NotImplemented

    def __hash__(self):
        return hash(self._kiln_prim)

    def _kiln_static(self):
        return ("dtype", self)

    def __call__(self, *args):
        # ti.f32(1) on the host: a cast; ti.f32(...) of a vector casts elements
        if len(args) != 1:
            raise TypeError(f"{self._kiln_prim}() takes one argument")
        x = args[0]
        from ._matrix import Matrix
        if isinstance(x, Matrix):
            return x.cast(self)
        return cast_scalar(x, self)

    @property
    def name(self):
        return self._kiln_prim


def _mk():
    d = {}
    for n in ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32", "f64", "bf16"):
        d[n] = DataType(n)
    return d


_DT = _mk()
i8, i16, i32, i64 = _DT["i8"], _DT["i16"], _DT["i32"], _DT["i64"]
u8, u16, u32, u64 = _DT["u8"], _DT["u16"], _DT["u32"], _DT["u64"]
f16, f32, f64 = _DT["f16"], _DT["f32"], _DT["f64"]
bf16 = _DT["bf16"]  # a storage type: f32's range, 8 significant bits; arithmetic in f32


def is_float_name(n):
    """Whether the primitive named `n` is a floating-point type (bf16 included)."""
    return n[0] == "f" or n == "bf16"
u1 = u8


def dtype_of(dt):
    """A DataType for a dtype-like value (DataType, int, float, numpy dtypes)."""
    if isinstance(dt, DataType):
        return dt
    if dt is int:
        from . import _state
        return _DT[_state.config["default_ip"]]
    if dt is float:
        from . import _state
        return _DT[_state.config["default_fp"]]
    if dt is bool:
        return i32
    name = getattr(dt, "__name__", None) or getattr(dt, "name", None)
    try:
        import numpy as np
        name = np.dtype(dt).name
    except Exception:
        pass
    m = {"int8": i8, "int16": i16, "int32": i32, "int64": i64, "uint8": u8, "uint16": u16, "uint32": u32,
         "uint64": u64, "float16": f16, "float32": f32, "float64": f64}
    if name in m:
        return m[name]
    raise TypeError(f"expected a dtype such as ti.f32, not {dt!r}")


def is_float(dt):
    return is_float_name(dtype_of(dt)._kiln_prim)


def is_integral(dt):
    return dtype_of(dt)._kiln_prim[0] in "iu"


def is_signed(dt):
    return dtype_of(dt)._kiln_prim[0] in "if"


def is_unsigned(dt):
    return dtype_of(dt)._kiln_prim[0] == "u"


def cast_scalar(x, dt):
    """A Python number as the value `dt` would store (ints wrap, floats round)."""
    import struct
    n = dt._kiln_prim
    if is_float_name(n):
        x = float(x)
        if n == "bf16":  # f32's upper half, rounded to nearest even (NaN and infinities kept)
            if x != x or abs(x) == float("inf"):
                return x
            try:
                b = struct.unpack("I", struct.pack("f", x))[0]
            except OverflowError:
                return float("inf") if x > 0 else float("-inf")
            b = ((b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000) & 0xFFFFFFFF
            return struct.unpack("f", struct.pack("I", b))[0]
        if n == "f32":
            return struct.unpack("f", struct.pack("f", x))[0] if abs(x) < 3.5e38 or x != x else x
        if n == "f16":
            try:
                return struct.unpack("e", struct.pack("e", x))[0]
            except OverflowError:
                return float("inf") if x > 0 else float("-inf")
        return x
    x = int(x)
    bits = int(n[1:])
    x &= (1 << bits) - 1
    if n[0] == "i" and x >= 1 << (bits - 1):
        x -= 1 << bits
    return x


class Template:
    def __init__(self, tensor=None, dim=None):
        self.tensor, self.dim = tensor, dim

    def _kiln_static(self):
        return ("builtin", "ti.template")

    def __repr__(self):
        return "template()"


def template(tensor=None, dim=None):
    return Template(tensor, dim)


class Ref:
    """ti.ref(T): a ti.real_func parameter that writes back to the caller's local."""

    def __init__(self, dtype):
        self.dtype = dtype

    def _kiln_static(self):
        return ("ref", self.dtype)

    def __repr__(self):
        return f"ref({self.dtype!r})"


def ref(dtype):
    return Ref(dtype)


class NdarrayType:
    """ti.types.ndarray(dtype=None, ndim=None): an array argument by reference."""

    def __init__(self, dtype=None, ndim=None, element_shape=None, field_dim=None, needs_grad=None, boundary=None,
                 layout=None):
        self.dtype, self.ndim = dtype, ndim if ndim is not None else field_dim
        self.needs_grad = needs_grad  # False: autodiff kernels take no gradient for this argument
        if element_shape is not None and dtype is not None and not isinstance(dtype, VectorType):
            if len(element_shape) == 1:
                self.dtype = VectorType(element_shape[0], dtype)
            elif len(element_shape) == 2:
                self.dtype = MatrixType(element_shape[0], element_shape[1], 2, dtype)

    def _kiln_static(self):
        return ("object", "NdarrayType")

    def _kiln_ndarray(self):
        dt = self.dtype
        if dt is None:
            return (None, 0, 0, -1 if self.ndim is None else self.ndim)
        if isinstance(dt, VectorType):
            m = dt.m if isinstance(dt, MatrixType) and dt.ndim == 2 else 0
            elem = dt.dtype if dt.dtype is not None else dtype_of(float)  # ti.math.vec2: default_fp
            return (elem._kiln_prim, dt.n, m, -1 if self.ndim is None else self.ndim)
        return (dtype_of(dt)._kiln_prim, 0, 0, -1 if self.ndim is None else self.ndim)

    def __repr__(self):
        return f"ndarray(dtype={self.dtype}, ndim={self.ndim})"


def ndarray(dtype=None, ndim=None, **kw):
    return NdarrayType(dtype, ndim, **kw)


class VectorType:
    """ti.types.vector(n, dtype): a vector type; calling it makes a ti.Vector."""
    ndim = 1

    def __init__(self, n, dtype):
        if n is not None:
            _core.check_components(n, 1, False)
        self.n, self.m = n, 1
        self.dtype = dtype_of(dtype) if dtype is not None else None

    def _kiln_static(self):
        from . import _state
        dt = self.dtype or _DT[_state.config["default_fp"]]
        return ("dtype", dt, self.n, 0)

    def __call__(self, *args, **kw):
        from ._matrix import Vector, _flatten_args
        vals = _flatten_args(args)
        if len(vals) == 1 and self.n != 1:
            vals = vals * self.n
        if len(vals) != self.n:
            raise TypeError(f"vector of {self.n} elements built from {len(vals)} values")
        return Vector(vals, dt=self._dt())

    def _dt(self):
        # vec3 = vector(3, float): the default_fp of the current ti.init
        from . import _state
        return self.dtype or _DT[_state.config["default_fp"]]

    def field(self, shape=None, **kw):
        from ._field import Vector_field
        return Vector_field(self.n, self.dtype, shape=shape, **kw)

    def ndarray(self, shape, **kw):
        from ._ndarray import Ndarray
        return Ndarray(self.dtype, shape, n=self.n, needs_grad=kw.get("needs_grad", False))

    def __eq__(self, o):
        return type(o) is type(self) and (o.n, o.m, o.dtype) == (self.n, self.m, self.dtype)

    def __hash__(self):
        return hash((type(self).__name__, self.n, self.m, self.dtype))

    def __repr__(self):
        return f"VectorType[{self.n}, {self.dtype}]"


class MatrixType(VectorType):
    def __init__(self, n, m, ndim, dtype):
        if n is not None and m is not None:
            _core.check_components(n, m, ndim == 2)
        self.n, self.m, self.ndim = n, m, ndim
        self.dtype = dtype_of(dtype) if dtype is not None else None

    def _kiln_static(self):
        from . import _state
        dt = self.dtype or _DT[_state.config["default_fp"]]
        return ("dtype", dt, self.n, self.m if self.ndim == 2 else 0)

    def __call__(self, *args, **kw):
        from ._matrix import Matrix, _flatten_args
        if self.ndim == 1:
            return VectorType.__call__(self, *args)
        vals = _flatten_args(args)
        if len(vals) == 1:
            vals = vals * (self.n * self.m)
        if len(vals) != self.n * self.m:
            raise TypeError(f"{self.n}x{self.m} matrix built from {len(vals)} values")
        return Matrix([vals[r * self.m:(r + 1) * self.m] for r in range(self.n)], dt=self._dt())

    def field(self, shape=None, **kw):
        from ._field import Matrix_field
        return Matrix_field(self.n, self.m, self.dtype, shape=shape, **kw)

    def ndarray(self, shape, **kw):
        from ._ndarray import Ndarray
        return Ndarray(self.dtype, shape, n=self.n, m=self.m, needs_grad=kw.get("needs_grad", False))

    def __repr__(self):
        return f"MatrixType[{self.n}, {self.m}, {self.dtype}]"


def vector(n=None, dtype=None):
    return VectorType(n, dtype)


def matrix(n=None, m=None, dtype=None):
    return MatrixType(n, m, 2, dtype)


class StructType:
    """ti.types.struct(a=ti.f32, v=vec3) and @ti.dataclass classes."""

    def __init__(self, members, name="", methods=None):
        self.members = dict(members)
        for k, v in list(self.members.items()):
            if hasattr(v, "_kiln_argpack"):
                raise TypeError(f"struct member '{k}' is an argpack: argpacks are kernel parameters only, "
                                "not struct members (use a struct type)")
            if not isinstance(v, (VectorType, StructType)):
                self.members[k] = dtype_of(v)
        self.name = name
        self.methods = dict(methods or {})

    def _kiln_static(self):
        return ("struct_type", self.name, list(self.members), list(self.members.values()))

    def __getattr__(self, k):
        methods = self.__dict__.get("methods", {})
        if k in methods:
            return methods[k]
        raise AttributeError(f"struct type has no attribute '{k}'")

    def __call__(self, *args, **kw):
        from ._struct import Struct
        vals = {}
        names = list(self.members)
        if len(args) == 1 and isinstance(args[0], dict) and not kw:
            kw = args[0]
            args = ()
        for k, v in zip(names, args):
            vals[k] = v
        vals.update(kw)
        out = {}
        for k, t in self.members.items():
            v = vals.get(k, 0)
            if isinstance(t, VectorType):
                from ._matrix import Matrix
                v = t(v) if not isinstance(v, Matrix) else v.cast(t._dt())
            elif isinstance(t, StructType):
                # a struct as is, a dict by member, a scalar fills the first member (as Taichi does)
                v = v if hasattr(v, "_kiln_struct") else t(**v) if isinstance(v, dict) else t(v) if k in vals else t()
            else:
                v = cast_scalar(v, t)
            out[k] = v
        return Struct(out, self)

    def field(self, shape=None, **kw):
        from ._field import Struct_field
        return Struct_field(self.members, shape=shape, struct_type=self, **kw)

    def __repr__(self):
        return f"StructType({self.members})"


def struct(**kw):
    return StructType(kw)


class SparseMatrixBuilderType:
    """The annotation of a ti.linalg.SparseMatrixBuilder kernel parameter
    (python/core/kernel.cpp passes the builder's arrays)."""
    _kiln_sparse_builder = True

    def _kiln_static(self):
        return ("object", "sparse_matrix_builder")


def sparse_matrix_builder():
    return SparseMatrixBuilderType()


class RWTextureType:
    def __init__(self, *a, **k):
        pass

    def _kiln_static(self):
        return ("object", "texture")


rw_texture = texture = RWTextureType
