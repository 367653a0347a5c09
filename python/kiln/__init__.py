"""Kiln from CPython: `import kiln as ti`.

Host code is real Python. Each @ti.kernel / @ti.func sends its source (taken
with `inspect`) to Kiln's own frontend, in a Kiln VM driven through the C API
(kiln._kiln). Before a kernel is compiled (its first call), the Python globals
it names are bound in the VM: fields, other kernels and funcs, dtypes and
types, Python numbers (compile-time constants, as in Taichi), and the
taichi / kiln, math and numpy modules. numpy arrays passed to
ti.types.ndarray() parameters, Field.to_numpy() and Field.from_numpy() go
through the buffer protocol without copies.

Supported: ti.init; ti.field / ti.Vector.field / ti.Matrix.field (element
get/set, to_numpy, from_numpy, fill, shape, dtype); kernels with scalar,
vector, matrix and ndarray parameters and scalar, vector or tuple returns;
ti.func; ti.root layouts; print inside kernels (interleaved with Python's
own output).
ti.template() parameters take fields and Python numbers. Not supported
(yet): struct arguments, ti.Vector.ndarray / ti.Matrix.ndarray, @ti.dataclass,
data-oriented classes, the GUI.
"""
import ast
import inspect
import linecache
import os
import re
import sys
import textwrap

# _kiln brings mimalloc (Kiln's runtime allocator) into the process. Loaded
# privately (Python's default), libraries loaded after it, such as the Vulkan
# driver kiln.capabilities() probes, end up mixing glibc's and mimalloc's
# malloc/free and crash; loaded globally, every library agrees.
_flags = sys.getdlopenflags()
sys.setdlopenflags(_flags | os.RTLD_GLOBAL)
try:
    from . import _kiln
finally:
    sys.setdlopenflags(_flags)

__version__ = _kiln.version

_VM = None          # the current VM (ti.init makes a new one)
_bound = {}         # name -> the Python object bound under it in _VM
_counter = [0]
_defaults = {}     # what `int` / `float` annotations mean (ti.init's default_ip / default_fp)


# ---- dtypes and types -------------------------------------------------------

class DataType:
    def __init__(self, name):
        self.name = name
        self.code = _kiln.dtypes[name]
        self._expr = "__kiln_ti." + name

    def __repr__(self):
        return self.name

    def __call__(self, x):  # ti.f32(1) on the host: a cast
        return float(x) if self.name[0] in "fb" else int(x)


i8, i16, i32, i64 = DataType("i8"), DataType("i16"), DataType("i32"), DataType("i64")
u8, u16, u32, u64 = DataType("u8"), DataType("u16"), DataType("u32"), DataType("u64")
f16, f32, f64 = DataType("f16"), DataType("f32"), DataType("f64")
int8, int16, int32, int64 = i8, i16, i32, i64
uint8, uint16, uint32, uint64 = u8, u16, u32, u64
float16, float32, float64 = f16, f32, f64


class _Arch:
    def __init__(self, name):
        self.name = name
        self._expr = "__kiln_ti." + name

    def __repr__(self):
        return self.name


cpu, x64, arm64, gpu, cuda, vulkan, metal, opengl = (
    _Arch(n) for n in ("cpu", "x64", "arm64", "gpu", "cuda", "vulkan", "metal", "opengl"))


class _VectorType:
    """ti.types.vector(n, dtype) / ti.types.matrix(n, m, dtype)."""

    def __init__(self, n, m, dtype, expr):
        self.n, self.m, self.dtype, self._expr = n, m, dtype, expr

    def __repr__(self):
        return self._expr


class _NdarrayType:
    def __init__(self, dtype=None, ndim=None, **kw):
        self.dtype, self.ndim = dtype, ndim
        args = []
        if dtype is not None:
            args.append("dtype=" + _expr_of(dtype))
        if ndim is not None:
            args.append("ndim=%d" % ndim)
        self._expr = "__kiln_ti.types.ndarray(%s)" % ", ".join(args)


class _Template:
    _expr = "__kiln_ti.template()"


def template():
    return _Template()


