"""ti.simt.block: what the iterations of one block (workgroup) of a parallel
loop share. ti.loop_config(block_dim=N) before the loop makes N iterations a
block."""
from ._tag import kernel_only as _k

_NAMES = ["SharedArray", "sync", "mem_sync", "thread_idx", "global_thread_idx", "sync_all_nonzero",
          "sync_any_nonzero", "sync_count_nonzero"]
for _n in _NAMES:
    globals()[_n] = _k("block", _n)
__all__ = list(_NAMES)
