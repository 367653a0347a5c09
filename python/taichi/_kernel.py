"""@ti.kernel, @ti.func, @ti.data_oriented on CPython.

A kernel's source (inspect) is parsed by Kiln's own parser, placed at its
real lines and columns so that every diagnostic points at the user's file;
compiling and launching happen in taichi._core (python/core/kernel.cpp)."""
import functools
import inspect
import linecache
import re

from . import _core, _state, profiler
from ._errors import TaichiSyntaxError
from ._report import shown_path


_DEF_START = re.compile(r"^(\s*def\s)|(\s*async\s+def\s)|(.*(?<!\w)lambda(:|\s))|^(\s*@)")


def _source_lines(fn):
    """inspect.getsourcelines(fn) for a function, with the block's end found by
    Kiln's lexer (_core.def_block_lines): inspect's pure-Python tokenizer takes
    ~30 us a line, a third of a second for a kernel of 10^4 lines. Anything
    unusual (no file, a lexer error) goes to inspect itself."""
    code = getattr(fn, "__code__", None)
    path = code and inspect.getsourcefile(fn)
    lines = path and linecache.getlines(path, fn.__globals__)
    if lines:
        lnum = code.co_firstlineno - 1  # a decorator's line, or the def's
        while 0 < lnum < len(lines) and not _DEF_START.match(lines[lnum]):
            lnum -= 1
        if lnum < len(lines) and _DEF_START.match(lines[lnum]):
            n = _core.def_block_lines("".join(lines[lnum:]))
            if n:
                return lines[lnum:lnum + n], lnum + 1
    return inspect.getsourcelines(fn)


def _source_of(fn):
    fn = inspect.unwrap(fn)
    try:
        lines, start = _source_lines(fn)
    except (OSError, TypeError) as e:
        raise TaichiSyntaxError(
            f"cannot find the source of '{fn.__name__}': kernels and ti.funcs must be defined in a file "
            f"(or at Kiln's REPL), not built with exec() or typed into python3's own prompt ({e})") from None
    # Kiln's messages show the path relative to the current directory when under it.
    path = shown_path(inspect.getsourcefile(fn) or fn.__code__.co_filename)
    first = lines[0]
    indent = len(first) - len(first.lstrip())
    if indent and start > 1:
        text = "\n" * (start - 2) + "if 1:\n" + "".join(lines)
    elif indent:
        import textwrap
        text = textwrap.dedent("".join(lines))
    else:
        text = "\n" * (start - 1) + "".join(lines)
    return text, path


def _parse(fn):
    """The parsed def of `fn`, kept on the function itself: kernels compiled
    from it point into this tree, and the function is what they hold."""
    ast = getattr(fn, "__kiln_ast__", None)
    if ast is None:
        text, path = _source_of(fn)
        ast = _core.parse_function(text, path, fn.__name__)
        try:
            fn.__kiln_ast__ = ast
        except (AttributeError, TypeError):
            raise TypeError(f"cannot use {fn!r} as a kernel or ti.func") from None
    return ast


def _qualname(fn):
    parts = fn.__qualname__.split(".")
    parts = [p for p in parts if p != "<locals>"]
    return ".".join(parts[-2:]) if len(parts) > 1 and parts[-2][:1].isupper() else parts[-1]


class AutodiffMode:
    """Taichi's taichi.lang.enums.AutodiffMode: which kernel a launch runs."""
    NONE = "none"
    VALIDATION = "validation"
    FORWARD = "forward"
    REVERSE = "reverse"


def _in_class_body(fn):
    """Whether fn was defined in a class body (its qualname's parent is a class,
    not a function's <locals>)."""
    parts = fn.__qualname__.split(".")
    return len(parts) > 1 and parts[-2] != "<locals>"


class Kernel(_core.KernelBase):
    """A @ti.kernel: compiled per (template arguments, argument types) at its calls.

    Its call is _core.KernelBase's (python/core/kernel_method.cpp): a launch
    in C, with _call below for every case it does not take. So is its
    __get__: on an instance (a kernel method), a _BoundKernel."""

    def __init__(self, fn):
        self.fn = fn
        self._in_class = _in_class_body(fn)  # a method: its class must be @ti.data_oriented
        self._core = None
        self.autodiff_mode = AutodiffMode.NONE  # VALIDATION while a validating Tape records it
        functools.update_wrapper(self, fn)

    def _get_core(self):
        if self._core is None:
            self._ast = _parse(self.fn)
            self._core = _core.KernelCore(self.fn, self._ast, _qualname(self.fn))
        return self._core

    def _call(self, *args, **kw):
        # The call (KernelBase's, in C) runs the common case and calls this
        # method for every other.
        c = self._core or self._get_core()
        if _state.tape is not None or _state.fwd is not None:
            return _ad_call(self, c, args, kw)
        if _state.config["kernel_profiler"]:
            return profiler._timed(c, self.fn.__name__, args, kw)
        return c(*args, **kw)

    def _kiln_static(self):
        self._get_core()
        return ("kernel", self._ast.def_ptr, self.fn, _qualname(self.fn))

    def grad(self, *args, **kw):
        """The kernel's adjoint (reverse mode): gradients flow from the .grad of
        what it wrote to the .grad of what it read."""
        c = self._core or self._get_core()
        return c.call_mode(1, *args, **kw)