class _Types:
    @staticmethod
    def ndarray(dtype=None, ndim=None, **kw):
        return _NdarrayType(dtype, ndim, **kw)

    @staticmethod
    def vector(n, dtype):
        return _VectorType(n, 0, dtype, "__kiln_ti.types.vector(%d, %s)" % (n, _expr_of(dtype)))

    @staticmethod
    def matrix(n, m, dtype):
        return _VectorType(n, m, dtype, "__kiln_ti.types.matrix(%d, %d, %s)" % (n, m, _expr_of(dtype)))

    template = staticmethod(template)
    f16, f32, f64, i8, i16, i32, i64 = f16, f32, f64, i8, i16, i32, i64
    u8, u16, u32, u64 = u8, u16, u32, u64


types = _Types()


class _Math:
    pass


math = _Math()
for _n in (2, 3, 4):
    for _pre, _dt in (("", f32), ("i", i32), ("u", u32)):
        setattr(math, "%svec%d" % (_pre, _n), _VectorType(_n, 0, _dt, "__kiln_ti.math.%svec%d" % (_pre, _n)))
    setattr(math, "mat%d" % _n, _VectorType(_n, _n, f32, "__kiln_ti.math.mat%d" % _n))


def _expr_of(v):
    """The Kiln source text naming a Python-side kiln object or constant."""
    if hasattr(v, "_expr"):
        return v._expr
    if v is float or v is int:  # ti.field(float, ...): default_fp / default_ip
        return v.__name__
    if isinstance(v, (bool, int, float)):
        return repr(v)
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, (tuple, list)):
        inner = ", ".join(_expr_of(x) for x in v)
        if isinstance(v, list):
            return "[%s]" % inner
        return "(%s,)" % inner if len(v) == 1 else "(%s)" % inner
    if v is None:
        return "None"
    raise TypeError("kiln: cannot pass %r to the Kiln VM" % (v,))


# ---- the VM -----------------------------------------------------------------

def init(arch=None, debug=False, **kwargs):
    """ti.init: a fresh VM (fields and kernels of the previous one are gone)."""
    global _VM
    _VM = _kiln.VM(None, 1 if debug else 0, int(kwargs.pop("cpu_max_num_threads", 0)))
    _bound.clear()
    _defaults["ip"] = kwargs.get("default_ip", i32)
    _defaults["fp"] = kwargs.get("default_fp", f32)
    args = []
    if arch is not None:
        args.append("arch=" + _expr_of(arch))
    if debug:
        args.append("debug=True")
    for k, v in kwargs.items():
        args.append("%s=%s" % (k, _expr_of(v)))
    _VM.load("<kiln.init>", "import taichi as __kiln_ti\n__kiln_ti.init(%s)\n" % ", ".join(args))


def _vm():
    if _VM is None:  # first use without ti.init: the defaults
        init()
    return _VM


def _run(source, name="<kiln>"):
    _vm().load(name, source)


def _fresh(prefix):
    _counter[0] += 1
    return "__kiln_%s%d" % (prefix, _counter[0])


# ---- fields -------------------------------------------------------------------

def _shape_tuple(shape):
    if shape is None:
        return ()
    if isinstance(shape, int):
        return (shape,)
    return tuple(int(s) for s in shape)


_NP_NAMES = {"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8", "u16": "uint16",
             "u32": "uint32", "u64": "uint64", "f16": "float16", "f32": "float32", "f64": "float64"}


