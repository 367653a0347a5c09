"""taichi.sparse: a grid of structs whose cells are activated one by one
(ti.sparse.grid) and the fraction of its cells that are active
(ti.sparse.usage)."""
import struct as _struct

import taichi as ti


def grid(members, shape):
    """A 2-D or 3-D ti.Struct.field of `members` ({name: type}) placed on a
    bitmasked SNode of `shape`: writing a cell activates it."""
    shape = tuple(shape)
    if len(shape) not in (2, 3):
        raise ValueError(f"ti.sparse.grid() makes 2-D or 3-D grids, not {len(shape)}-D ones (shape {shape})")
    x = ti.Struct.field(members)
    ti.root.bitmasked(ti.ij if len(shape) == 2 else ti.ijk, shape).place(x)
    return x


@ti.kernel
def _active_cells(x: ti.template()) -> ti.i32:
    n = 0
    for I in ti.grouped(x.parent()):
        if ti.is_active(x.parent(), I):
            n += 1
    return n


def usage(x):
    """The fraction of x's cells that are active, in [0, 1] (an f32 value,
    as Taichi's kernel returns)."""
    total = 1
    for n in x.shape:
        total *= n
    return _struct.unpack("f", _struct.pack("f", _active_cells(x) / total))[0]
