"""Fields, ndarrays and numpy arrays as the flat arrays the renderer takes:
positions (n, 2|3) float32, colours (n, 3) float32, radii (n,) float32 and
vertex numbers (m,) int32."""
import numbers

from .._gui_image import as_numpy


def rgb(c, what):
    """(r, g, b) floats in [0, 1] as a tuple."""
    try:
        t = tuple(float(x) for x in c)
    except TypeError:
        t = ()
    if len(t) != 3:
        raise TypeError(f"{what} must be (r, g, b) with floats in [0, 1], not {c!r}")
    return t


def positions(v, dim, what):
    """An (n, dim) float32 array from a field of vectors: 2-D positions take
    the first two components of 3-D ones, as GGUI's vertex buffers do."""
    import numpy as np
    a = np.asarray(as_numpy(v, what, view=True))
    if a.ndim == 3 and a.shape[2] == 1:  # an (n, 1) matrix field
        a = a[..., 0]
    if a.ndim != 2 or not (a.shape[1] == dim or (dim == 2 and a.shape[1] == 3)):
        raise ValueError(f"{what} must be a 1-D field of {dim}-vectors, not of shape {a.shape}")
    return np.ascontiguousarray(a[:, :dim], dtype=np.float32)


def colors(c, n, what):
    """Per-vertex colours (n, 3) float32 (a fourth component, alpha, is dropped)."""
    import numpy as np
    if c is None:
        return None
    a = np.asarray(as_numpy(c, what, view=True))
    if a.ndim != 2 or a.shape[1] not in (3, 4) or a.shape[0] != n:
        raise ValueError(f"{what} must be a field of {n} 3- or 4-vectors (RGB(A) in [0, 1]), not of shape {a.shape}")
    if a.dtype == np.uint8:
        a = a.astype(np.float32) / 255
    return np.ascontiguousarray(a[:, :3], dtype=np.float32)


def radii(r, n, what):
    import numpy as np
    if r is None:
        return None
    a = np.asarray(as_numpy(r, what, view=True))
    if a.shape != (n,):
        raise ValueError(f"{what} must be a field of {n} radii, not of shape {a.shape}")
    return np.ascontiguousarray(a, dtype=np.float32)


def scalar(x, what):
    if not isinstance(x, numbers.Real):
        raise TypeError(f"{what} must be a number, not {type(x).__name__}")
    return float(x)


def count(x, what):
    if not isinstance(x, numbers.Integral) or x < 0:
        raise ValueError(f"{what} must be a non-negative integer, not {x!r}")
    return int(x)


def order(n, indices, per, what, vertex_offset=0, vertex_count=None, index_offset=0, index_count=None):
    """The vertex numbers to draw, `per` at a time (3: triangles, 2: segments,
    1: points). With indices: indices[index_offset:][:index_count] plus
    vertex_offset; without: vertex_offset, ..., + vertex_count - 1. Counts
    beyond the data are cut to it, and to a multiple of `per`, as GGUI does."""
    import numpy as np
    vertex_offset = count(vertex_offset, f"{what}: vertex_offset")
    index_offset = count(index_offset, f"{what}: index_offset")
    if indices is None:
        avail = max(n - vertex_offset, 0)
        c = avail if vertex_count is None else min(count(vertex_count, f"{what}: vertex_count"), avail)
        c -= c % per
        return np.arange(vertex_offset, vertex_offset + c, dtype=np.int32)
    ind = np.asarray(as_numpy(indices, f"{what}: indices", view=True))
    if not np.issubdtype(ind.dtype, np.integer):
        raise TypeError(f"{what}: indices must be integers, not {ind.dtype}")
    ind = ind.reshape(-1)[index_offset:]
    if index_count is not None:
        ind = ind[:count(index_count, f"{what}: index_count")]
    ind = ind[:len(ind) - len(ind) % per]
    ind = np.clip(ind.astype(np.int64) + vertex_offset, -1, 2**31 - 1)  # out of range stays out of range
    return np.ascontiguousarray(ind, dtype=np.int32)