class Field:
    """A field living in the Kiln VM; kernels see it under its Python name."""

    def __init__(self, ctor):
        self._name = _fresh("field")
        self._vm_owner = _vm()
        _run("%s = %s\n" % (self._name, ctor))
        self._expr = self._name
        self._handle = self._vm_owner.field(self._name)
        self._info = None

    _kind = 0  # 0 scalar, 1 vector, 2 matrix

    def _meta(self):
        # Asked lazily: the VM lays fields out (materializes) when first asked.
        if self._info is None:
            code, shape, n, m = self._handle.info()
            dtype = next(d for d in _ALL_DTYPES if d.code == code)
            comp = () if self._kind == 0 else ((n,) if self._kind == 1 else (n, m))
            self._info = (dtype, shape, n, m, comp)
        return self._info

    dtype = property(lambda self: self._meta()[0])
    shape = property(lambda self: self._meta()[1])
    n = property(lambda self: self._meta()[2])
    m = property(lambda self: self._meta()[3])
    _comp = property(lambda self: self._meta()[4])

    def _index(self, key):
        if key is None:
            return []
        if not isinstance(key, tuple):
            key = (key,)
        return [int(k) for k in key]

    def __getitem__(self, key):
        idx = self._index(key)
        if not self._comp:
            return self._handle.get(idx)
        if self._kind == 1:
            return [self._handle.get(idx + [r]) for r in range(self.n)]
        return [[self._handle.get(idx + [r, c]) for c in range(self.m)] for r in range(self.n)]

    def __setitem__(self, key, value):
        idx = self._index(key)
        if not self._comp:
            self._handle.set(idx, self.dtype.code, value)
        elif self._kind == 1:
            for r in range(self.n):
                self._handle.set(idx + [r], self.dtype.code, value[r])
        else:
            for r in range(self.n):
                for c in range(self.m):
                    self._handle.set(idx + [r, c], self.dtype.code, value[r][c])

    def to_numpy(self, dtype=None):
        import numpy as np
        out = np.empty(self.shape + self._comp, dtype=_NP_NAMES[self.dtype.name])
        self._handle.copy_to(out)
        return out if dtype is None else out.astype(dtype)

    def from_numpy(self, arr):
        import numpy as np
        a = np.ascontiguousarray(arr, dtype=_NP_NAMES[self.dtype.name])
        if a.shape != self.shape + self._comp:
            raise ValueError("from_numpy: the field has shape %s, the array %s" % (self.shape + self._comp, a.shape))
        self._handle.copy_from(a)

    def fill(self, value):
        _run("%s.fill(%s)\n" % (self._name, _expr_of(value)))

    def __str__(self):
        return str(self.to_numpy())


class _VectorField(Field):
    _kind = 1


class _MatrixField(Field):
    _kind = 2


_ALL_DTYPES = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]


def _assigned_name():
    """The variable the user's `x = ti.field(...)` line assigns (Kiln names
    fields after it in messages, as `kiln run` does), or None."""
    f = inspect.currentframe()
    while f is not None and f.f_globals.get("__name__") == __name__:
        f = f.f_back
    if f is None:
        return None
    m = re.match(r"\s*([A-Za-z_]\w*)\s*=[^=]", linecache.getline(f.f_code.co_filename, f.f_lineno))
    return m.group(1) if m else None


def _field_args(dtype, shape, kw):
    if "name" not in kw:
        name = _assigned_name()
        if name:
            kw = dict(kw, name=name)
    # no shape: a field for ti.root.<...>.place() to lay out
    args = [_expr_of(dtype)] + ([] if shape is None else ["shape=" + _expr_of(_shape_tuple(shape))])
    for k, v in kw.items():
        args.append("%s=%s" % (k, _expr_of(v)))
    return ", ".join(args)


def field(dtype, shape=None, **kw):
    return Field("__kiln_ti.field(%s)" % _field_args(dtype, shape, kw))


class Vector:
    def __new__(cls, values, dt=None):
        """A host vector: a numpy array (kernels take it for vector parameters)."""
        import numpy as np
        return np.array(values, dtype=None if dt is None else _NP_NAMES[dt.name])

    @staticmethod
    def field(n, dtype, shape=None, **kw):
        return _VectorField("__kiln_ti.Vector.field(%d, %s)" % (n, _field_args(dtype, shape, kw)))


class Matrix:
    def __new__(cls, values, dt=None):
        import numpy as np
        return np.array(values, dtype=None if dt is None else _NP_NAMES[dt.name])

    @staticmethod
    def field(n, m, dtype, shape=None, **kw):
        return _MatrixField("__kiln_ti.Matrix.field(%d, %d, %s)" % (n, m, _field_args(dtype, shape, kw)))


