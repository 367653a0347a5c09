"""Fields: scalar fields (a taichi._core.FieldCore: x[i, j] goes straight to
memory), vector/matrix fields (one scalar field per component, placed
together as Taichi does) and struct fields. The SNode tree they are placed
in (ti.root.dense(...).place(...)) is _snode.py."""
from . import _core, _export
from ._snode import SNode, Axis, root, _axes, _offset_tuple, _AXIS_NAMES
from ._types import DataType, VectorType, StructType, dtype_of, is_float
from .types.quant import QuantType


def _shape_tuple(shape):
    if shape is None:
        return None
    if hasattr(shape, "__index__"):
        return (int(shape),)
    if isinstance(shape, (tuple, list)) and all(hasattr(s, "__index__") for s in shape):
        return tuple(int(s) for s in shape)
    bad = shape if not isinstance(shape, (tuple, list)) else next(s for s in shape if not hasattr(s, "__index__"))
    raise TypeError(f"field shape must be an int or a tuple of ints, not '{type(bad).__name__}'")


class ScalarField(_core.FieldCore):
    """A scalar field (ti.field)."""

    def _kiln_static(self):
        return ("field", self)

    @property
    def shape(self):
        return _core.field_shape(self)

    @property
    def dtype(self):
        from ._types import _DT
        return _DT[_core.field_dtype(self)]

    @property
    def name(self):
        return _core.field_name(self)

    _name = name  # Taichi's spelling

    @property
    def snode(self):
        s = _core.field_snode(self)
        if s is None:
            raise RuntimeError(f"field '{self.name}' is not placed yet")
        return SNode(s)

    def parent(self, n=1):
        return self.snode.parent(n)

    def fill(self, v):
        _core.fill(self, v)

    def to_numpy(self, dtype=None):
        a = _core.to_numpy([self], ())
        return a if dtype is None else a.astype(dtype)

    def from_numpy(self, arr):
        name = _core.field_name(self)
        what = f"from_numpy: field{f' {name!r}' if name else ''} of shape {tuple(self.shape)}"
        _core.from_numpy([self], arr, (), what)

    def copy_from(self, other):
        self.from_numpy(other.to_numpy())

    def _elem_shape(self):
        return ()

    def _offset(self):
        return _core.field_offset(self)

    # Zero-copy export (_export.py): __dlpack__, the buffer protocol, x[a:b].
    def _kiln_memory(self):
        return _export.field_memory(self)

    def _kiln_buffer(self, need):
        return _export.check_contiguous(self._kiln_memory(), need, lambda: _export.describe(self))

    def _kiln_slice(self, key):
        return _export.Slice(self, key)

    def __dlpack__(self, stream=None):
        """DLPack export without a copy (np.from_dlpack(x), torch.from_dlpack(x)): the
        array is the field's memory, so kernels see writes made through it."""
        return self._kiln_memory().__dlpack__()

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0

    def to_torch(self, device=None):
        import torch
        return torch.from_numpy(self.to_numpy())

    def from_torch(self, t):
        self.from_numpy(t.detach().cpu().numpy())

    def __len__(self):
        sh = self.shape
        if not sh:
            raise TypeError("len() of a 0-D field")
        return sh[0]

    def _components(self):
        return [self]

    def __repr__(self):
        return "<ti.field>"

    def __str__(self):
        return str(self.to_numpy())

    def get_field_members(self):
        return [self]

    def __getattr__(self, k):
        # x.grad / x.dual: the autodiff companions, created (unplaced) on first use
        if k in ("grad", "dual"):
            c = _core.companion(ScalarField, self, k)
            if c is None:
                raise AttributeError(f"field '{self.name}' has no {k}: only floating-point fields have derivatives")
            object.__setattr__(self, k, c)
            return c
        raise AttributeError(f"'ScalarField' object has no attribute '{k}'")


def _place_companions(comps, kind, shape, offset):
    """Places the grad/dual of component fields `comps` as ti.field(shape=...) places a field."""
    cs = [getattr(c, kind) for c in comps]
    if shape:
        root.dense(_axes(len(shape)), shape).place(*cs, offset=offset)
    else:
        root.place(*cs, offset=offset)


_ASSIGN = None


def _check_grad_dtype(dtype, needs_grad, needs_dual):
    if (needs_grad or needs_dual) and dtype is not None and not is_float(dtype):
        raise TypeError(f"needs_grad/needs_dual need a floating-point field, not {dtype_of(dtype)}")


