"""`import kiln` is Kiln's own name for the `taichi` package (python/taichi)."""
import sys as _sys

import taichi as _taichi

_sys.modules[__name__] = _taichi
