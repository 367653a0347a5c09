"""Kiln's `taichi` package: Taichi programs on CPython.

Host code is the user's own Python (stdlib, numpy, matplotlib, ...); kernels
and ti.funcs are compiled by Kiln (frontend -> IR -> bytecode -> the tracing
JIT) through the native module taichi._core. `import kiln` is the same
package under Kiln's own name."""
import atexit as _atexit
import os as _os
import sys as _sys

# _core uses mimalloc only through its own mi_* calls: it is loaded privately
# (Python's default), and its malloc/new stay the process's (see CMakeLists.txt).
from . import _core

from . import _state
from ._errors import (TaichiCompilationError, TaichiSyntaxError, TaichiNameError, TaichiTypeError, TaichiIndexError,
                      TaichiRuntimeError, TaichiAssertionError, TaichiRuntimeTypeError, InvalidOperationError)
from ._types import (DataType, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64, bf16, u1, template, ref, is_signed,
                     is_integral, is_unsigned, cast_scalar as _cast_scalar)
from ._types import is_float_name as _is_float_name
from . import types
from . import math
from . import simt
from . import layout
from . import profiler
from ._matrix import Matrix, Vector
from ._struct import Struct, dataclass
from ._kernel import kernel, func, real_func, pyfunc, data_oriented, Kernel as _Kernel
from ._field import field
from ._snode import root, SNode, BitpackedFields, FieldsBuilder, SNodeTree, i, j, k, l, ij, ik, il, jk, jl, kl, ijk, ijl, ikl, jkl, ijkl, axes
from ._layout import Layout
from ._ndarray import ndarray, Ndarray
from . import ad
from ._intrinsics import (sqrt, rsqrt, sin, cos, tan, asin, acos, atan, atan2, tanh, exp, log, floor, ceil, round, abs,
                          pow, max, min, select, cast, bit_cast, random, static, static_assert, static_print,
                          loop_config, atomic_add, atomic_sub, atomic_min, atomic_max, atomic_and, atomic_or, atomic_xor,
                          atomic_mul, activate, deactivate, is_active, append, length, rescale_index, get_addr, ndrange,
                          grouped,
                          raw_div, raw_mod, bit_shr, popcnt, clz, loop_unique, assume_in_range, zero, one, stop_grad,
                          block_local, cache_read_only, no_activate)

int8, int16, int32, int64 = i8, i16, i32, i64
uint8, uint16, uint32, uint64 = u8, u16, u32, u64
float16, float32, float64 = f16, f32, f64
__version__ = (1, 7, 0)
version = "1.7.0 (Kiln)"


class _Arch:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name

    def __eq__(self, o):
        return isinstance(o, _Arch) and o.name == self.name

    def __hash__(self):
        return hash(self.name)


cpu, x64, arm64, gpu, cuda, vulkan, metal, opengl, gles, dx11, dx12, amdgpu = (
    _Arch(n) for n in ("cpu", "x64", "arm64", "gpu", "cuda", "vulkan", "metal", "opengl", "gles", "dx11", "dx12", "amdgpu"))
cc = cpu

_INIT_IGNORED = {"log_level", "advanced_optimization", "device_memory_fraction", "packed", "dynamic_index", "verbose", "check_out_of_bound", "excepthook",
                 "default_up", "cfg_optimization", "opt_level",
                 "print_kernel_llvm_ir", "unrolling_limit", "debug_info", "real_matrix_scalarize",
                 "simplify_before_lower_access", "simplify_after_lower_access", "make_block_local", "flatten_if",
                 "print_preprocessed_ir", "demote_dense_struct_fors", "experimental_auto_mesh_local", "gdb_trigger",
                 "short_circuit_operators", "vk_api_version", "print_accessor_ir", "use_mesh", "move_loop_invariant_outside_if",
                 "detect_read_only", "cpu_max_num_threads_hint", "kernel_profiler_type", "make_thread_local",
                 "make_mesh_block_local", "lower_access", "print_ir_dbg_info", "auto_mesh_local_default_occupacy",
                 "quant_opt_store_fusion", "quant_opt_atomic_demotion", "async_mode", "print_struct_llvm_ir"}


