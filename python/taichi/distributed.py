"""taichi.distributed (Kiln): a Taichi program on many processes under MPI.

    mpirun -n 4 python3 heat.py      (or: mpirun -n 4 kiln run heat.py)

A field is split along its outer axis over the ranks, each rank holding its
rows plus `halo` rows on either side. The rank's field is a plain Taichi field
whose indices are the global ones (an index offset), so kernels are unchanged
Taichi kernels that loop over the rank's rows:

    import taichi as ti
    import taichi.distributed as td
    T = td.field(ti.f32, global_shape=(N, M), halo=1)
    lo, hi = td.index_range(T)          # rows this rank owns
    @ti.kernel
    def step(lo: int, hi: int):
        for i, j in ti.ndrange((lo, hi), (1, M - 1)): ...
    td.exchange_halos(T)                # neighbours' edge rows into the halos
    err = td.allreduce(residual(), "max")
    full = td.gather(T)                 # numpy array of global_shape on rank 0

Halos travel between a field's memory and MPI without copies (the buffer
protocol on field slices, _export.py). An uncaught exception on one rank
aborts every rank (MPI_Abort) instead of leaving the others waiting for it.
"""
import sys as _sys

from . import _core, _export, _field

try:
    from mpi4py import MPI
except ImportError as _e:  # pragma: no cover - depends on the machine
    raise ImportError("taichi.distributed needs mpi4py and an MPI (Debian: apt install python3-mpi4py openmpi-bin)") from _e

comm = MPI.COMM_WORLD
_OPS = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN, "prod": MPI.PROD}


def rank():
    return comm.Get_rank()


def size():
    return comm.Get_size()


def threads():
    """The threads this rank's kernels run on: ti.init(cpu_max_num_threads=...), else
    the cores mpirun bound the rank to, shared with the other ranks on the machine."""
    return _core.config()["num_threads"]