def _value_shape(v):
    """The shape of a vector, matrix or (nested) list as a field element sees it."""
    from ._matrix import Matrix
    if isinstance(v, Matrix):
        return tuple(v.get_shape())
    if isinstance(v, (list, tuple)):
        return (len(v),) + (_value_shape(v[0]) if v else ())
    return ()


def _assigned_name():
    """The variable a field is being assigned to (`x = ti.field(...)`,
    `self.x = ...`), read from the caller's line, so messages name it as
    `kiln run` does. "" when the line is not a plain assignment."""
    global _ASSIGN
    import sys
    import linecache
    if _ASSIGN is None:
        import re
        _ASSIGN = re.compile(r"^\s*(?:[A-Za-z_][\w]*\.)*([A-Za-z_]\w*)\s*(?::[^=]*)?=(?!=)")
    f = sys._getframe(1)
    pkg = __name__.rsplit(".", 1)[0]
    while f is not None and f.f_globals.get("__name__", "").split(".")[0] == pkg:
        f = f.f_back
    if f is None:
        return ""
    m = _ASSIGN.match(linecache.getline(f.f_code.co_filename, f.f_lineno))
    return m.group(1) if m else ""


def _make_quant(qt, shape, name):
    if shape is not None:
        raise TypeError(f"a field of quantized type {qt} cannot have a shape: place it through "
                        "ti.BitpackedFields or ti.root.quant_array(...)")
    return _core.create_quant_field(ScalarField, qt.kind, qt.bits, qt.signed, qt.compute._kiln_prim, qt.scale, qt.exp,
                                    name or "")


def _check_order(order, shape):
    """order='ji': the axes from outermost to innermost in memory, each once."""
    if order is None:
        return
    if shape is None:
        raise ValueError("order= needs a shape: ti.field(dtype, shape=(n, m), order='ji')")
    if not isinstance(order, str):
        raise TypeError('order= takes a string such as "ji"')  # the built-in host's message
    if sorted(order) != sorted(_AXIS_NAMES[:len(shape)]):
        raise ValueError(f'order "{order}" must name each of the field\'s {len(shape)} axes once')


def _make_scalar(dtype, shape, name="", offset=None, order=None, layout=None):
    if isinstance(dtype, QuantType):
        return _make_quant(dtype, _shape_tuple(shape), name)
    dt = dtype_of(dtype)
    shape = _shape_tuple(shape)
    offset = _offset_tuple(offset)
    if offset is not None and shape is None:
        _core.check_offset(None, offset)  # Taichi's error: an offset needs a shape
    _check_order(order, shape)
    if layout is not None:
        if order is not None:
            raise TypeError("give a field either order= or layout=, not both")
        return _core.create_layout_field(ScalarField, dt._kiln_prim, _core.layout_levels(layout, shape), name or "",
                                         offset)
    if shape is None:
        return _core.create_field(ScalarField, dt._kiln_prim, name or "")
    if order is not None and len(shape) > 1:
        levels = [(_AXIS_NAMES.index(a), shape[_AXIS_NAMES.index(a)]) for a in order]
        return _core.create_layout_field(ScalarField, dt._kiln_prim, levels, name or "", offset)
    return _core.create_dense_field(ScalarField, dt._kiln_prim, shape, name or "", offset)


def field(dtype, shape=None, name="", offset=None, needs_grad=False, needs_dual=False, order=None, layout=None):
    if isinstance(dtype, StructType):
        return dtype.field(shape=shape, name=name, offset=offset, needs_grad=needs_grad, needs_dual=needs_dual)
    if isinstance(dtype, VectorType):
        if dtype.ndim == 2:
            return Matrix_field(dtype.n, dtype.m, dtype.dtype, shape=shape, name=name, offset=offset,
                                needs_grad=needs_grad, needs_dual=needs_dual)
        return Vector_field(dtype.n, dtype.dtype, shape=shape, name=name, offset=offset, needs_grad=needs_grad,
                            needs_dual=needs_dual)
    name = name or _assigned_name()
    _check_grad_dtype(dtype, needs_grad, needs_dual)
    f = _make_scalar(dtype, shape, name, offset, order, layout)
    shape = _shape_tuple(shape)
    _companion_fields(f, shape, offset, needs_grad, needs_dual)
    return f


class _EntryMatrix:
    pass


