"""Arrays for ti.GUI and ti.tools: fields, ndarrays and numpy arrays to
numpy images in Taichi's orientation (img[i, j] is column i from the left,
row j from the bottom), and the plasma colour map behind GUI.contour."""


def as_numpy(img, what, view=False):
    """A numpy array from a numpy array, a field or an ndarray (anything with
    .to_numpy()). view=True, for a read that ends before the caller returns,
    takes the field's own memory through DLPack instead of copying it."""
    import numpy as np
    if isinstance(img, np.ndarray):
        return img
    if view and hasattr(img, "__dlpack__"):
        try:
            return np.from_dlpack(img)
        except Exception:  # a layout DLPack cannot describe (sparse, split): copy below
            pass
    to_numpy = getattr(img, "to_numpy", None)
    if to_numpy is not None:
        return to_numpy()
    if isinstance(img, (list, tuple)):
        return np.asarray(img)
    raise TypeError(f"{what} takes a Taichi field, an ndarray or a numpy array, not {type(img).__name__}")


def displayable(img, what):
    """The array as u8, f32 or f64 (what the canvas reads in place): wider
    unsigned integers scale to [0, 1] by their maximum, as Taichi does."""
    import numpy as np
    a = as_numpy(img, what, view=True)
    if a.dtype in (np.uint8, np.float32, np.float64):
        pass
    elif a.dtype in (np.uint16, np.uint32, np.uint64):
        a = a.astype(np.float32) * (1.0 / np.iinfo(a.dtype).max)
    elif a.dtype == np.float16:
        a = a.astype(np.float32)
    else:
        raise ValueError(f"{what}: data type {a.dtype} is not supported (use uint8, uint16, uint32, "
                         "float32 or float64)")
    if a.ndim == 4 and a.shape[3] == 1:  # an (n, 1) matrix field
        a = a[..., 0]
    if a.ndim not in (2, 3) or (a.ndim == 3 and not 1 <= a.shape[2] <= 4):
        raise ValueError(f"{what}: an image has shape (width, height) or (width, height, 1-4 channels), "
                         f"not {a.shape}")
    return a


def file_bytes(img, what):
    """The array as uint8 for an image file, as ti.tools.imwrite converts:
    floats clipped to [0, 1] and scaled, wider unsigned integers shifted."""
    import numpy as np
    a = as_numpy(img, what, view=True)
    if a.dtype in (np.uint16, np.uint32, np.uint64):
        a = (a // (np.iinfo(a.dtype).max // 256)).astype(np.uint8)
    elif a.dtype in (np.float16, np.float32, np.float64):
        a = (np.clip(a, 0, 1) * 255.0).astype(np.uint8)
    elif a.dtype != np.uint8:
        raise ValueError(f"{what}: data type {a.dtype} is not supported (use uint8, uint16, uint32 or a float type)")
    if a.ndim == 4 and a.shape[3] == 1:
        a = a[..., 0]
    if a.ndim not in (2, 3) or (a.ndim == 3 and a.shape[2] not in (1, 2, 3, 4)):
        raise ValueError(f"{what}: an image has shape (width, height) or (width, height, 1/2/3/4 channels), "
                         f"not {a.shape}")
    return a


# matplotlib's 'plasma' sampled at 11 evenly spaced points (from its
# published 256-entry table); linear interpolation between them stays
# within a few levels of the full table.
_PLASMA = (
    (0.050383, 0.029803, 0.527975), (0.254627, 0.013882, 0.615419), (0.417642, 0.000564, 0.658390),
    (0.562738, 0.051545, 0.641509), (0.692840, 0.165141, 0.564522), (0.798216, 0.280197, 0.469538),
    (0.881443, 0.392529, 0.383229), (0.949217, 0.517763, 0.295662), (0.988260, 0.652325, 0.211364),
    (0.988648, 0.809579, 0.145357), (0.940015, 0.975158, 0.131326),
)


def plasma(values):
    """Values in [0, 1] (clipped) to RGB float32 colours, shape + (3,)."""
    import numpy as np
    t = np.clip(np.asarray(values, dtype=np.float64), 0.0, 1.0)
    stops = np.linspace(0.0, 1.0, len(_PLASMA))
    table = np.asarray(_PLASMA)
    return np.stack([np.interp(t, stops, table[:, c]) for c in range(3)], axis=-1).astype(np.float32)


def bilinear(a, res):
    """A 2-D array resampled to res = (width, height), corners kept."""
    import numpy as np
    w, h = res
    x = np.linspace(0, a.shape[0] - 1, w)
    y = np.linspace(0, a.shape[1] - 1, h)
    x0 = np.floor(x).astype(int)
    y0 = np.floor(y).astype(int)
    x1 = np.minimum(x0 + 1, a.shape[0] - 1)
    y1 = np.minimum(y0 + 1, a.shape[1] - 1)
    fx = (x - x0)[:, None]
    fy = (y - y0)[None, :]
    top = a[x0][:, y0] * (1 - fx) + a[x1][:, y0] * fx
    bottom = a[x0][:, y1] * (1 - fx) + a[x1][:, y1] * fx
    return top * (1 - fy) + bottom * fy
