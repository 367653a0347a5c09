"""Kernels too large for LLVM stay on the tracing JIT (jit/tiered.cpp):
LLVM's code generation is superlinear in a kernel's size, and a kernel unrolled
by ti.static to 10^5 statements kept a tier-up compile (and the program's exit,
which waits for it) busy for over an hour. KILN_TIER_MAX_STMTS is the limit
(default 40000 IR statements); KILN_TIER_SYNC=1 with KILN_TIER_MS=0 tiers up
at the first launch, so `tier_ups` tells which way it went."""
import os
import subprocess
import sys

PROGRAM = """
import taichi as ti
ti.init(arch=ti.cpu)
a = ti.field(ti.f32, shape=16)

@ti.kernel
def unrolled() -> ti.f32:
    s = 0.0
    for k in ti.static(range(40)):
        a[k % 16] += k * 0.5
        s += a[(k * 7) % 16]
    return s

first = unrolled()
second = unrolled()
print("tier_ups", int(ti.statistics().get("tier_ups", 0)), first, second)
"""


def _run(tmp_path, max_stmts):
    prog = tmp_path / "unrolled.py"
    prog.write_text(PROGRAM)
    env = dict(os.environ, KILN_TIER_MS="0", KILN_TIER_SYNC="1", KILN_TIER_MAX_STMTS=str(max_stmts))
    env.pop("KILN_ENGINE", None)
    out = subprocess.run([sys.executable, str(prog)], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_small_kernel_tiers_up_large_one_stays_on_the_jit(tmp_path):
    small_limit = _run(tmp_path, 10)  # the kernel has far more than 10 statements
    large_limit = _run(tmp_path, 1000000)
    assert small_limit[:2] == ["tier_ups", "0"]
    assert large_limit[:2] == ["tier_ups", "1"]
    assert small_limit[2:] == large_limit[2:]  # the same results either way