class MatrixField(_core.BufferExporter):
    """ti.Vector.field / ti.Matrix.field: n*m scalar component fields, row-major."""

    def __init__(self, comps, n, m, ndim, name=""):
        self._comps = comps
        self.n, self.m, self.ndim = n, m, ndim
        self._name = name

    def _kiln_static(self):
        return ("matrix_field", self.n, 0 if self.ndim == 1 else self.m, self._comps)

    @property
    def shape(self):
        return self._comps[0].shape

    @property
    def dtype(self):
        return self._comps[0].dtype

    @property
    def name(self):
        return self._name

    @property
    def snode(self):
        return self._comps[0].snode

    def parent(self, n=1):
        return self.snode.parent(n)

    def get_scalar_field(self, *idx):
        k = idx[0] if self.ndim == 1 else idx[0] * self.m + idx[1]
        return self._comps[k]

    def _components(self):
        return list(self._comps)

    def __getattr__(self, k):
        if k in ("grad", "dual"):
            c = MatrixField([getattr(x, k) for x in self._comps], self.n, self.m, self.ndim, self._name + "." + k)
            self.__dict__[k] = c
            return c
        raise AttributeError(f"'MatrixField' object has no attribute '{k}'")

    def _elem_shape(self):
        return (self.n,) if self.ndim == 1 else (self.n, self.m)

    def _kind(self):
        return "vector" if self.ndim == 1 else "matrix"

    def _offset(self):
        return self._comps[0]._offset()

    # Zero-copy export (_export.py): __dlpack__, the buffer protocol, x[a:b].
    def _kiln_memory(self):
        return _export.field_memory(self)

    def _kiln_buffer(self, need):
        return _export.check_contiguous(self._kiln_memory(), need, lambda: _export.describe(self))

    def __dlpack__(self, stream=None):
        """DLPack export without a copy (np.from_dlpack(x), torch.from_dlpack(x)): the
        array is the field's memory, so kernels see writes made through it."""
        return self._kiln_memory().__dlpack__()

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0

    def __getitem__(self, key):
        from ._matrix import Matrix
        if isinstance(key, slice) or isinstance(key, tuple) and any(isinstance(k, slice) for k in key):
            return _export.Slice(self, key)  # x[a:b]: a view of rows a..b-1, no copy
        vals = [c[key] for c in self._comps]
        r = Matrix._make(self.n, self.m, self.ndim, vals, self.dtype)
        return _FieldEntry.wrap(r, self, key)

    def __setitem__(self, key, v):
        from ._matrix import _flatten_args
        vals = _flatten_args([v])
        if len(vals) == 1:
            vals = vals * len(self._comps)
        if len(vals) != len(self._comps):
            what = f"an element of {self._kind()} field" + (f" '{self._name}'" if self._name else "")
            raise TypeError(f"cannot assign a value of shape {_value_shape(v)} to {what} of shape {self._elem_shape()}")
        for c, x in zip(self._comps, vals):
            c[key] = x

    def fill(self, v):
        from ._matrix import _flatten_args
        vals = _flatten_args([v])
        if len(vals) == 1:
            vals = vals * len(self._comps)
        for c, x in zip(self._comps, vals):
            c.fill(x)

    def to_numpy(self, keep_dims=False, dtype=None):
        a = _core.to_numpy(self._comps, self._elem_shape())
        if keep_dims and self.ndim == 1:  # Taichi's keep_dims: a vector as an n x 1 matrix
            a = a.reshape(a.shape + (1,))
        return a if dtype is None else a.astype(dtype)

    def from_numpy(self, arr):
        import numpy as np
        arr = np.asarray(arr)
        if self.ndim == 2 and arr.shape == tuple(self.shape) + (self.n,) and self.m == 1:
            arr = arr.reshape(tuple(self.shape) + (self.n, 1))
        sizes = f"n={self.n}" + (f", m={self.m}" if self.ndim == 2 else "")
        what = f"from_numpy: the {self._kind()} field '{self._name or 'field'}' of shape {tuple(self.shape)} with {sizes}"
        _core.from_numpy(self._comps, arr, self._elem_shape(), what)

    def copy_from(self, other):
        self.from_numpy(other.to_numpy())

    def to_torch(self, device=None):
        import torch
        return torch.from_numpy(self.to_numpy())

    def __len__(self):
        return self.shape[0]

    def get_field_members(self):
        return list(self._comps)

    def __repr__(self):
        return "<ti.Matrix.field>" if self.ndim == 2 else "<ti.Vector.field>"

    def __str__(self):
        return str(self.to_numpy())


