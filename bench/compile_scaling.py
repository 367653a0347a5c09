"""Compile time against kernel size (issue 16): one kernel of S statements, for
S = 10^2 ... 10^5, in the shapes users write, timed at its first call.

    kiln run bench/compile_scaling.py [SIZES...]        (or python3 with PYTHONPATH=build/python)

Shapes, each a fresh kernel per size:
  unrolled  a serial `for k in ti.static(range(S/4))` body of 4 statements on
            fields and a local accumulator;
  parallel  the same unrolled body inside `for i in range(64)`, a parallel loop
            (on the JIT this includes recording and assembling its trace);
  straight  S lines of straight-line code with locals, generated into a module.
A kernel's compile time is its first call less the best of 3 later calls (the
run itself). The process's first big kernel also pays for the memory the
allocator takes from the system (page faults: on the development VM that
doubled the unrolled shape's 10^4 figure, the table's first), so one
unrolled kernel of the largest size is compiled first and reported on its
own line ("cold"); the table then times the compiler on warm memory. Prints one line per shape and size with ms and us per statement,
and a `flat` line: the largest size's us/statement over the smallest's. It
reports and never asserts: the timings move with the machine's load."""
import importlib.util
import os
import sys
import tempfile
import time

import taichi as ti

ti.init(arch=ti.cpu)
SIZES = [int(a) for a in sys.argv[1:]] or [100, 1000, 10000, 100000]
M = 64
a = ti.field(ti.f32, shape=M)
b = ti.field(ti.f32, shape=M)
c = ti.field(ti.i32, shape=M)


def make_unrolled(n):
    @ti.kernel
    def unrolled() -> ti.f32:
        s = 0.0
        for k in ti.static(range(n)):
            t = a[k % M] * 0.5 + b[(k * 7) % M]
            b[(k + 1) % M] = t - s
            c[k % M] += k & 15
            s += t
        return s
    return unrolled


def make_parallel(n):
    @ti.kernel
    def parallel():
        for i in range(M):
            s = 0.0
            for k in ti.static(range(n)):
                t = a[(i + k) % M] * 0.5 + s
                if t > 100.0:
                    t = t * 0.25
                s += t
                b[i] = s
    return parallel


def make_straight(n, tmp):
    # A generated module (kernels need their source in a file): n lines, one
    # statement each, on two reassigned locals and a new name every 4 lines.
    lines = ["import taichi as ti", "", "def make(a, b, M):", "    @ti.kernel",
             "    def straight() -> ti.f32:", "        x = a[0]", "        y = b[1]"]
    for k in range(2, n - 1):
        r = k % 4
        if r == 0:
            lines.append("        x = x * 0.5 + y")
        elif r == 1:
            lines.append(f"        y = y + w{k - 2}")
        elif r == 2:
            lines.append(f"        a[{k % 64}] = x - y")
        else:
            lines.append(f"        w{k} = x + b[{k % 64}]")
    lines += ["        return x + y", "    return straight", ""]
    path = os.path.join(tmp, f"straight_{n}.py")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    spec = importlib.util.spec_from_file_location(f"straight_{n}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.make(a, b, M)


def timed(kernel):
    t0 = time.perf_counter()
    kernel()
    first = time.perf_counter() - t0
    rest = []
    for _ in range(3):
        t0 = time.perf_counter()
        kernel()
        rest.append(time.perf_counter() - t0)
    return max(first - min(rest), 0.0) * 1e3


with tempfile.TemporaryDirectory() as tmp:
    shapes = [("unrolled", lambda s: make_unrolled(s // 4)),
              ("parallel", lambda s: make_parallel(s // 4)),
              ("straight", lambda s: make_straight(s, tmp))]
    print(f"{'shape':10} {'statements':>10} {'compile_ms':>11} {'us/stmt':>9}")
    cold = timed(make_unrolled(SIZES[-1] // 4))
    print(f"{'cold':10} {SIZES[-1]:10d} {cold:11.2f} {cold * 1e3 / SIZES[-1]:9.2f}"
          "  (unrolled, the process's first kernel: its memory is new)", flush=True)
    for name, make in shapes:
        per = []
        for s in SIZES:
            ms = timed(make(s))
            per.append(ms * 1e3 / s)
            print(f"{name:10} {s:10d} {ms:11.2f} {per[-1]:9.2f}", flush=True)
        print(f"{name:10} flat {per[-1] / per[0]:.2f}x (us/statement at {SIZES[-1]} over {SIZES[0]})", flush=True)
