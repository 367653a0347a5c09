#!/usr/bin/env python3
"""Bad sizes never crash or hang Kiln (issue 15): every size-taking call of
the ti layer, run with every value of VALUES, then `x.fill(1)`, must end in
success or a clear user error (exit 1, `Kind: message`, a `--> file:line:col`
location and a caret) within a short (CPU) time; never a signal, another exit
status or a timeout.

  bad_sizes.py KILN [--capi CAPI_LOAD] [--python PYTHON] [--jobs N] [--timeout S] [--slow S] [--keep DIR]

Each case is a small program run by `KILN run`, and with --capi also loaded
through the C API by tests/sizes/capi_load.c; with --python also by
`PYTHON FILE` (the taichi package on CPython; PYTHONPATH as given), where a
Python traceback ending in `Kind: message` is the clear error. The cases run
in parallel.
"""
import argparse
import concurrent.futures as cf
import os
import re
import subprocess
import sys
import tempfile
import threading

VALUES = ["-1", "0", "-2**31", "2**30", "2**31 - 1", "2**31", "2**40", "10**12", "2**62", "2**64", "10**30", "2.5"]

# What Kiln may allocate (sizes.h): 1 GiB, so that a legal-looking 2**30 or
# 2**31 - 1 of f32 is a MemoryError on every machine instead of gigabytes
# touched by fill(), and the test stays fast and deterministic.
MEMORY = str(2**30)

# (name, program body with V for the value). `x` is filled afterwards.
CALLS = [
    ("field_1d", "x = ti.field(ti.f32, shape={V})"),
    ("field_2d", "x = ti.field(ti.f32, shape=({V}, 4))"),
    ("field_2d_square", "x = ti.field(ti.f32, shape=({V}, {V}))"),
    ("field_3d", "x = ti.field(ti.f32, shape=(4, {V}, {V}))"),
    ("vector_n", "x = ti.Vector.field({V}, ti.f32, shape=4)"),
    ("vector_shape", "x = ti.Vector.field(3, ti.f32, shape={V})"),
    ("matrix_n", "x = ti.Matrix.field({V}, 2, ti.f32, shape=4)"),
    ("matrix_m", "x = ti.Matrix.field(2, {V}, ti.f32, shape=4)"),
    ("matrix_nm", "x = ti.Matrix.field({V}, {V}, ti.f32, shape=4)"),
    ("matrix_shape", "x = ti.Matrix.field(2, 2, ti.f32, shape=({V}, {V}))"),
    ("struct_shape", "x = ti.Struct.field({'a': ti.f32, 'b': ti.i32}, shape={V})"),
    ("dense", "x = ti.field(ti.f32)\nti.root.dense(ti.i, {V}).place(x)"),
    ("dense_ij", "x = ti.field(ti.f32)\nti.root.dense(ti.ij, ({V}, {V})).place(x)"),
    ("dense_nested", "x = ti.field(ti.f32)\nti.root.dense(ti.i, {V}).dense(ti.i, {V}).place(x)"),
    ("pointer", "x = ti.field(ti.f32)\nti.root.pointer(ti.i, {V}).place(x)"),
    ("pointer_dense", "x = ti.field(ti.f32)\nti.root.pointer(ti.ij, 4).dense(ti.ij, ({V}, {V})).place(x)"),
    ("bitmasked_ij", "x = ti.field(ti.f32)\nti.root.bitmasked(ti.ij, ({V}, {V})).place(x)"),
    ("dynamic", "x = ti.field(ti.f32)\nti.root.dynamic(ti.i, {V}).place(x)"),
    ("dynamic_chunk", "x = ti.field(ti.f32)\nti.root.dynamic(ti.i, 1024, chunk_size={V}).place(x)"),
    ("ndarray", "x = ti.ndarray(ti.f32, shape={V})"),
    ("ndarray_2d", "x = ti.ndarray(ti.f32, shape=({V}, {V}))"),
    ("vector_ndarray", "x = ti.Vector.ndarray({V}, ti.f32, shape=4)"),
]

FILL = "x.fill(1)\nprint('ok')\n"

# Exact messages of the MemoryError cases (they name the machine's memory,
# so they are checked here, under MEMORY, rather than in tests/lang).
EXACT = [
    ("x = ti.field(ti.f32, shape=2**30)\n",
     "MemoryError: the request of 4294967296 bytes exceeds the machine's memory (1073741824 bytes)\n"
     "  --> {F}:3:5\n    x = ti.field(ti.f32, shape=2**30)\n        ^\n"),
    ("x = ti.ndarray(ti.f32, shape=(2**20, 2**20))\n",
     "MemoryError: the request of 4398046511104 bytes exceeds the machine's memory (1073741824 bytes)\n"
     "  --> {F}:3:5\n    x = ti.ndarray(ti.f32, shape=(2**20, 2**20))\n        ^\n"),
    ("x = ti.field(ti.f32)\nti.root.pointer(ti.i, 2**30).place(x)\n",
     "MemoryError: the request of 8589934592 bytes exceeds the machine's memory (1073741824 bytes)\n"
     "  --> {F}:4:1\n    ti.root.pointer(ti.i, 2**30).place(x)\n    ^\n"),
    ("x = ti.field(ti.f64)\nti.root.pointer(ti.i, 4).dynamic(ti.j, 2**28).place(x)\n",
     "MemoryError: the request of 2147483648 bytes exceeds the machine's memory (1073741824 bytes)\n"
     "  --> {F}:4:1\n    ti.root.pointer(ti.i, 4).dynamic(ti.j, 2**28).place(x)\n    ^\n"),
    ("x = ti.Vector.field(3, ti.f32, shape=(2**31 - 1, 2**31 - 1))\n",
     "MemoryError: the request of more than 9223372036854775807 bytes exceeds the machine's memory (1073741824 bytes)\n"
     "  --> {F}:3:5\n    x = ti.Vector.field(3, ti.f32, shape=(2**31 - 1, 2**31 - 1))\n        ^\n"),
    # Legal: only activated blocks of a sparse domain are allocated.
    ("x = ti.field(ti.f32)\nti.root.pointer(ti.ij, 1024).dense(ti.ij, 1024).place(x)\nx[10**6, 10**6] = 1\n"
     "print(x[10**6, 10**6])\n", None),
]