# ---- ti.ndarray: host arrays kernels take by reference ---------------------------

class Ndarray:
    """ti.ndarray(dtype, shape): a numpy array underneath, passed to kernels
    without a copy (ti.Vector.ndarray / ti.Matrix.ndarray are not supported:
    pass numpy arrays with trailing element axes to typed annotations)."""

    def __init__(self, dtype, shape):
        import numpy as np
        self.dtype = dtype
        self.shape = _shape_tuple(shape)
        self._arr = np.zeros(self.shape, dtype=_NP_NAMES[dtype.name])

    def __getitem__(self, key):
        return self._arr[key].item()

    def __setitem__(self, key, value):
        self._arr[key] = value

    def fill(self, value):
        self._arr.fill(value)

    def to_numpy(self):
        return self._arr.copy()

    def from_numpy(self, arr):
        self._arr[...] = arr


def ndarray(dtype, shape):
    return Ndarray(dtype, shape)


# ---- layouts: ti.root and its SNodes ---------------------------------------------

class _Axes:
    def __init__(self, name):
        self._expr = "__kiln_ti." + name


i, j, k, l, ij, ik, il, jk, jl, kl, ijk, ijkl = (
    _Axes(n) for n in ("i", "j", "k", "l", "ij", "ik", "il", "jk", "jl", "kl", "ijk", "ijkl"))


class _SNode:
    """An SNode in the VM. Every method runs there at once: the ones that
    make SNodes (dense, pointer, ...) name the result in the VM and return
    it; place() and the others return None."""
    _MAKERS = ("dense", "pointer", "bitmasked", "dynamic", "hash", "bit_struct", "quant_array")

    def __init__(self, expr):
        self._expr = expr

    def __getattr__(self, method):
        if method.startswith("_"):
            raise AttributeError(method)

        def call(*args, **kw):
            text = "%s.%s(%s)" % (self._expr, method, ", ".join(
                [_expr_of(a) for a in args] + ["%s=%s" % (k, _expr_of(v)) for k, v in kw.items()]))
            if method in _SNode._MAKERS:
                name = _fresh("snode")
                _run("%s = %s\n" % (name, text))
                return _SNode(name)
            _run(text + "\n")

        return call


class _Root:
    def __getattr__(self, method):
        if method.startswith("_"):
            raise AttributeError(method)
        return getattr(_SNode("__kiln_ti.root"), method)

    _expr = "__kiln_ti.root"


root = _Root()


def print_statistics():
    _run("__kiln_ti.print_statistics()\n")


# ---- kernels and funcs ----------------------------------------------------------

def _names_in(fn):
    """Every name fn's source mentions (body, annotations, defaults)."""
    try:
        src = textwrap.dedent(inspect.getsource(fn))
    except OSError:
        raise OSError("kiln: the source of %s() is not available (kernels and funcs must be defined in a file, "
                      "not in `python -c` or a bare interactive session)" % fn.__name__) from None
    return {n.id for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Name)}


def _source_of(fn, decorator):
    """fn's source for the VM: its own decorators replaced by `decorator`,
    padded so that line numbers in Kiln's messages are the file's."""
    lines, first = inspect.getsourcelines(fn)
    lines = textwrap.dedent("".join(lines)).splitlines(True)
    k = next(i for i, line in enumerate(lines) if line.lstrip().startswith("def "))
    # the decorator goes on the line just above `def`: blank the others
    body = ["\n"] * max(k - 1, 0) + [decorator + "\n"] + lines[k:]
    pad = first - 1 - (1 if k == 0 else 0)
    return "\n" * max(pad, 0) + "".join(body), inspect.getsourcefile(fn) or "<kiln>"


