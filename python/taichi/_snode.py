"""The SNode tree builder: axes (ti.i, ti.ij, ...), SNodes (ti.root.dense(...),
pointer, bitmasked, dynamic, quant_array, place), ti.root, ti.FieldsBuilder and
the trees it finalizes, and ti.BitpackedFields. The runtime keeps the tree
(taichi._core); a field placed here gets its memory when the tree is laid out
(the first kernel launch or FieldsBuilder.finalize())."""
from . import _core

_AXIS_NAMES = "ijklmnopqrst"  # order= letters and Axis names, as the runtime has them (12 axes)


def _offset_tuple(offset):
    if offset is None:
        return None
    if isinstance(offset, int) or hasattr(offset, "__index__") and not isinstance(offset, (list, tuple)):
        return (int(offset),)
    return tuple(int(o) for o in offset)



class Axis:
    def __init__(self, k):
        self.k = k

    def __repr__(self):
        return _AXIS_NAMES[self.k]


i, j, k, l = Axis(0), Axis(1), Axis(2), Axis(3)
ij, ik, il, jk, jl, kl = (i, j), (i, k), (i, l), (j, k), (j, l), (k, l)
ijk, ijl, ikl, jkl = (i, j, k), (i, j, l), (i, k, l), (j, k, l)
ijkl = (i, j, k, l)


def axes(*ks):
    return tuple(Axis(x) for x in ks)


def _axes(n):
    return tuple(Axis(x) for x in range(n))


class BitpackedFields:
    """Fields of quantized types packed into one word of max_num_bits bits
    (8, 16, 32 or 64); `place(a, b, shared_exponent=True)` lets quant.float
    fields share one exponent. The group is placed like a field:
    ti.root.dense(ti.i, n).place(bitpack)."""

    def __init__(self, max_num_bits):
        self.max_num_bits = int(max_num_bits)
        self._groups = []
        self._placed = False

    def place(self, *args, shared_exponent=False):
        comps = []
        for a in args:
            c = a._components() if hasattr(a, "_components") else None
            if c is None:
                raise TypeError(f"BitpackedFields.place() takes fields, not {type(a).__name__}")
            comps.extend(c)
        if shared_exponent and len(comps) < 2:
            from ._errors import TaichiSyntaxError
            raise TaichiSyntaxError("At least 2 fields need to be placed when shared_exponent=True")
        self._groups.append((comps, bool(shared_exponent)))

    def _place_under(self, snode):
        if self._placed:
            raise RuntimeError("this ti.BitpackedFields is already placed")
        snode._core.place_bitpacked(self.max_num_bits, self._groups)
        self._placed = True
        if snode._builder is not None:
            for comps, _ in self._groups:
                snode._builder._fields.extend(comps)


class _BitStructPlacer:
    def __init__(self, snode, num_bits):
        self._snode, self._bits = snode, num_bits

    def place(self, *fields, shared_exponent=False):
        b = BitpackedFields(self._bits)
        b.place(*fields, shared_exponent=shared_exponent)
        self._snode.place(b)
        return self._snode