class Split:
    """How a field's outer axis is shared: this rank owns rows [lo, hi) of
    global_shape[0]; its field also holds rows [lo - halo, lo) and [hi, hi + halo)."""

    def __init__(self, global_shape, halo, periodic):
        self.global_shape, self.halo, self.periodic = global_shape, halo, periodic
        self.rank, self.size = rank(), size()
        n = global_shape[0]
        self.counts = [n // self.size + (1 if r < n % self.size else 0) for r in range(self.size)]
        self.starts = [sum(self.counts[:r]) for r in range(self.size)]
        self.lo = self.starts[self.rank]
        self.hi = self.lo + self.counts[self.rank]

    def neighbour(self, d):
        r = self.rank + d
        if 0 <= r < self.size:
            return r
        return r % self.size if self.periodic else MPI.PROC_NULL


def _global_shape(global_shape):
    shape = (global_shape,) if isinstance(global_shape, int) else tuple(global_shape)
    if not shape or not all(isinstance(n, int) and n > 0 for n in shape):
        raise ValueError(f"td.field: global_shape must be positive ints, not {global_shape!r}")
    return shape


def field(dtype, global_shape, halo=1, periodic=False, name=""):
    """This rank's part of a field of `global_shape`, split along axis 0 with
    `halo` ghost rows on each side: a plain ti.field (scalar, vector or matrix
    dtype) indexed with global indices, rows lo - halo .. hi + halo - 1."""
    shape = _global_shape(global_shape)
    if not isinstance(halo, int) or halo < 0:
        raise ValueError(f"td.field: halo must be an int >= 0, not {halo!r}")
    s = Split(shape, halo, periodic)
    if min(s.counts) < max(halo, 1):
        raise ValueError(f"td.field: {shape[0]} rows cannot be split over {s.size} ranks with halo={halo}: "
                         f"every rank needs at least {max(halo, 1)} row(s) of its own")
    local = (s.hi - s.lo + 2 * halo,) + shape[1:]
    offset = (s.lo - halo,) + (0,) * (len(shape) - 1)
    f = _field.field(dtype, shape=local, offset=offset, name=name or _field._assigned_name())
    f._kiln_split = s
    return f


def _split_of(f, what):
    s = getattr(f, "_kiln_split", None)
    if s is None:
        raise TypeError(f"td.{what}: {type(f).__name__} is not a field made by td.field(dtype, global_shape, halo)")
    return s


def index_range(f):
    """(lo, hi): the rows of axis 0 this rank owns (global indices)."""
    s = _split_of(f, "index_range")
    return s.lo, s.hi


def exchange_halos(*fields):
    """Each rank's edge rows into its neighbours' halo rows (MPI Sendrecv on the
    fields' own memory). Halos at the ends of a non-periodic axis are left as
    they are (boundary values are the program's)."""
    for f in fields:
        s = _split_of(f, "exchange_halos")
        if s.halo == 0:
            continue
        up, down, send_up, recv_below, send_down, recv_above = _halo_views(f, s)
        # my top rows up, my lower halo from below; then my bottom rows down, my upper halo from above
        comm.Sendrecv(send_up, dest=up, sendtag=11, recvbuf=recv_below, source=down, recvtag=11)
        comm.Sendrecv(send_down, dest=down, sendtag=12, recvbuf=recv_above, source=up, recvtag=12)


def _halo_views(f, s):
    """The four row blocks a halo exchange moves, as numpy views of the field's
    memory, made once per field (and again if its memory was remade): slicing
    the field and exporting each slice per message cost more than the messages
    between two ranks of one machine (~10 us a step against ~5)."""
    mem = f._kiln_memory()
    cached = s.__dict__.get("_views")
    if cached is not None and cached[0] is mem:
        return cached[1]
    h, base = s.halo, s.lo - s.halo  # memory row of global row i: i - base

    def rows(a, b):
        what = lambda: f"{_export.describe(f)}[{a}:{b}]"
        return _export.check_contiguous(mem[a - base:b - base], "C", what)
    views = (s.neighbour(1), s.neighbour(-1), rows(s.hi - h, s.hi), rows(s.lo - h, s.lo),
             rows(s.lo, s.lo + h), rows(s.hi, s.hi + h))
    s._views = (mem, views)
    return views


def allreduce(value, op="sum"):
    """A kernel's result (a number, or a numpy array) combined over all ranks:
    op is "sum", "max", "min" or "prod". max/min are exact whatever the split;
    a float sum can differ from one rank's in the last bits (another order)."""
    if op not in _OPS:
        raise ValueError(f"td.allreduce: op must be one of {', '.join(_OPS)}, not {op!r}")
    return comm.allreduce(value, op=_OPS[op])


def gather(f, root=0):
    """The whole field as one numpy array of global_shape (+ element shape) on
    `root`, None on the other ranks. Each rank sends its own rows straight
    from the field's memory."""
    import numpy as np
    s = _split_of(f, "gather")
    mine = f[s.lo:s.hi]
    row = mine._memory()[0:1]
    row_bytes = row.nbytes
    out = None
    recv = None
    if s.rank == root:
        out = np.empty(s.global_shape + row.shape[len(s.global_shape):], dtype=row.dtype)
        recv = [out, [c * row_bytes for c in s.counts], [st * row_bytes for st in s.starts], MPI.BYTE]
    comm.Gatherv([mine, (s.hi - s.lo) * row_bytes, MPI.BYTE], recv, root=root)
    return out


def barrier():
    comm.Barrier()


def _abort_on_error(hook):
    # A rank that stops on an exception would leave the others blocked in an
    # exchange with it forever: print its error, then end the whole job.
    def excepthook(tp, value, tb):
        hook(tp, value, tb)
        if size() > 1:
            _sys.stderr.write(f"taichi.distributed: rank {rank()} of {size()} failed with {tp.__name__}: "
                              "aborting all ranks\n")
            _sys.stderr.flush()
            comm.Abort(1)
    return excepthook


_sys.excepthook = _abort_on_error(_sys.excepthook)
