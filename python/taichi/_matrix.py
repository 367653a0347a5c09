"""Host-scope ti.Vector / ti.Matrix values (Taichi keeps them as numpy-like
arrays: elementwise arithmetic with broadcasting, `@`, linear algebra,
swizzles). In kernels the frontend knows `ti.Vector`/`ti.Matrix` by name;
a captured instance is a compile-time constant (`_kiln_static`)."""
import math
import numbers


def _flatten_args(args):
    out = []
    for a in args:
        if isinstance(a, Matrix):
            out.extend(a.entries)
        elif isinstance(a, (list, tuple)):
            out.extend(_flatten_args(a))
        elif hasattr(a, "tolist") and not isinstance(a, numbers.Number):
            t = a.tolist()
            out.extend(_flatten_args(t if isinstance(t, list) else [t]))
        else:
            out.append(a)
    return out


def _cast(v, dt):
    if dt is None:
        return v
    from ._types import cast_scalar
    return cast_scalar(v, dt)


class Matrix:
    _kiln_builtin = "ti.Matrix"
    __array_priority__ = 1000

    def __init__(self, arr, dt=None, ndim=None):
        from ._types import dtype_of
        self.dtype = dtype_of(dt) if dt is not None else None
        if isinstance(arr, Matrix):
            self.n, self.m, self.ndim, self.entries = arr.n, arr.m, arr.ndim, list(arr.entries)
        else:
            if hasattr(arr, "tolist") and not isinstance(arr, (list, tuple)):
                arr = arr.tolist()
            arr = list(arr)
            if arr and isinstance(arr[0], (list, tuple)) or (arr and hasattr(arr[0], "tolist") and not isinstance(arr[0], numbers.Number)):
                rows = [list(r.tolist() if hasattr(r, "tolist") else r) for r in arr]
                self.n, self.m, self.ndim = len(rows), len(rows[0]) if rows else 0, 2
                if any(len(r) != self.m for r in rows):
                    raise ValueError("matrix rows must have the same length")
                self.entries = [x for r in rows for x in r]
            elif arr and isinstance(arr[0], Matrix) and arr[0].ndim == 1:
                rows = [r.entries for r in arr]
                self.n, self.m, self.ndim = len(rows), len(rows[0]), 2
                self.entries = [x for r in rows for x in r]
            else:
                self.n, self.m, self.ndim = len(arr), 1, 1
                self.entries = list(arr)
        if ndim is not None:
            self.ndim = ndim
        if self.dtype is not None:
            self.entries = [_cast(x, self.dtype) for x in self.entries]

    # ---- construction helpers
    @classmethod
    def _make(cls, n, m, ndim, entries, dtype=None):
        r = Matrix.__new__(Vector if ndim == 1 else Matrix)
        r.n, r.m, r.ndim, r.entries, r.dtype = n, m, ndim, list(entries), dtype
        return r

    def _kiln_static(self):
        return ("matrix", self.n, 0 if self.ndim == 1 else self.m, list(self.entries))

    # ---- shape and elements
    def get_shape(self):
        return (self.n,) if self.ndim == 1 else (self.n, self.m)

    shape = property(get_shape)

    def __len__(self):
        return self.n

    def _index(self, key):
        if self.ndim == 1:
            if isinstance(key, tuple):
                if len(key) != 1:
                    raise IndexError("a vector takes one index")
                key = key[0]
            k = int(key)
            if k < 0:
                k += self.n
            if not 0 <= k < self.n:
                raise IndexError(f"index {key} is out of range for a {self.n}-vector")
            return k
        if isinstance(key, tuple) and len(key) == 2:
            i, j = int(key[0]), int(key[1])
            if i < 0:
                i += self.n
            if j < 0:
                j += self.m
            if not (0 <= i < self.n and 0 <= j < self.m):
                raise IndexError(f"index {key} is out of range for a {self.n}x{self.m} matrix")
            return i * self.m + j
        return None

    def __getitem__(self, key):
        if isinstance(key, slice):
            if self.ndim == 1:
                return Vector(self.entries[key], dt=self.dtype)
            rows = [self._row(i) for i in range(self.n)][key]
            return Matrix(rows, dt=self.dtype)
        k = self._index(key)
        if k is None:  # a row of a matrix
            i = int(key)
            if i < 0:
                i += self.n
            return Vector(self._row(i), dt=self.dtype)
        return self.entries[k]

    def _row(self, i):
        return self.entries[i * self.m:(i + 1) * self.m]

    def __setitem__(self, key, v):
        k = self._index(key)
        if k is None:
            i = int(key)
            vals = _flatten_args([v])
            for j in range(self.m):
                self.entries[i * self.m + j] = _cast(vals[j], self.dtype)
            return
        self.entries[k] = _cast(v, self.dtype)

    def __iter__(self):
        if self.ndim == 1:
            return iter(list(self.entries))
        return iter([Vector(self._row(i), dt=self.dtype) for i in range(self.n)])

    def to_list(self):
        if self.ndim == 1:
            return list(self.entries)
        return [list(self._row(i)) for i in range(self.n)]

    tolist = to_list

    def to_numpy(self, keep_dims=False, dtype=None):
        import numpy as np
        a = np.array(self.to_list(), dtype=dtype if dtype is not None else self._np_dtype())
        return a

    def __array__(self, dtype=None, copy=None):
        return self.to_numpy(dtype=dtype)

    def _np_dtype(self):
        if self.dtype is not None:
            import numpy as np
            return np.dtype({"f32": "float32", "f64": "float64", "f16": "float16", "i32": "int32", "i64": "int64",
                             "i8": "int8", "i16": "int16", "u8": "uint8", "u16": "uint16", "u32": "uint32",
                             "u64": "uint64", "bf16": "float32"}[self.dtype._kiln_prim])  # numpy has no bf16
        return None

    def __str__(self):
        return str(self.to_numpy())

    def __repr__(self):
        return str(self.to_numpy())

    # ---- swizzles: v.x, v.xy, v.rgb
    _SW = {"x": 0, "y": 1, "z": 2, "w": 3, "r": 0, "g": 1, "b": 2, "a": 3, "s": 0, "t": 1, "p": 2, "q": 3}

    def __getattr__(self, name):
        if name.startswith("_") or self.__dict__.get("ndim") != 1:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        grp = next((g for g in ("xyzw", "rgba", "stpq") if 0 < len(name) <= 4 and all(c in g for c in name)), None)
        if grp is None:
            raise AttributeError(f"'Vector' object has no attribute '{name}'")
        idx = [grp.index(c) for c in name]
        if any(i >= self.n for i in idx):  # Taichi's error for a swizzle past the vector's size
            from ._errors import TaichiSyntaxError
            raise TaichiSyntaxError(f"vec{self.n} only has attributes={tuple(grp[:self.n])}, got={tuple(name)}")
        if len(idx) == 1:
            return self.entries[idx[0]]
        return Vector([self.entries[i] for i in idx], dt=self.dtype)

    def __setattr__(self, name, v):
        if name in ("n", "m", "ndim", "entries", "dtype") or name.startswith("_"):
            object.__setattr__(self, name, v)
            return
        idx = [Matrix._SW.get(c) for c in name]
        if self.__dict__.get("ndim") == 1 and None not in idx and all(i < self.n for i in idx):
            vals = _flatten_args([v]) if len(idx) > 1 else [v]
            for i, x in zip(idx, vals):
                self.entries[i] = _cast(x, self.dtype)
            return
        object.__setattr__(self, name, v)

    # ---- arithmetic (elementwise, scalars broadcast)
    def _binop(self, other, f, reverse=False, compare=False):
        if isinstance(other, Matrix):
            if other.get_shape() != self.get_shape():
                return self._broadcast(other, f, reverse, compare)
            ov = other.entries
        elif isinstance(other, numbers.Number) or (hasattr(other, "dtype") and not hasattr(other, "__len__")):
            ov = [other] * len(self.entries)
        elif isinstance(other, (list, tuple)):
            return self._binop(Matrix(other), f, reverse)
        else:
            return NotImplemented
        a, b = (ov, self.entries) if reverse else (self.entries, ov)
        if compare:  # Python's bools, as Taichi's operator-module comparisons give (numpy shows a bool array)
            return Matrix._make(self.n, self.m, self.ndim, [bool(f(x, y)) for x, y in zip(a, b)])
        dt = self.dtype if not isinstance(other, Matrix) else (self.dtype or other.dtype)
        return Matrix._make(self.n, self.m, self.ndim, [_cast(f(x, y), dt) for x, y in zip(a, b)], dt)

    def _broadcast(self, other, f, reverse, compare):
        # Shapes that differ combine as numpy broadcasts them, as Taichi's
        # Python-scope operators do (they run on the matrices' numpy arrays):
        # a vec2 against a 2x2 matrix applies the vector to each row.
        import numpy as np
        a, b = np.array(self.to_list(), dtype=object), np.array(other.to_list(), dtype=object)
        if reverse:
            a, b = b, a
        try:
            a, b = np.broadcast_arrays(a, b)
        except ValueError:
            raise ValueError(f"shapes {self.get_shape()} and {other.get_shape()} do not match") from None
        if a.ndim > 2:
            raise ValueError(f"shapes {self.get_shape()} and {other.get_shape()} combine to {a.shape}, not a matrix")
        n, m = a.shape[0], (a.shape[1] if a.ndim == 2 else 1)
        vals = [f(x, y) for x, y in zip(a.flat, b.flat)]
        if compare:
            return Matrix._make(n, m, a.ndim, [bool(v) for v in vals])
        dt = self.dtype or other.dtype
        return Matrix._make(n, m, a.ndim, [_cast(v, dt) for v in vals], dt)

    def __add__(self, o): return self._binop(o, lambda a, b: a + b)
    def __radd__(self, o): return self._binop(o, lambda a, b: a + b, True)
    def __sub__(self, o): return self._binop(o, lambda a, b: a - b)
    def __rsub__(self, o): return self._binop(o, lambda a, b: a - b, True)
    def __mul__(self, o): return self._binop(o, lambda a, b: a * b)
    def __rmul__(self, o): return self._binop(o, lambda a, b: a * b, True)
    def __truediv__(self, o): return self._binop(o, lambda a, b: a / b)
    def __rtruediv__(self, o): return self._binop(o, lambda a, b: a / b, True)
    def __floordiv__(self, o): return self._binop(o, lambda a, b: a // b)
    def __rfloordiv__(self, o): return self._binop(o, lambda a, b: a // b, True)
    def __mod__(self, o): return self._binop(o, lambda a, b: a % b)
    def __rmod__(self, o): return self._binop(o, lambda a, b: a % b, True)
    def __pow__(self, o): return self._binop(o, lambda a, b: a ** b)
    def __rpow__(self, o): return self._binop(o, lambda a, b: a ** b, True)
    def __and__(self, o): return self._binop(o, lambda a, b: a & b)
    def __or__(self, o): return self._binop(o, lambda a, b: a | b)
    def __xor__(self, o): return self._binop(o, lambda a, b: a ^ b)
    def __lshift__(self, o): return self._binop(o, lambda a, b: a << b)
    def __rshift__(self, o): return self._binop(o, lambda a, b: a >> b)
    def __lt__(self, o): return self._binop(o, lambda a, b: a < b, compare=True)
    def __le__(self, o): return self._binop(o, lambda a, b: a <= b, compare=True)
    def __gt__(self, o): return self._binop(o, lambda a, b: a > b, compare=True)
    def __ge__(self, o): return self._binop(o, lambda a, b: a >= b, compare=True)
    def __eq__(self, o): return self._binop(o, lambda a, b: a == b, compare=True)
    def __ne__(self, o): return self._binop(o, lambda a, b: a != b, compare=True)

    __hash__ = None

    def __neg__(self): return self._map(lambda a: -a)
    def __pos__(self): return self._map(lambda a: a)
    def __abs__(self): return self._map(abs)
    def __invert__(self): return self._map(lambda a: ~a)

    def _map(self, f):
        return Matrix._make(self.n, self.m, self.ndim, [_cast(f(x), self.dtype) for x in self.entries], self.dtype)

    def __matmul__(self, o):
        if not isinstance(o, Matrix):
            o = Matrix(o)
        if self.ndim == 1 and o.ndim == 1:
            return self.dot(o)
        a = self if self.ndim == 2 else Matrix._make(1, self.n, 2, self.entries)
        b = o if o.ndim == 2 else Matrix._make(o.n, 1, 2, o.entries)
        if a.m != b.n:
            from ._errors import TaichiCompilationError
            raise TaichiCompilationError(f"dimension mismatch between {self.get_shape()} and {o.get_shape()} "
                                         "for matrix multiplication")
        out = [sum(a.entries[i * a.m + k] * b.entries[k * b.m + j] for k in range(a.m)) for i in range(a.n) for j in range(b.m)]
        if o.ndim == 1:
            return Matrix._make(a.n, 1, 1, out, self.dtype)
        if self.ndim == 1:
            return Matrix._make(b.m, 1, 1, out, self.dtype)
        return Matrix._make(a.n, b.m, 2, out, self.dtype or o.dtype)

    def __rmatmul__(self, o):
        return Matrix(o).__matmul__(self)

    # ---- methods
    def cast(self, dt):
        from ._types import dtype_of
        dt = dtype_of(dt)
        return Matrix._make(self.n, self.m, self.ndim, [_cast(x, dt) for x in self.entries], dt)

    def dot(self, o):
        o = o if isinstance(o, Matrix) else Matrix(o)
        return sum(a * b for a, b in zip(self.entries, o.entries))

    def cross(self, o):
        a, b = self.entries, o.entries
        if self.n == 2:
            return a[0] * b[1] - a[1] * b[0]
        return Vector([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]], dt=self.dtype)

    def outer_product(self, o):
        return Matrix([[a * b for b in o.entries] for a in self.entries], dt=self.dtype)

    def norm_sqr(self):
        return sum(x * x for x in self.entries)

    def norm(self, eps=0):
        return math.sqrt(self.norm_sqr() + eps)

    def norm_inv(self, eps=0):
        return 1.0 / self.norm(eps)

    def normalized(self, eps=0):
        return self * (1.0 / math.sqrt(self.norm_sqr() + eps))

    def sum(self):
        return sum(self.entries)

    def max(self):
        return max(self.entries)

    def min(self):
        return min(self.entries)

    def any(self):
        return any(self.entries)

    def all(self):
        return all(self.entries)

    def transpose(self):
        if self.ndim == 1:
            return Matrix._make(1, self.n, 2, self.entries, self.dtype)
        return Matrix._make(self.m, self.n, 2, [self.entries[i * self.m + j] for j in range(self.m) for i in range(self.n)], self.dtype)

    @property
    def T(self):
        return self.transpose()

    def trace(self):
        return sum(self.entries[i * self.m + i] for i in range(min(self.n, self.m)))

    def determinant(self):
        import numpy as np
        return float(np.linalg.det(np.array(self.to_list(), dtype=np.float64)))

    def inverse(self):
        import numpy as np
        return Matrix(np.linalg.inv(np.array(self.to_list(), dtype=np.float64)).tolist(), dt=self.dtype)

    def fill(self, v):
        self.entries = [_cast(v, self.dtype)] * len(self.entries)

    def copy(self):
        return Matrix._make(self.n, self.m, self.ndim, self.entries, self.dtype)

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    # ---- constructors (also known to kernels by name)
    @staticmethod
    def zero(dt, n, m=None):
        if m is None:
            return Vector([_cast(0, dt)] * n, dt=dt)
        return Matrix([[_cast(0, dt)] * m for _ in range(n)], dt=dt)

    @staticmethod
    def one(dt, n, m=None):
        if m is None:
            return Vector([_cast(1, dt)] * n, dt=dt)
        return Matrix([[_cast(1, dt)] * m for _ in range(n)], dt=dt)

    @staticmethod
    def identity(dt, n):
        return Matrix([[_cast(int(i == j), dt) for j in range(n)] for i in range(n)], dt=dt)

    @staticmethod
    def unit(n, i, dt=None):
        return Vector([int(k == i) if dt is None else _cast(int(k == i), dt) for k in range(n)], dt=dt)

    @staticmethod
    def rows(rows):
        return Matrix([r.to_list() if isinstance(r, Matrix) else list(r) for r in rows])

    @staticmethod
    def cols(cols):
        return Matrix([r.to_list() if isinstance(r, Matrix) else list(r) for r in cols]).transpose()

    @staticmethod
    def diag(dim, val):
        return Matrix([[val if i == j else 0 for j in range(dim)] for i in range(dim)])

    @classmethod
    def field(cls, n, m, dtype, shape=None, **kw):
        from ._field import Matrix_field
        return Matrix_field(n, m, dtype, shape=shape, **kw)

    @classmethod
    def ndarray(cls, n, m, dtype, shape, **kw):
        from ._ndarray import Ndarray
        return Ndarray(dtype, shape, n=n, m=m)


class Vector(Matrix):
    _kiln_builtin = "ti.Vector"

    def __init__(self, arr, dt=None, **kw):
        if isinstance(arr, Matrix):
            arr = arr.entries
        Matrix.__init__(self, list(_flatten_args([arr])), dt=dt, ndim=1)

    @classmethod
    def field(cls, n, dtype, shape=None, **kw):
        from ._field import Vector_field
        return Vector_field(n, dtype, shape=shape, **kw)

    @classmethod
    def ndarray(cls, n, dtype, shape, **kw):
        from ._ndarray import Ndarray
        return Ndarray(dtype, shape, n=n)

    @staticmethod
    def zero(dt, n):
        return Vector([_cast(0, dt)] * n, dt=dt)

    @staticmethod
    def one(dt, n):
        return Vector([_cast(1, dt)] * n, dt=dt)


def _make_from_kernel(n, m, dtype_name, vals):
    from ._types import _DT
    if m == 0:
        return Matrix._make(n, 1, 1, vals, _DT[dtype_name])
    return Matrix._make(n, m, 2, vals, _DT[dtype_name])


# The frontend knows these constructors by name inside kernels.
for _cls, _pre in ((Matrix, "ti.Matrix."), (Vector, "ti.Vector.")):
    for _n in ("zero", "one", "identity", "unit", "rows", "cols", "diag"):
        _f = _cls.__dict__.get(_n)
        if isinstance(_f, staticmethod):
            _f.__func__._kiln_builtin = _pre + _n
Vector.unit = staticmethod(lambda n, i, dt=None: Matrix.unit(n, i, dt))
Vector.__dict__["unit"].__func__._kiln_builtin = "ti.Vector.unit"