def init(arch=None, default_fp=None, default_ip=None, _test_mode=False, enable_fallback=True, require_version=None,
         **kwargs):
    """ti.init: a fresh Taichi program (every field, SNode and compiled kernel of the previous one is discarded)."""
    opts = {}
    _state.config["kernel_profiler"] = bool(kwargs.pop("kernel_profiler", False))
    _state.tape, _state.fwd, _state.grad_replaced = None, None, 0
    _state.sync()
    profiler.clear_kernel_profiler_info()
    for k in ("debug", "print_ir", "cpu_max_num_threads", "random_seed", "engine", "dtype_cast_mode", "ad_stack_size",
              "fast_math", "offline_cache", "offline_cache_file_path", "device_memory_GB"):
        if k in kwargs:
            opts[k] = kwargs.pop(k)
    if default_fp is not None:
        opts["default_fp"] = _dt_name(default_fp, "f", "default_fp")
    if default_ip is not None:
        opts["default_ip"] = _dt_name(default_ip, "i", "default_ip")
    for k in list(kwargs):
        if k in _INIT_IGNORED:
            kwargs.pop(k)
    if kwargs:
        raise TypeError(f"init() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if arch is not None:
        # an arch, or a list of them to try in order (Taichi's ti.init(arch=[ti.cuda, ti.vulkan]))
        archs = list(arch) if isinstance(arch, (list, tuple)) else [arch]
        if not archs or not all(isinstance(a, _Arch) for a in archs):
            raise TypeError(f"ti.init(arch=...) takes an arch such as ti.cpu or ti.vulkan, or a list of them, not {arch!r}")
        opts["arch"] = [a.name for a in archs]
        opts["enable_fallback"] = bool(enable_fallback)
    env_threads = _os.environ.get("TI_NUM_THREADS")
    if "cpu_max_num_threads" not in opts and env_threads:
        opts["cpu_max_num_threads"] = int(env_threads)
    _core.init(opts)
    _sync_config(arch)
    return None


def _dt_name(dt, kind, what):
    from ._types import dtype_of
    name = dtype_of(dt)._kiln_prim
    if kind == "f" and not _is_float_name(name):
        raise ValueError(f"{what} must be a floating-point type")
    if kind == "i" and name[0] not in "iu":
        raise ValueError(f"{what} must be an integer type")
    return name


def _sync_config(arch=None):
    c = _core.config()
    _state.config.update(c)
    _state.config["arch"] = {"vulkan": vulkan, "cuda": cuda}.get(c.get("arch"), cpu)


def reset():
    """ti.reset: discard the current program (fields, kernels); the next use starts a default one."""
    _core.reset()


def sync():
    """Waits for the kernels a device still runs (CUDA defers launches that cannot fail); on the
    CPU engines kernels finish before their call returns."""
    _core.materialize()


def deactivate_all_snodes():
    """Deactivates every cell of every sparse SNode (pointer, bitmasked, dynamic)."""
    _core.deactivate_all_snodes()


def print_statistics():
    print(_core.statistics_text(), end="")


def statistics():
    return _core.statistics()


def lang_config():
    return dict(_state.config)


def is_arch_supported(arch):
    return (arch in (cpu, x64) or (arch == vulkan and _core.vulkan_available())
            or (arch in (cuda, gpu) and _core.cuda_available()))


def get_default_ip():
    return getattr(_sys.modules[__name__], _state.config["default_ip"])


def get_default_fp():
    return getattr(_sys.modules[__name__], _state.config["default_fp"])


_core.set_factories(__import__("taichi._matrix", fromlist=["_"])._make_from_kernel,
                    __import__("taichi._struct", fromlist=["_"])._make_from_kernel)
_atexit.register(_core.shutdown)


def __getattr__(name):
    # pieces that cost time to import are loaded when first used
    if name in ("GUI", "rgb_to_hex", "hex_to_rgb"):
        from . import _gui
        return getattr(_gui, name)
    if name == "tools":
        from . import _tools as tools
        return tools
    if name in ("lang", "algorithms", "linalg", "sparse", "ui", "graph", "_lib"):
        import importlib
        return importlib.import_module(__name__ + "." + name)
    if name == "randn":
        from ._funcs import randn
        return randn
    if name in ("svd", "polar_decompose", "sym_eig", "eig"):
        from . import _decomp
        return getattr(_decomp, name)
    if name in ("imwrite", "imread", "imshow", "imresize"):
        from . import _tools
        return getattr(_tools, name)
    raise AttributeError(f"module 'taichi' has no attribute '{name}'")