_core.kernel_class(Kernel, Kernel._call)


class _BoundKernel(_core.BoundKernelBase):
    """A kernel method looked up on its instance (Kernel.__get__): `k` the
    Kernel, `obj` the instance. Its call is _core.BoundKernelBase's: the
    launch in C once an earlier call compiled the kernel for this object,
    with _call below for every other case."""
    __slots__ = ()

    def _call(self, *args, **kw):
        # As Taichi: a kernel method needs its class marked @ti.data_oriented
        # (that is what lets the kernel read the instance's fields as templates).
        if self.k._in_class and not getattr(type(self.obj), "_data_oriented", False):
            raise TaichiSyntaxError(f"Please decorate class {type(self.obj).__name__} with @ti.data_oriented")
        c = self.k._core or self.k._get_core()
        if _state.tape is not None or _state.fwd is not None:
            return _ad_call(self, c, (self.obj,) + args, kw, args)
        if _state.config["kernel_profiler"]:
            return profiler._timed(c, self.k.fn.__name__, (self.obj,) + args, kw)
        return c(self.obj, *args, **kw)

    def grad(self, *args, **kw):
        return self.k.grad(self.obj, *args, **kw)

    def _kiln_static(self):
        return self.k._kiln_static()


_core.bound_kernel_class(_BoundKernel, _BoundKernel._call)


def _ad_call(kernel, c, args, kw, recorded=None):
    """A launch inside ti.ad.FwdMode (the dual kernel runs) or ti.ad.Tape
    (recorded; under validation=True the kernel checks the global data access rule)."""
    if _state.fwd is not None:
        return c.call_mode(2, *args, **kw)
    tape = _state.tape
    if _state.grad_replaced == 0:
        tape.insert(kernel, recorded if recorded is not None else args)
        if tape.validation:
            return c.call_mode(3, *args, **kw)
    return c(*args, **kw)


class Func:
    """A @ti.func: inlined into the kernels that call it."""

    def __init__(self, fn, is_real=False):
        self.fn = fn
        self._ast = None
        self._is_real = is_real
        functools.update_wrapper(self, fn)

    def _kiln_static(self):
        if self._ast is None:
            self._ast = _parse(self.fn)
        return ("real_func" if self._is_real else "func", self._ast.def_ptr, self.fn, _qualname(self.fn))

    def __get__(self, obj, objtype=None):
        return self

    def __call__(self, *args, **kw):
        from ._errors import TaichiSyntaxError as E
        raise E(f"Taichi functions cannot be called from Python-scope: '{self.fn.__name__}' is a @ti.func; "
                "call it from a @ti.kernel")


def _capture_scope(fn, depth):
    """Names of the scope a kernel is defined in (a function's locals), for
    the names its annotations use: CPython evaluates `x: dt` at the def and
    keeps no closure cell for `dt`. Globals stay live; these are a snapshot."""
    import sys
    f = sys._getframe(depth + 1)
    if f.f_locals is not f.f_globals:
        try:
            fn.__kiln_locals__ = dict(f.f_locals)
        except (AttributeError, TypeError):
            pass
    return fn


def kernel(fn=None, **kw):
    if fn is None:
        return lambda f: Kernel(_capture_scope(f, 1))
    return Kernel(_capture_scope(fn, 1))


def func(fn=None, is_real_function=False):
    if fn is None:
        return lambda f: Func(_capture_scope(f, 1), is_real_function)
    return Func(_capture_scope(fn, 1), is_real_function)


def real_func(fn=None):
    """@ti.real_func: compiled once and called at run time (it may recurse)."""
    if fn is None:
        return lambda f: Func(_capture_scope(f, 1), True)
    return Func(_capture_scope(fn, 1), True)


def pyfunc(fn):
    """@ti.pyfunc: callable from both scopes (inlined in kernels, plain Python on the host)."""
    f = Func(fn)
    f.__call__ = fn
    w = _PyFunc(fn)
    return w


class _PyFunc(Func):
    def __call__(self, *args, **kw):
        return self.fn(*args, **kw)


def data_oriented(cls):
    cls._data_oriented = True
    return cls


def flatten_arg(ann, value, name):
    """A compound kernel argument as its scalar slots, in the type's order."""
    from ._types import VectorType, StructType
    from ._matrix import Matrix, _flatten_args
    if isinstance(ann, StructType):
        out = []
        for k, t in ann.members.items():
            if hasattr(value, "_entries"):
                v = value._entries[k]
            elif isinstance(value, dict):
                v = value[k]
            else:
                v = getattr(value, k)
            if isinstance(t, (VectorType, StructType)):
                out.extend(flatten_arg(t, v, name))
            else:
                out.append(v)
        return out
    vals = _flatten_args([value])
    want = ann.n * (ann.m if ann.ndim == 2 else 1)
    if len(vals) != want:
        raise ValueError(f"argument '{name}' needs {want} components, got {len(vals)}")
    return vals
