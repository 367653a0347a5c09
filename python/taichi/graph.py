"""ti.graph: Taichi's compute graphs, a fixed sequence of kernel launches whose
arguments are named placeholders (ti.graph.Arg) bound at each run.

Taichi builds them for ahead-of-time export; here a compiled graph replays its
launches in order through the kernels' ordinary calls, so a graph computes
exactly what the same launches made one by one compute. Placeholders are
checked against the kernels' annotations when a graph is built, and the values
given to run() against the placeholders, each with a message naming both."""
import enum
import inspect

from ._errors import TaichiCompilationError, TaichiRuntimeError


class ArgKind(enum.Enum):
    SCALAR = 0
    NDARRAY = 1
    MATRIX = 2
    TEXTURE = 3
    RWTEXTURE = 4


_POSITIONAL = ("tag", "name", "dtype", "ndim", "field_dim", "element_shape", "channel_format", "shape", "num_channels")
_ALLOWED = {ArgKind.SCALAR: ("tag", "name", "dtype"),
            ArgKind.NDARRAY: ("tag", "name", "dtype", "ndim", "field_dim"),
            ArgKind.MATRIX: ("tag", "name", "dtype")}


class _Arg:
    """A named placeholder of a graph: its kind, element type and (ndarrays) ndim."""

    def __init__(self, tag, name, dtype, ndim, element_shape):
        self.tag, self.name, self.dtype, self.ndim, self.element_shape = tag, name, dtype, ndim, element_shape

    def _spec(self):
        return (self.tag, self.dtype, self.ndim, self.element_shape)

    def __repr__(self):
        return f"ti.graph.Arg({self.tag}, {self.name!r})"


def _element(dtype):
    """(scalar dtype, element shape) of a graph argument's dtype: ti.math.vec2 is (f32, (2,))."""
    from ._types import MatrixType, VectorType, dtype_of
    if isinstance(dtype, VectorType):
        shape = (dtype.n, dtype.m) if isinstance(dtype, MatrixType) and dtype.ndim == 2 else (dtype.n,)
        return dtype_of(float if dtype.dtype is None else dtype.dtype), shape  # ti.math.vec2: the default float
    return dtype_of(dtype), ()


def Arg(*args, **kwargs):
    """ti.graph.Arg(tag, name, dtype, ndim=...): a placeholder named `name`."""
    if len(args) > len(_POSITIONAL):
        raise TaichiRuntimeError(f"ti.graph.Arg takes at most {len(_POSITIONAL)} positional arguments, got {len(args)}")
    for k, v in zip(_POSITIONAL, args):
        if k in kwargs:
            raise TypeError(f"ti.graph.Arg got multiple values for argument '{k}'")
        kwargs[k] = v
    tag = kwargs.get("tag")
    if not isinstance(tag, ArgKind):
        raise TaichiRuntimeError(f"tag must be a ti.graph.ArgKind variant, but found {type(tag).__name__}")
    if tag not in _ALLOWED:
        raise TaichiRuntimeError(f"ti.graph.Arg: {tag} (textures) is not supported by Kiln")
    for k in kwargs:
        if k not in _ALLOWED[tag]:
            raise TaichiRuntimeError(f"Invalid argument: {k}, you can only create a graph argument with: {list(_ALLOWED[tag])}")
    name = kwargs.get("name")
    if not isinstance(name, str):
        raise TaichiRuntimeError(f"name must be a string, but found {type(name).__name__}")
    if "dtype" not in kwargs:
        raise TaichiRuntimeError(f"ti.graph.Arg '{name}' needs a dtype")
    dtype, shape = _element(kwargs["dtype"])
    if tag == ArgKind.SCALAR:
        if shape:
            raise TaichiRuntimeError(f"Tag ArgKind.SCALAR must specify a scalar type, but found {kwargs['dtype']}")
        return _Arg(tag, name, dtype, 0, ())
    if tag == ArgKind.MATRIX:
        if not shape:
            raise TaichiRuntimeError(f"Tag ArgKind.MATRIX must specify a matrix type, but got {kwargs['dtype']}")
        return _Arg(tag, name, dtype, 0, shape)
    if "field_dim" in kwargs:
        if "ndim" in kwargs:
            raise TaichiRuntimeError("field_dim is deprecated, please do not specify field_dim and ndim at the same time.")
        kwargs["ndim"] = kwargs["field_dim"]
    ndim = kwargs.get("ndim")
    if not isinstance(ndim, int) or isinstance(ndim, bool) or ndim < 0:
        raise TaichiRuntimeError(f"ti.graph.Arg '{name}': ndim must be a non-negative int, got {ndim!r}")
    return _Arg(tag, name, dtype, ndim, shape)


