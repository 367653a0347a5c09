"""taichi.lang.simt, where Taichi's own code imports ti.simt from."""
from ..simt import block, subgroup, warp

__all__ = ["block", "subgroup", "warp"]
