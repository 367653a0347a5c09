"""The package's view of the current Program's options (ti.init)."""
config = {"default_ip": "i32", "default_fp": "f32", "debug": False, "arch": "cpu", "kernel_profiler": False}
# Autodiff (taichi.ad): the Tape recording kernel launches, the FwdMode whose
# kernels run as their dual, and how deep we are inside grad_replaced functions.
tape = None
fwd = None
grad_replaced = 0


# A kernel launch from Python runs in C unless a Tape, a FwdMode or the
# kernel profiler needs the Python method (Kernel._call): the C side keeps
# that as one flag instead of looking these up at every launch. This module's
# class tells it whenever `tape`, `fwd` or `config` is assigned; whoever
# changes config["kernel_profiler"] in place calls sync().
import sys as _sys
import types as _types

from . import _core


def sync():
    _core.set_plain_launch(tape is None and fwd is None and not config["kernel_profiler"])


class _StateModule(_types.ModuleType):
    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if name in ("tape", "fwd", "config"):
            sync()


_sys.modules[__name__].__class__ = _StateModule
sync()
