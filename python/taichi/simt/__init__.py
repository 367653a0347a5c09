"""ti.simt: Taichi's GPU-only language (block-shared arrays, block barriers,
subgroup operations, CUDA's warp operations). Inside kernels the frontend
knows each function by its `_kiln_builtin` name (vm/frontend/lower_simt.cpp);
they compile on arch=ti.vulkan and ti.cuda (warp: CUDA only) and are a
ValueError naming the arch on the CPU."""
from . import block, subgroup, warp

__all__ = ["block", "subgroup", "warp"]
