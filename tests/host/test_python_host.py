#!/usr/bin/env python3
"""`kiln run --host=python` against `python3 FILE ARGS` (tools/python_host.cpp).

    test_python_host.py KILN PYTHON CASE   runs one case (ctest runs each as its own test)
    test_python_host.py KILN PYTHON        runs them all

PYTHON is the Python that kiln embeds (its python3 with numpy); the taichi
package beside KILN (build/python) is what both import.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TIMEOUT = 60


class Failure(Exception):
    pass


def check(cond, what, *details):
    if not cond:
        raise Failure(what + "".join("\n--- " + str(d) for d in details))


def write(folder, name, text):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def run(cmd, cwd, env=None, stdin=None):
    e = dict(os.environ)
    for k in ("KILN_ENGINE", "KILN_HOST", "VIRTUAL_ENV", "PYTHONPATH"):
        e.pop(k, None)
    e.update(env or {})
    return subprocess.run(cmd, cwd=cwd, env=e, input=stdin, capture_output=True, text=True, timeout=TIMEOUT)


def both(kiln, python, folder, name, args=(), stdin=None):
    """The same program under kiln and under python3 (PYTHONPATH: kiln's package)."""
    k = run([kiln, "run", "--host=python", name, *args], folder, stdin=stdin)
    p = run([python, name, *args], folder, {"PYTHONPATH": os.path.join(os.path.dirname(kiln), "python")}, stdin)
    return k, p


def case_argv_and_path(kiln, python, d):
    # sys.argv verbatim (options after FILE are the program's), __main__, the
    # script's folder first in sys.path, taichi from the package beside kiln.
    write(d, "prog.py", "import sys, os, taichi\n"
          "print(sys.argv, __name__, sys.path[0] == os.path.dirname(os.path.abspath(__file__)))\n"
          "print(os.path.dirname(os.path.dirname(taichi.__file__)))\n"
          "print(sys.executable, sys.flags.isolated)\n")
    k, p = both(kiln, python, d, "prog.py", ["-x", "--print-ir", "a b"])
    check(k.returncode == 0, "kiln failed", k.stderr)
    check(k.stdout == p.stdout, "kiln and python3 differ", k.stdout, p.stdout)
    check(k.stdout.splitlines()[0] == "['prog.py', '-x', '--print-ir', 'a b'] __main__ True", "argv", k.stdout)
    check(k.stdout.splitlines()[1] == os.path.join(os.path.dirname(kiln), "python"), "package folder", k.stdout)


def case_exit_codes(kiln, python, d):
    write(d, "code.py", "import sys\nprint('before')\nsys.exit(3)\n")
    write(d, "msg.py", "import sys\nsys.exit('stopped: bad input')\n")
    write(d, "raise.py", "import numpy as np\n\ndef f(a):\n    return a.reshape(4, 2)\n\nf(np.zeros(6))\n")
    for name, rc in (("code.py", 3), ("msg.py", 1), ("raise.py", 1)):
        k, p = both(kiln, python, d, name)
        check(k.returncode == p.returncode == rc, f"{name}: exit status {k.returncode}, python3 {p.returncode}")
        check((k.stdout, k.stderr) == (p.stdout, p.stderr), f"{name}: output differs from python3", k.stderr, p.stderr)
    check("Traceback (most recent call last):" in k.stderr and "ValueError: cannot reshape" in k.stderr, "traceback",
          k.stderr)


def case_stdin(kiln, python, d):
    prog = "import sys\nprint(__name__, sys.argv)\n"
    k = run([kiln, "run", "--host=python", "-", "a"], d, stdin=prog)
    check(k.stdout == "__main__ ['-', 'a']\n", "kiln run -", k.stdout, k.stderr)
    k = run([kiln], d, {"KILN_HOST": "python"}, stdin=prog)  # a program on a pipe
    check(k.stdout == "__main__ ['-']\n", "kiln < prog", k.stdout, k.stderr)


def case_kernel_error(kiln, python, d):
    # An error of Kiln's compiler: Kiln's format (kind, location, caret, the
    # user's frames), no frames of the taichi package; exit status 1.
    write(d, "kerr.py", "import taichi as ti\nti.init()\n\n\n@ti.kernel\ndef run(n: ti.i32) -> ti.i32:\n"
          "    n = n + 1\n    return n\n\n\ndef main():\n    print(run(3))\n\n\nmain()\n")
    k = run([kiln, "run", "--host=python", "kerr.py"], d)
    want = ("SyntaxError: kernel argument 'n' is immutable in the kernel; assign it to a new variable first\n"
            "  --> kerr.py:7:5\n        n = n + 1\n        ^\nTraceback (most recent call last):\n"
            '  File "kerr.py", line 15, in <module>\n    main()\n  File "kerr.py", line 12, in main\n'
            "    print(run(3))\n")
    check(k.returncode == 1 and k.stderr == want, "kernel error", k.returncode, k.stderr)
    # The same error under python3 is a TaichiSyntaxError with the location in its message.
    p = run([python, "kerr.py"], d, {"PYTHONPATH": os.path.join(os.path.dirname(kiln), "python")})
    check(p.returncode == 1 and "TaichiSyntaxError: kernel argument 'n'" in p.stderr and "--> kerr.py:7:5" in p.stderr,
          "python3's report", p.stderr)


def case_package_error(kiln, python, d):
    # An error raised inside the taichi package on behalf of the user's call
    # points at the user's line.
    write(d, "perr.py", "import taichi as ti\nti.init()\nx = ti.Vector.field(4, ti.f32, shape=3)\n"
          "if True:\n\tx[1] = ti.Vector([1, 2, 3])\n")
    k = run([kiln, "run", "--host=python", "perr.py"], d)
    lines = k.stderr.splitlines()
    check(k.returncode == 1 and len(lines) == 4, "package error", k.returncode, k.stderr)
    check(lines[1:] == ["  --> perr.py:5:2", "    \tx[1] = ti.Vector([1, 2, 3])", "    \t^"], "location", k.stderr)
    # A program's own exception caught and re-raised as its own is Python's business.
    write(d, "own.py", "import taichi as ti\nclass Bad(Exception):\n    pass\nraise Bad('mine')\n")
    k, p = both(kiln, python, d, "own.py")
    check(k.returncode == 1 and k.stderr == p.stderr, "a program's own exception", k.stderr, p.stderr)


def case_options(kiln, python, d):
    write(d, "opts.py", "import taichi as ti\nti.init()\nx = ti.field(ti.i32, shape=4)\n\n\n@ti.kernel\n"
          "def fill():\n    for i in x:\n        x[i] = i\n\n\nfill()\nc = ti.lang_config()\n"
          "print(x.to_numpy().tolist(), c['engine'], c['debug'])\n")
    k = run([kiln, "run", "--host=python", "opts.py"], d)
    check(k.stdout == "[0, 1, 2, 3] jit False\n", "defaults", k.stdout, k.stderr)
    k = run([kiln, "run", "--host=python", "--debug", "opts.py"], d, {"KILN_ENGINE": "interp"})
    check(k.stdout == "[0, 1, 2, 3] interp True\n", "KILN_ENGINE, --debug", k.stdout, k.stderr)
    k = run([kiln, "run", "--host=python", "--engine=interp", "--stats", "--print-ir", "opts.py"], d)
    check(k.stdout == "[0, 1, 2, 3] interp False\n", "--engine", k.stdout, k.stderr)
    check("offloaded range_for" in k.stderr, "--print-ir", k.stderr)
    check("\ncodegen_kernels: 1" in k.stderr or k.stderr.startswith("codegen_kernels: 1"), "--stats", k.stderr)
    k = run([kiln, "run", "--host=nope", "opts.py"], d)
    check(k.returncode == 2 and "unknown host 'nope'" in k.stderr, "bad --host", k.stderr)
    k = run([kiln, "run", "--host=python", "missing.py"], d)
    check(k.returncode == 2 and "cannot open 'missing.py'" in k.stderr, "missing file", k.stderr)


def case_dis(kiln, python, d):
    # Every compiled kernel's IR and bytecode, the same on both hosts; the
    # program's own output goes to stderr.
    hello = os.path.join(ROOT, "examples", "hello.py")
    k = run([kiln, "dis", "--host=python", hello], d)
    b = run([kiln, "dis", "--host=builtin", hello], d)
    check(k.returncode == 0 and "=== kernel fill: bytecode ===" in k.stdout, "dis", k.stdout[:400], k.stderr)
    check(k.stdout == b.stdout, "dis differs between hosts", k.stdout[:400], b.stdout[:400])
    check(k.stderr == b.stderr and k.stderr.strip(), "the program's output on stderr", k.stderr, b.stderr)
    k = run([kiln, "dis", "--host=python", hello, "no_such_kernel"], d)
    check(k.returncode == 1 and "no kernel named 'no_such_kernel'" in k.stderr, "dis of a missing kernel", k.stderr)
    k = run([kiln, "dis", "--host=python", "--trace", hello], d)
    check("=== traces ===" in k.stdout, "dis --trace", k.stdout[-400:])


def case_venv(kiln, python, d):
    venv = os.path.join(d, "venv")
    subprocess.run([python, "-m", "venv", "--without-pip", venv], check=True, timeout=TIMEOUT)
    write(d, "where.py", "import sys\nprint(sys.prefix, sys.executable)\n")
    k = run([kiln, "run", "--host=python", "where.py"], d, {"VIRTUAL_ENV": venv})
    check(k.stdout == f"{venv} {venv}/bin/python3\n", "the venv's prefix", k.stdout, k.stderr)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    kiln, python = os.path.abspath(sys.argv[1]), sys.argv[2]
    names = sys.argv[3:] or list(CASES)
    failed = 0
    for name in names:
        with tempfile.TemporaryDirectory(prefix="kiln-host-") as d:
            try:
                CASES[name](kiln, python, d)
                print(f"ok   {name}")
            except (Failure, subprocess.TimeoutExpired) as e:
                failed += 1
                print(f"FAIL {name}: {e}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
