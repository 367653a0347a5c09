"""ti.simt: Taichi's GPU-only language (block-shared arrays, block barriers,
subgroup operations). Inside kernels the frontend knows each function by its
`_kiln_builtin` name (vm/frontend/lower_simt.cpp); they compile on
arch=ti.vulkan and are a ValueError naming the arch on the CPU."""
from . import block, subgroup

__all__ = ["block", "subgroup"]
