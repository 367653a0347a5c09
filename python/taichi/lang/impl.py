"""taichi.lang.impl: the configuration probe Taichi's examples use
(ti.lang.impl.current_cfg().arch == ti.cuda picks GGUI or GPU paths)."""
import types


def current_cfg():
    """The running program's settings: arch (the one kernels run on: ti.cpu
    or ti.vulkan), default_fp, default_ip, debug."""
    import taichi as ti
    from .. import _state
    c = _state.config
    arch = getattr(ti, c["arch"]) if isinstance(c["arch"], str) else c["arch"]  # a name until ti.init
    return types.SimpleNamespace(arch=arch, default_fp=getattr(ti, c["default_fp"]),
                                 default_ip=getattr(ti, c["default_ip"]), debug=bool(c.get("debug", False)))
