"""ti.simt.subgroup: operations across the invocations of a subgroup (the
device's SIMD width: 8 lanes on lavapipe)."""
from ._tag import kernel_only as _k

_NAMES = ["barrier", "memory_barrier", "elect", "all_true", "any_true", "all_equal", "broadcast_first", "broadcast",
          "group_size", "invocation_id", "shuffle", "shuffle_xor", "shuffle_up", "shuffle_down"]
_NAMES += [f"{kind}_{op}" for kind in ("reduce", "inclusive", "exclusive")
           for op in ("add", "mul", "min", "max", "and", "or", "xor")]
for _n in _NAMES:
    globals()[_n] = _k("subgroup", _n)
__all__ = list(_NAMES)