def _bind_globals(fn):
    """Binds in the VM the Python globals fn's code names (see the module doc)."""
    g = dict(fn.__globals__)
    g.update(inspect.getclosurevars(fn).nonlocals)  # a kernel defined in a function sees its locals
    this = sys.modules[__name__]
    lines = []
    for name in sorted(_names_in(fn)):
        if name not in g:
            continue
        v = g[name]
        if _bound.get(name) is v:
            continue
        if v is this:
            lines.append("import taichi as %s" % name)
        elif inspect.ismodule(v) and v.__name__ in ("math", "numpy"):
            lines.append("import %s as %s" % (v.__name__, name))
        elif isinstance(v, (_Kernel, _Func)):
            v._define()
            if name != v._fn.__name__:
                lines.append("%s = %s" % (name, v._fn.__name__))
        elif isinstance(v, (bool, int, float)) or hasattr(v, "_expr"):
            lines.append("%s = %s" % (name, _expr_of(v)))
        else:
            continue
        _bound[name] = v
    if lines:
        _run("\n".join(lines) + "\n", "<kiln.globals>")


class _Func:
    def __init__(self, fn):
        self._fn = fn
        self._vm_owner = None
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__

    def _define(self):
        if self._vm_owner is _vm():
            return
        self._vm_owner = _vm()
        _bind_globals(self._fn)
        src, path = _source_of(self._fn, "@__kiln_ti.func")
        _run(src, path)

    def __call__(self, *args):
        raise RuntimeError("kiln: a ti.func can only be called from a kernel or another ti.func")


def _spec(ann):
    """How _kiln passes an argument for annotation `ann`."""
    if isinstance(ann, DataType):
        return (ann.code,)
    if isinstance(ann, _NdarrayType):
        return (_kiln.ARRAY,)
    if isinstance(ann, _VectorType):
        return (_kiln.VECTOR, ann.dtype.code, ann.n, ann.m)
    if isinstance(ann, _Template) or ann is template:
        return (_kiln.TEMPLATE,)
    if ann is int:
        return (_defaults["ip"].code,)
    if ann is float:
        return (_defaults["fp"].code,)
    raise TypeError("kiln: parameters annotated %r cannot be passed from Python (use scalar, vector, matrix or "
                    "ndarray annotations; fields are used as globals)" % (ann,))


class _Kernel(_Func):
    def __init__(self, fn):
        super().__init__(fn)
        self._handle = None
        sig = inspect.signature(fn)
        self._params = list(sig.parameters.values())
        self._ret = sig.return_annotation

    def _define(self):
        if self._vm_owner is _vm() and self._handle is not None:
            return
        self._vm_owner = _vm()
        _bind_globals(self._fn)
        src, path = _source_of(self._fn, "@__kiln_ti.kernel")
        _run(src, path)
        self._handle = _vm().kernel(self._fn.__name__)
        self._specs = [_spec(p.annotation) for p in self._params]

    def __call__(self, *args, **kwargs):
        if kwargs:
            args = inspect.signature(self._fn).bind(*args, **kwargs).args
        self._define()
        if len(args) != len(self._params):
            raise TypeError("%s() takes %d arguments, got %d" % (self._fn.__name__, len(self._params), len(args)))
        args = [self._pass(s, a) for s, a in zip(self._specs, args)]
        rets = self._handle.call(self._specs, args)
        r = self._ret
        if r is inspect.Signature.empty or r is None:
            return None
        if isinstance(r, tuple):
            return tuple(rets)
        if isinstance(r, _VectorType):
            return rets if not r.m else [rets[i * r.m:(i + 1) * r.m] for i in range(r.n)]
        return rets[0]


def _pass(spec, a):
    """A Python argument as _kiln takes it for `spec`."""
    if isinstance(a, Field):
        return a._handle
    if isinstance(a, Ndarray):
        return a._arr
    if spec[0] == _kiln.VECTOR and not isinstance(a, (list, tuple)):
        import numpy as np
        return np.asarray(a).ravel().tolist()  # a host ti.Vector / ti.Matrix (numpy)
    return a


_Kernel._pass = staticmethod(_pass)


def kernel(fn):
    return _Kernel(fn)


def func(fn):
    return _Func(fn)


def capabilities():
    """Engines and their dtypes, and the Vulkan / CUDA devices found at run time."""
    return _kiln.capabilities()


def __getattr__(name):
    raise AttributeError("kiln: ti.%s is not available in Python host code (it may be used inside kernels)" % name)