class _FieldEntry:
    """A vector/matrix read from a field element: writes to it go back to the field."""

    @staticmethod
    def wrap(mat, field, key):
        object.__setattr__(mat, "_field", field)
        object.__setattr__(mat, "_key", key)
        cls = _ENTRY_CLASSES.get(type(mat))
        if cls is None:
            base = type(mat)

            def setitem(self, k, v):
                base.__setitem__(self, k, v)
                self._field[self._key] = self

            def setattr_(self, k, v):
                base.__setattr__(self, k, v)
                if not k.startswith("_") and k not in ("n", "m", "ndim", "entries", "dtype"):
                    self._field[self._key] = self

            cls = type(base.__name__, (base,), {"__setitem__": setitem, "__setattr__": setattr_})
            _ENTRY_CLASSES[base] = cls
        object.__setattr__(mat, "__class__", cls)
        return mat


_ENTRY_CLASSES = {}


def _component_dtypes(n, m, dtypes, matrix):
    """dtype=[[t00, t01], ...] for an n x m matrix field, [t0, t1, ...] for an
    n-vector field: a dtype per component, as in Taichi; one compute type."""
    rows = list(dtypes)
    flat = []
    ok = len(rows) == n
    for r in rows if ok else ():
        if matrix:
            ok = ok and isinstance(r, (list, tuple)) and len(r) == m
            flat.extend(r if ok else ())
        else:
            flat.append(r)
    if not ok:
        raise TypeError(f"a dtype per component of a {n}x{m} matrix field is a list of {n} lists of {m} dtypes"
                        if matrix else f"a dtype per component of a {n}-vector field is a list of {n} dtypes")
    computes = [t.compute if isinstance(t, QuantType) else dtype_of(t) for t in flat]
    for c in computes:
        if c != computes[0]:
            raise RuntimeError("Member fields of a matrix field must have the same compute type "
                               f"({computes[0]} and {c})")
    return flat


def _vector_comps(n, m, dtype, shape, name, offset, needs_grad, layout=None, matrix=False, order=None):
    shape = _shape_tuple(shape)
    _check_order(order, shape)
    if not isinstance(n, int) or not isinstance(m, int):
        raise TypeError(f"a vector/matrix field needs integer sizes, got n={n!r}, m={m!r}")
    _core.check_components(n, m, matrix)
    if isinstance(dtype, (list, tuple)):
        types = _component_dtypes(n, m, dtype, matrix)
    else:
        one = dtype if isinstance(dtype, QuantType) else dtype_of(float if dtype is None else dtype)
        types = [one] * (n * m)
    offset = _offset_tuple(offset)
    if offset is not None and shape is None:
        _core.check_offset(None, offset)  # Taichi's error: an offset needs a shape
    comps = [_make_quant(t, shape, name) if isinstance(t, QuantType)
             else _core.create_field(ScalarField, dtype_of(t)._kiln_prim, name or "") for t in types]
    if shape is not None:
        if layout is not None and getattr(layout, "name", "") == "SOA":
            for c in comps:
                _place_together([c], shape, offset, order)
        else:
            _place_together(comps, shape, offset, order)
    return comps


def _place_together(comps, shape, offset, order=None):
    """Places a compound field's components side by side in one dense cell per
    element; with order='ji', one dense level per axis, outermost first."""
    if order is not None and len(shape) > 1:
        node = root
        for a in order:
            k = _AXIS_NAMES.index(a)
            node = node.dense(Axis(k), shape[k])
        node.place(*comps, offset=offset)
    elif shape:
        root.dense(_axes(len(shape)), shape).place(*comps, offset=offset)
    else:
        root.place(*comps, offset=offset)


def Vector_field(n, dtype, shape=None, name="", offset=None, needs_grad=False, needs_dual=False, layout=None,
                 order=None, **kw):
    _check_grad_dtype(dtype, needs_grad, needs_dual)
    name = name or _assigned_name()
    f = MatrixField(_vector_comps(n, 1, dtype, shape, name, offset, needs_grad, layout, order=order), n, 1, 1, name)
    _companion_fields(f, shape, offset, needs_grad, needs_dual)
    return f


