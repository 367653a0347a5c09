"""ti.ndarray / ti.Vector.ndarray / ti.Matrix.ndarray: arrays passed to kernels
by reference. The memory is a numpy array's (numpy is imported when the
first ndarray is made, not at `import taichi`)."""
from . import _core, _export
from ._types import dtype_of

_NP = {"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8", "u16": "uint16",
       "u32": "uint32", "u64": "uint64", "f16": "float16", "f32": "float32", "f64": "float64"}


def _check_shape(shape):
    if isinstance(shape, int) or hasattr(shape, "__index__") and not isinstance(shape, (tuple, list)):
        shape = (int(shape),)
    return tuple(int(s) for s in shape)


class Ndarray(_core.BufferExporter):
    def __init__(self, dtype, shape, n=0, m=0, needs_grad=False, layout=None):
        import numpy as np
        self.dtype = dtype_of(dtype)
        if needs_grad and self.dtype._kiln_prim[0] != "f":
            from ._errors import TaichiRuntimeError
            raise TaichiRuntimeError(f"{self.dtype} is not supported for ndarray with `needs_grad=True` or `needs_dual=True`.")
        self.shape = _check_shape(shape)
        self.n, self.m = n, m
        self.element_shape = () if not n else (n,) if not m else (n, m)
        # the runtime's checks (sizes.h): extents, element count, the machine's memory
        _core.check_ndarray(self.shape, max(1, n) * max(1, m), int(np.dtype(_NP[self.dtype._kiln_prim]).itemsize))
        self.arr = np.zeros(self.shape + self.element_shape, dtype=_NP[self.dtype._kiln_prim])
        self.grad = None
        if needs_grad:
            self.grad = Ndarray(dtype, shape, n, m)

    def _kiln_array(self):
        return (self.arr, self.n, self.m)

    def _kiln_static(self):
        return ("object", "Ndarray")

    def __getitem__(self, key):
        if isinstance(key, slice) or isinstance(key, tuple) and any(isinstance(k, slice) for k in key):
            return _export.Slice(self, key)  # a[a:b]: a view of rows a..b-1, no copy
        v = self.arr[key]
        if self.n:
            from ._matrix import Matrix
            return Matrix(v.tolist(), dt=self.dtype) if self.m else Matrix._make(self.n, 1, 1, v.tolist(), self.dtype)
        return v.item() if hasattr(v, "item") else v

    def __setitem__(self, key, v):
        from ._matrix import Matrix
        if isinstance(v, Matrix):
            v = v.to_numpy()
        self.arr[key] = v

    def to_numpy(self):
        return self.arr.copy()

    def from_numpy(self, a):
        import numpy as np
        a = np.asarray(a)
        if a.shape != self.arr.shape:
            raise ValueError(f"from_numpy() expects an array of shape {self.arr.shape}, got {a.shape}")
        self.arr[...] = a

    def fill(self, v):
        """Every element := v: a number, or for vector/matrix ndarrays also one
        element's value (a list or ti.Vector/Matrix), broadcast to all."""
        from ._matrix import Matrix
        if isinstance(v, Matrix):
            v = v.to_numpy()
        if isinstance(v, (int, float)) or not self.n:
            self.arr.fill(v)
            return
        import numpy as np
        v = np.asarray(v)
        if v.shape != self.element_shape:
            raise ValueError(f"fill() of an ndarray of {self.element_shape} elements needs a number or one element "
                             f"of shape {self.element_shape}, got shape {v.shape}")
        self.arr[...] = v

    def copy_from(self, other):
        self.arr[...] = other.arr

    def __len__(self):
        return self.shape[0]

    def get_type(self):
        return self.dtype

    # Zero-copy export (_export.py): the buffer protocol, __dlpack__, a[a:b].
    def _kiln_memory(self):
        return self.arr

    def _kiln_buffer(self, need):
        return _export.check_contiguous(self.arr, need, lambda: _export.describe(self))

    def __dlpack__(self, stream=None):
        return self.arr.__dlpack__()

    def __dlpack_device__(self):
        return self.arr.__dlpack_device__()

    def __repr__(self):
        return f"<ti.ndarray {self.dtype} {self.shape}>"


def ndarray(dtype, shape, needs_grad=False, layout=None):
    from ._types import VectorType
    if isinstance(dtype, VectorType):
        elem = dtype.dtype if dtype.dtype is not None else float  # ti.math.vec3: default_fp elements
        return Ndarray(elem, shape, n=dtype.n, m=dtype.m if dtype.ndim == 2 else 0, needs_grad=needs_grad)
    return Ndarray(dtype, shape, needs_grad=needs_grad)
