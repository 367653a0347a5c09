"""taichi.algorithms: parallel_sort, prefix sums."""


def parallel_sort(keys, values=None):
    """Sorts a 1-D field of keys ascending, in place; `values` (a field of the same
    length, scalar or vector) moves with its keys. Stable."""
    import numpy as np
    k = keys.to_numpy()
    if k.ndim != 1:
        raise ValueError(f"parallel_sort() sorts 1-D fields, not one of shape {k.shape}")
    order = np.argsort(k, kind="stable")
    keys.from_numpy(k[order])
    if values is not None:
        v = values.to_numpy()
        if len(v) != len(k):
            raise ValueError(f"parallel_sort(): {len(v)} values for {len(k)} keys")
        values.from_numpy(v[order])


class PrefixSumExecutor:
    """Inclusive prefix sum of a 1-D field, in place (ti.algorithms.PrefixSumExecutor(n).run(x))."""

    def __init__(self, length):
        self.length = length

    def run(self, input_arr):
        import numpy as np
        a = input_arr.to_numpy()
        input_arr.from_numpy(np.cumsum(a[: self.length]).astype(a.dtype))