def _companion_fields(f, shape, offset, needs_grad, needs_dual):
    """needs_grad/needs_dual: with a shape, the companions are placed now; without
    one (placed by hand), lazy_grad()/lazy_dual() or the user must place them, and
    a gradient kernel that needs one unplaced says so instead of dropping it."""
    shape = _shape_tuple(shape)
    for kind, wanted in (("grad", needs_grad), ("dual", needs_dual)):
        if not wanted:
            continue
        for c in f._components():
            _core.require_companion(c, kind)
        if shape is not None:
            _place_companions(f._components(), kind, shape, _offset_tuple(offset))


def Matrix_field(n, m, dtype, shape=None, name="", offset=None, needs_grad=False, needs_dual=False, layout=None,
                 order=None, **kw):
    _check_grad_dtype(dtype, needs_grad, needs_dual)
    name = name or _assigned_name()
    f = MatrixField(_vector_comps(n, m, dtype, shape, name, offset, needs_grad, layout, True, order), n, m, 2, name)
    _companion_fields(f, shape, offset, needs_grad, needs_dual)
    return f


class StructField:
    """ti.Struct.field / Dataclass.field: one field per member."""

    def __init__(self, members, name="", struct_type=None):
        object.__setattr__(self, "_members", members)
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_type", struct_type)

    def _kiln_static(self):
        return ("struct_field", list(self._members), list(self._members.values()), self._type, self._name)

    def __getattr__(self, k):
        m = self.__dict__["_members"]
        if k in m:
            return m[k]
        if k in ("grad", "dual"):
            c = StructField({n: getattr(v, k) for n, v in m.items()}, self._name + "." + k, self._type)
            object.__setattr__(self, k, c)
            return c
        raise AttributeError(f"struct field has no member '{k}'")

    @property
    def shape(self):
        return next(iter(self._members.values())).shape

    @property
    def snode(self):
        return next(iter(self._members.values())).snode

    def parent(self, n=1):
        return self.snode.parent(n)

    def keys(self):
        return self._members.keys()

    def _components(self):
        out = []
        for v in self._members.values():
            out.extend(v._components())
        return out

    def __getitem__(self, key):
        from ._struct import Struct
        return _StructEntry({k: v[key] for k, v in self._members.items()}, self._type, self, key)

    def __setitem__(self, key, v):
        items = v._entries if hasattr(v, "_entries") else v
        for k, x in items.items():
            self._members[k][key] = x

    def fill(self, v):
        for f in self._members.values():
            f.fill(v)

    def to_numpy(self):
        return {k: v.to_numpy() for k, v in self._members.items()}

    def from_numpy(self, d):
        for k, v in d.items():
            self._members[k].from_numpy(v)

    def copy_from(self, other):
        self.from_numpy(other.to_numpy())

    def get_field_members(self):
        return self._components()

    def __len__(self):
        return self.shape[0]


from ._struct import Struct as _StructBase


class _StructEntry(_StructBase):
    def __init__(self, entries, stype, field, key):
        _StructBase.__init__(self, entries, stype)
        object.__setattr__(self, "_field", field)
        object.__setattr__(self, "_key", key)

    def __setattr__(self, k, v):
        _StructBase.__setattr__(self, k, v)
        if k in self._entries:
            self._field._members[k][self._key] = v


def Struct_field(members, shape=None, name="", offset=None, needs_grad=False, struct_type=None, layout=None,
                 order=None, **kw):
    _check_order(order, _shape_tuple(shape))
    if needs_grad or kw.get("needs_dual"):
        for t in members.values():
            if not isinstance(t, StructType):
                _check_grad_dtype(t.dtype if isinstance(t, VectorType) else t, True, False)
    out = {}
    for k, t in members.items():
        if isinstance(t, StructType):
            out[k] = Struct_field(t.members, None, k, struct_type=t)
        elif isinstance(t, VectorType):
            out[k] = (Matrix_field(t.n, t.m, t.dtype, None, k) if t.ndim == 2 else Vector_field(t.n, t.dtype, None, k))
        else:
            out[k] = field(t, None, name=k)
    sf = StructField(out, name, struct_type)
    comps = sf._components()
    shape = _shape_tuple(shape)
    offset = _offset_tuple(offset)
    if offset is not None and shape is None:
        _core.check_offset(None, offset)
    if shape is not None:
        _place_together(comps, shape, offset, order)
        real = [c for c in comps if c.dtype._kiln_prim[0] == "f"]
        for kind, wanted in (("grad", needs_grad), ("dual", kw.get("needs_dual"))):
            if wanted and real:
                _place_companions(real, kind, shape, offset)
    return sf
