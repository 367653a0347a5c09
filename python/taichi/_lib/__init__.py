"""Taichi's native module as programs probe it.

Programs ask it which backends a build has (ti._lib.core.with_vulkan()) or
whether GGUI is there (`from taichi._lib import core as _ti_core;
_ti_core.GGUI_AVAILABLE`): a real submodule, so that `from taichi._lib import
core` works as well as the attribute (`ti._lib`). The GPU probes answer
False: programs that see True pick GPU-only paths. GGUI is there: ti.ui
renders on the CPU (python/taichi/ui).
"""
import types as _types


core = _types.SimpleNamespace(
    with_vulkan=lambda: False,
    with_cuda=lambda: False,
    with_metal=lambda: False,
    with_opengl=lambda: False,
    with_gles=lambda: False,
    with_dx11=lambda: False,
    GGUI_AVAILABLE=True,
)
