"""Zero-copy export of fields and ndarrays: the buffer protocol (through
taichi._core, which calls `_kiln_buffer`), `__dlpack__`, and outer-axis slices
(`x[a:b]`, **Kiln**), so that `memoryview(x)`, `np.asarray(x)` and mpi4py's
`comm.Sendrecv(x[1:2], ...)` read and write the field's own memory.

A consumer that needs one contiguous block (mpi4py asks for that) gets a clear
BufferError naming the object and its layout when the layout is strided."""
from . import _core


def check_contiguous(arr, need, what):
    """`arr` (a numpy array over the memory) as the buffer a consumer asked for:
    need is "C", "F", "A" (either) or None (strides accepted). what() names
    the object for the error (built only then: halo exchanges call this per message)."""
    flags = arr.flags
    c, f = flags.c_contiguous, flags.f_contiguous
    if need is None or (need == "C" and c) or (need == "F" and f) or (need == "A" and (c or f)):
        return arr
    what = what()
    order = {"C": "row-major (C)", "F": "column-major (Fortran)", "A": "contiguous"}[need]
    raise BufferError(f"{what} is not one {order} block of memory: its element strides are "
                      f"{tuple(arr.strides)} bytes for shape {tuple(arr.shape)}. Send a slice of the outer axis "
                      "of a row-major field (x[a:b]), or a copy (x.to_numpy())")


def describe(x):
    """'field 'T' of shape (8, 8)' for error messages."""
    kind = type(x).__name__
    kind = {"ScalarField": "field", "MatrixField": "vector/matrix field", "Ndarray": "ndarray"}.get(kind, kind)
    name = getattr(x, "name", "") or ""
    return f"{kind}{f' {name!r}' if name else ''} of shape {tuple(x.shape)}"


def field_memory(x):
    """A numpy array that is the memory of field x (scalar or vector/matrix): shape
    x.shape + element shape, the layout's strides. Raises ValueError for sparse or
    split layouts (no single strided block). Kept on the field while its program
    lives (a field's memory never moves once allocated), since halo exchanges ask
    for it on every message."""
    gen = _core.generation()
    cached = x.__dict__.get("_kiln_memory_of")
    if cached is not None and cached[0] == gen and cached[1] is not None:
        x.shape  # raises for a field whose tree was destroyed
        return cached[1]
    arr = _core.field_array(x._components(), x._elem_shape())
    x.__dict__["_kiln_memory_of"] = (gen, arr)
    return arr


def outer_range(x, key):
    """(start, stop) of `x[a:b]` in x's own indices (a field's offset included;
    no wrap-around of negative indices: Taichi fields have none)."""
    what = describe(x)
    if not isinstance(key, slice):
        raise IndexError(f"{what}: only a range of the outer axis can be sliced (x[a:b]), not {key!r}")
    if key.step not in (None, 1):
        raise IndexError(f"{what}: a slice must have step 1 to be one block of memory, not {key.step}")
    lo = 0
    offsets = getattr(x, "_offset", None)
    if callable(offsets):
        lo = offsets()[0]
    hi = lo + x.shape[0]
    start = lo if key.start is None else int(key.start)
    stop = hi if key.stop is None else int(key.stop)
    if not lo <= start <= stop <= hi:
        raise IndexError(f"{what}: slice [{start}:{stop}] is outside its outer axis [{lo}:{hi}]")
    return start - lo, stop - lo


class Slice(_core.BufferExporter):
    """x[a:b]: rows a..b-1 of a field or ndarray, as a view of its memory (no copy)."""

    def __init__(self, owner, key):
        self._owner = owner
        self._start, self._stop = outer_range(owner, key)
        self._key = key

    @property
    def shape(self):
        return (self._stop - self._start,) + tuple(self._owner.shape[1:])

    def _memory(self):
        return self._owner._kiln_memory()[self._start:self._stop]

    def _kiln_buffer(self, need):
        return check_contiguous(self._memory(), need, lambda: f"{describe(self._owner)}[{self._key.start}:{self._key.stop}]")

    def __dlpack__(self, stream=None):
        return self._memory().__dlpack__()

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0

    def to_numpy(self):
        return self._memory().copy()

    def __repr__(self):
        return f"<{describe(self._owner)}[{self._key.start}:{self._key.stop}]>"
