"""A program that ends while the default engine compiles a kernel with LLVM
on its background thread (the tier-up of jit/tiered.cpp) exits cleanly.
It used to crash (or spin) now and then: exit() destroyed LLVM's statics under
the compiling thread. KILN_TIER_MS=0 starts the compile after the kernel's
first launch, so these programs end with a compile in flight. Programs that
import mpi4py (as taichi.distributed does) crashed most often, about one run
in five: Open MPI's finalization at exit widens the window."""
import os
import subprocess
import sys

import pytest

PROGRAM = """
import taichi as ti
ti.init(arch=ti.cpu)
n = 64
a = ti.field(ti.f32, shape=(n, n))
b = ti.field(ti.f32, shape=(n, n))

@ti.kernel
def step():
    for i, j in ti.ndrange((1, n - 1), (1, n - 1)):
        v = a[i, j]
        for k in ti.static(range(150)):  # a body LLVM takes a while to compile at O3
            v = ti.sin(v) * 0.5 + a[i - 1, j] * k
        b[i, j] = v

step()
print("ok", b[1, 1])
"""


def _env():
    env = dict(os.environ, KILN_TIER_MS="0")
    env.pop("KILN_ENGINE", None)
    env.pop("KILN_TIER_SYNC", None)
    return env


def _program(tmp_path):
    prog = tmp_path / "tier_exit.py"
    try:
        import mpi4py  # noqa: F401
        prog.write_text("from mpi4py import MPI\n" + PROGRAM)
    except ImportError:
        prog.write_text(PROGRAM)
    return str(prog)


def _runs(argv, times):
    for _ in range(times):
        r = subprocess.run(argv, env=_env(), capture_output=True, text=True, timeout=120)
        assert (r.returncode, r.stdout) == (0, "ok 0.0\n"), r.stderr[-3000:]


def test_python_exits_while_a_kernel_compiles(tmp_path):
    _runs([sys.executable, _program(tmp_path)], 20)


def test_kiln_run_exits_while_a_kernel_compiles(tmp_path):
    import taichi
    kiln = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(taichi.__file__))), "kiln")
    if not os.access(kiln, os.X_OK):
        pytest.skip("no kiln binary next to the package (an installed taichi)")
    _runs([kiln, "run", _program(tmp_path)], 10)