def program(body, value):
    return "import taichi as ti\nti.init(arch=ti.cpu)\n" + body.replace("{V}", "(" + value + ")") + "\n" + FILL


LOCATION = re.compile(r"^  --> .+:\d+:\d+$", re.M)
KIND = re.compile(r"^[A-Za-z]+(Error|Exception): .+", re.M)


def run_timed(cmd, timeout, env):
    """Runs cmd; returns (returncode, stdout, stderr, CPU seconds) or None on
    a timeout. The time is the child's own user + system time (wait4): on a
    machine shared by many jobs, wall time measures the queue, not Kiln."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    out = {}
    readers = [threading.Thread(target=lambda k, f: out.__setitem__(k, f.read()), args=(k, f))
               for k, f in (("out", p.stdout), ("err", p.stderr))]
    for t in readers:
        t.start()
    timer = threading.Timer(timeout, p.kill)
    timer.start()
    try:
        _, status, usage = os.wait4(p.pid, 0)
    finally:
        timing_out = not timer.is_alive()
        timer.cancel()
    for t in readers:
        t.join()
    p.returncode = os.waitstatus_to_exitcode(status)
    if timing_out and p.returncode == -9:
        return None
    return p.returncode, out["out"], out["err"], usage.ru_utime + usage.ru_stime


def check(cmd, path, timeout, python=False):
    env = dict(os.environ, KILN_MEMORY_BYTES=MEMORY)
    r = run_timed(cmd + [path], timeout, env)
    if r is None:
        return "timeout after %gs" % timeout, None
    p = subprocess.CompletedProcess(cmd, r[0], r[1], r[2])
    took = r[3]
    if p.returncode == 0:
        return (None if p.stdout.endswith("ok\n") else "exit 0 without 'ok': " + p.stdout[-200:]), took
    if p.returncode != 1:
        return "exit status %d%s\n%s" % (p.returncode, " (signal)" if p.returncode < 0 else "", p.stderr[-600:]), took
    err = p.stderr
    if python:
        last = err.strip().splitlines()[-1] if err.strip() else ""
        if "Traceback" not in err or not KIND.match(last):
            return "exit 1 without a Python traceback ending in the error:\n" + err[-600:], took
    elif not KIND.search(err) or not LOCATION.search(err) or "^" not in err:
        return "exit 1 without a located error:\n" + err[-600:], took
    return None, took


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kiln")
    ap.add_argument("--capi", help="tests/sizes/capi_load.c's executable: also load every case through the C API")
    ap.add_argument("--python", help="a python3 that imports the taichi package: also run every case on CPython")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--slow", type=float, default=0, help="fail a run that takes more CPU seconds (0: no check)")
    ap.add_argument("--keep", help="write the programs here instead of a temporary folder")
    ap.add_argument("-v", action="store_true", help="print every case's result")
    a = ap.parse_args()
    d = a.keep or tempfile.mkdtemp(prefix="kiln-sizes-")
    os.makedirs(d, exist_ok=True)
    cases = []
    for name, body in CALLS:
        for i, v in enumerate(VALUES):
            path = os.path.join(d, "%s_%02d.py" % (name, i))
            with open(path, "w") as f:
                f.write(program(body, v))
            cases.append((name, v, path, [a.kiln, "run"], False))
            if a.capi:
                cases.append((name + " [C API]", v, path, [a.capi], False))
            if a.python:
                cases.append((name + " [python]", v, path, [a.python], True))
    bad = 0
    for k, (body, want) in enumerate(EXACT):
        path = os.path.join(d, "exact_%02d.py" % k)
        with open(path, "w") as f:
            f.write("import taichi as ti\nti.init(arch=ti.cpu)\n" + body)
        env = dict(os.environ, KILN_MEMORY_BYTES=MEMORY)
        p = subprocess.run([a.kiln, "run", path], capture_output=True, text=True, timeout=a.timeout, env=env)
        got = p.stderr.replace(path, "{F}")
        if (want is None and p.returncode != 0) or (want is not None and (p.returncode != 1 or got != want)):
            bad += 1
            print("FAIL %s: exit %d, stderr:\n%s" % (path, p.returncode, p.stderr))
        else:
            os.unlink(path)
    slowest = (0.0, "")
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        futs = {ex.submit(check, cmd, p, a.timeout, py): (n, v, p) for n, v, p, cmd, py in cases}
        for fut in cf.as_completed(futs):
            n, v, p = futs[fut]
            problem, took = fut.result()
            if took is not None and took > slowest[0]:
                slowest = (took, "%s V=%s" % (n, v))
            if problem is None and a.slow and took is not None and took > a.slow:
                problem = "took %.2fs of CPU (more than %gs)" % (took, a.slow)
            if problem:
                bad += 1
                print("FAIL %s V=%s (%s): %s" % (n, v, p, problem))
            elif a.v:
                print("ok   %s V=%s %.2fs" % (n, v, took))
    print("%d of %d runs ended in a crash, a hang or an unclear error; slowest %.2fs of CPU (%s)"
          % (bad, len(cases), slowest[0], slowest[1]))
    if not a.keep and bad == 0:
        for p in {c[2] for c in cases}:
            os.unlink(p)
        os.rmdir(d)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