def _check_dispatch(kernel, args):
    """The placeholders of one launch against the kernel's annotations."""
    from ._kernel import Kernel, _BoundKernel
    from ._types import NdarrayType, dtype_of
    if isinstance(kernel, _BoundKernel):  # a data_oriented object's kernel: `self` is bound
        fn, skip = kernel.k.fn, 1
    elif isinstance(kernel, Kernel):
        fn, skip = kernel.fn, 0
    else:
        raise TaichiCompilationError(f"dispatch() takes a @ti.kernel, not {kernel!r}")
    params = list(inspect.signature(fn).parameters.values())[skip:]
    name = getattr(fn, "__name__", "kernel")
    if len(args) != len(params):
        raise TaichiCompilationError(f"kernel '{name}' takes {len(params)} arguments, the graph gives it {len(args)}")
    for p, a in zip(params, args):
        if not isinstance(a, _Arg):
            continue
        ann = p.annotation
        if isinstance(ann, NdarrayType):
            if a.tag != ArgKind.NDARRAY:
                raise TaichiCompilationError(f"graph argument '{a.name}' is a {a.tag.name.lower()}, but parameter "
                                             f"'{p.name}' of kernel '{name}' is an ndarray")
            if ann.ndim is not None and ann.ndim != a.ndim:
                raise TaichiCompilationError(f"graph argument '{a.name}' has ndim={a.ndim}, which doesn't match "
                                             f"kernel's annotated ndim={ann.ndim} (parameter '{p.name}' of '{name}')")
            if ann.dtype is not None:
                want, shape = _element(ann.dtype)
                if (want, shape) != (a.dtype, a.element_shape):
                    raise TaichiCompilationError(
                        f"graph argument '{a.name}' has dtype {a.dtype}{list(a.element_shape) or ''}, which doesn't match "
                        f"kernel's annotated dtype {ann.dtype} (parameter '{p.name}' of '{name}')")
        elif a.tag == ArgKind.NDARRAY:
            raise TaichiCompilationError(f"graph argument '{a.name}' is an ndarray, but parameter '{p.name}' of "
                                         f"kernel '{name}' is annotated {ann!r}")
        elif a.tag == ArgKind.SCALAR and ann is not inspect.Parameter.empty:
            try:
                want = dtype_of(ann)
            except (TypeError, ValueError, AttributeError):
                continue
            if want != a.dtype:
                raise TaichiCompilationError(f"graph argument '{a.name}' has dtype {a.dtype}, which doesn't match "
                                             f"kernel's annotated dtype {want} (parameter '{p.name}' of '{name}')")


class Sequential:
    """Launches that run in order, appended to a graph (maybe several times)."""

    def __init__(self):
        self._launches = []

    def dispatch(self, kernel_fn, *args):
        _check_dispatch(kernel_fn, args)
        self._launches.append((kernel_fn, args))


class GraphBuilder:
    def __init__(self):
        self._seq = Sequential()

    def dispatch(self, kernel_fn, *args):
        self._seq.dispatch(kernel_fn, *args)

    def create_sequential(self):
        return Sequential()

    def append(self, node):
        if not isinstance(node, Sequential):
            raise TaichiRuntimeError(f"GraphBuilder.append takes what create_sequential() made, not {node!r}")
        self._seq._launches.extend(node._launches)

    def compile(self):
        return Graph(list(self._seq._launches))


class Graph:
    """A compiled graph: run({name: value}) makes its launches in order."""

    def __init__(self, launches):
        self._launches = launches
        self._args = {}
        for _, args in launches:
            for a in args:
                if isinstance(a, _Arg):
                    seen = self._args.setdefault(a.name, a)
                    if seen._spec() != a._spec():
                        raise TaichiRuntimeError(f"two different graph arguments are named '{a.name}'")

    def run(self, args):
        from ._matrix import Matrix
        from ._ndarray import Ndarray
        if not isinstance(args, dict):
            raise TaichiRuntimeError(f"Graph.run takes a dict of argument names to values, not {type(args).__name__}")
        for name, a in self._args.items():
            if name not in args:
                raise TaichiRuntimeError(f"Graph.run: argument '{name}' is not given")
            v = args[name]
            if a.tag == ArgKind.NDARRAY:
                if not isinstance(v, Ndarray):
                    raise TaichiRuntimeError(f"Graph.run: argument '{name}' must be a ti.ndarray, got {type(v).__name__}")
                if len(v.shape) != a.ndim or (v.dtype, tuple(v.element_shape)) != (a.dtype, a.element_shape):
                    raise TaichiRuntimeError(
                        f"Graph.run: argument '{name}' is declared as an ndarray of {a.dtype}"
                        f"{list(a.element_shape) or ''} with ndim={a.ndim}, but got an ndarray with dtype={v.dtype}"
                        f"{list(v.element_shape) or ''}, ndim={len(v.shape)}")
            elif a.tag == ArgKind.MATRIX and not isinstance(v, Matrix):
                raise TaichiRuntimeError(f"Graph.run: argument '{name}' must be a ti.Matrix, got {type(v).__name__}")
            elif a.tag == ArgKind.SCALAR and (isinstance(v, bool) or not isinstance(v, (int, float))):
                raise TaichiRuntimeError(f"Graph.run: argument '{name}' must be a Python int or float, got {type(v).__name__}")
        for kernel_fn, launch_args in self._launches:
            kernel_fn(*(args[a.name] if isinstance(a, _Arg) else a for a in launch_args))


__all__ = ["GraphBuilder", "Graph", "Sequential", "Arg", "ArgKind"]