class SNode:
    def __init__(self, core, builder=None):
        self._core = core
        self._builder = builder  # the FieldsBuilder this SNode was made through, if any

    def _kiln_static(self):
        return ("snode", self._core)

    def _child(self, kind, axes_, dims, chunk=0):
        if isinstance(axes_, Axis):
            axes_ = (axes_,)
        if isinstance(dims, int) or hasattr(dims, "__index__") and not isinstance(dims, (list, tuple)):
            dims = [int(dims)] * len(axes_)
        dims = [int(d) for d in dims]
        if len(dims) == 1 and len(axes_) > 1:  # pointer(ti.ijk, [n]): n along every axis
            dims = dims * len(axes_)
        if len(dims) != len(axes_):
            raise ValueError(f"{kind}() got {len(axes_)} axes but {len(dims)} sizes")
        return SNode(self._core.child(kind, [a.k for a in axes_], dims, chunk), self._builder)

    def dense(self, axes, dimensions):
        return self._child("dense", axes, dimensions)

    def pointer(self, axes, dimensions):
        return self._child("pointer", axes, dimensions)

    def bitmasked(self, axes, dimensions):
        return self._child("bitmasked", axes, dimensions)

    def dynamic(self, axis, dimension, chunk_size=None):
        if isinstance(axis, tuple):
            axis = axis[0]
        if chunk_size is not None and int(chunk_size) <= 0:  # None: the runtime's default
            raise ValueError(f"the chunk_size of a dynamic SNode must be positive, got {int(chunk_size)}")
        return self._child("dynamic", (axis,), [dimension], int(chunk_size or 0))

    def bit_struct(self, num_bits):
        """Taichi's older spelling: ti.root.bit_struct(num_bits=32).place(a, b)."""
        return _BitStructPlacer(self, num_bits)

    def quant_array(self, axes, dimensions, max_num_bits):
        if isinstance(axes, Axis):
            axes = (axes,)
        if not isinstance(dimensions, (list, tuple)):
            dimensions = [int(dimensions)] * len(axes)
        if len(dimensions) != len(axes):
            raise ValueError(f"quant_array() got {len(axes)} axes but {len(dimensions)} sizes")
        return SNode(self._core.quant_array([a.k for a in axes], [int(d) for d in dimensions], int(max_num_bits)),
                     self._builder)

    bit_array = quant_array

    def place(self, *args, offset=None):
        offset = list(_offset_tuple(offset) or ())
        for a in args:
            if isinstance(a, (list, tuple)):
                self.place(*a, offset=offset or None)
                continue
            if isinstance(a, BitpackedFields):
                a._place_under(self)
                continue
            comps = a._components() if hasattr(a, "_components") else None
            if comps is None:
                raise TypeError(f"place() takes fields, not {type(a).__name__}")
            for c in comps:
                self._core.place(c, offset)
            if self._builder is not None:
                self._builder._fields.extend(comps)
        return self

    @property
    def ptr(self):  # Taichi's C++ SNode handle; Kiln's SNode answers for it
        return self

    def has_adjoint_checkbit(self):
        """Whether the field placed here has a global-data-access checkbit (Tape(validation=True))."""
        from ._field import ScalarField
        f = self._core.field(ScalarField) if hasattr(self._core, "field") else None
        return bool(f is not None and _core.has_checkbit(f))

    def lazy_grad(self):
        """Places x.grad beside every floating-point field x under this SNode whose gradient is not placed."""
        _core.lazy_companions(self._core, "grad")

    def lazy_dual(self):
        _core.lazy_companions(self._core, "dual")

    def parent(self, n=1):
        p = self._core.parent(n)
        return SNode(p) if p is not None else None

    @property
    def shape(self):
        return self._core.shape

    @property
    def id(self):
        return self._core.id

    def dim(self):
        return len(self._core.shape)

    def deactivate_all(self):
        self._core.deactivate_all()

    def physical_index_position(self):
        return self._core.physical_index_position()

    _physical_index_position = physical_index_position  # Taichi's spelling

    @property
    def _name(self):
        """A place SNode's name is its field's (Taichi names it after the field)."""
        from ._field import ScalarField
        f = self._core.field(ScalarField)
        return f.name if f is not None and f.name else self._core.name

    @property
    def _cell_size_bytes(self):
        """Bytes of one cell of this SNode (the layout is fixed on the first call)."""
        return self._core.cell_size_bytes()

    def get_children(self):
        return [SNode(c) for c in self._core.children()]

    def __eq__(self, o):
        return isinstance(o, SNode) and self._core == o._core

    def __hash__(self):
        return hash(self._core)

    def __repr__(self):
        return f"ti.SNode({self._core.name})"


class _Root(SNode):
    """ti.root: the root of the tree new SNodes go under, in the current Program."""

    _builder = None

    def __init__(self):
        pass

    @property
    def _core(self):
        return _core.root()

    def __repr__(self):
        return "ti.root"


root = _Root()


class FieldsBuilder:
    """ti.FieldsBuilder(): builds an SNode tree of its own; finalize() lays it out
    and allocates it (fields placed through it are usable from then on)."""

    def __init__(self):
        self._root = None
        self._fields = []
        self._finalized = False

    def _r(self):
        if self._finalized:
            from ._errors import InvalidOperationError
            raise InvalidOperationError("this FieldsBuilder was finalized: make a new one for more fields")
        if self._root is None:
            self._root = SNode(_core.root(), self)
        return self._root

    @property
    def ptr(self):
        return self._r()

    @property
    def root(self):
        return self._r()

    @property
    def empty(self):
        return not self._fields

    def dense(self, axes, dimensions):
        return self._r().dense(axes, dimensions)

    def pointer(self, axes, dimensions):
        return self._r().pointer(axes, dimensions)

    def bitmasked(self, axes, dimensions):
        return self._r().bitmasked(axes, dimensions)

    def dynamic(self, axis, dimension, chunk_size=None):
        return self._r().dynamic(axis, dimension, chunk_size)

    def place(self, *args, offset=None):
        return self._r().place(*args, offset=offset)

    def lazy_grad(self):
        self._r().lazy_grad()

    def lazy_dual(self):
        self._r().lazy_dual()

    def finalize(self, raise_warning=True):
        if self._finalized:
            from ._errors import InvalidOperationError
            raise InvalidOperationError("this FieldsBuilder was already finalized")
        _core.materialize()
        self._finalized = True
        return SNodeTree(self._fields)


class SNodeTree:
    """What FieldsBuilder.finalize() returns. destroy() makes its fields unusable
    (an error on any later use); their memory stays with the program."""

    def __init__(self, fields):
        self._fields = fields

    def destroy(self):
        for f in self._fields:
            _core.field_destroy(f)
        self._fields = []
