"""ti.simt.warp: CUDA's operations across the 32 lanes of a warp, each
taking the member mask first where Taichi's does (ti.u32(0xFFFFFFFF) for a
whole warp). They compile on arch=ti.cuda (docs/cuda_simt.md)."""
from ._tag import kernel_only as _k

_NAMES = ["all_nonzero", "any_nonzero", "unique", "ballot", "shfl_sync_i32", "shfl_sync_f32", "shfl_down_i32",
          "shfl_down_f32", "shfl_up_i32", "shfl_up_f32", "shfl_xor_i32", "match_any", "match_all", "active_mask",
          "sync"]
for _n in _NAMES:
    globals()[_n] = _k("warp", _n)
__all__ = list(_NAMES)
