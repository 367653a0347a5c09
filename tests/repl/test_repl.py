#!/usr/bin/env python3
"""Drives `kiln repl` through a pseudo-terminal (prompts, echo, blocks,
errors, completion, Ctrl-C, history, commands) and through pipes.

    test_repl.py KILN CASE      runs one case (ctest runs each as its own test)
    test_repl.py KILN           runs them all

Every wait is bounded (EXPECT_TIMEOUT) and the child is killed on the way out,
so a broken REPL fails the test instead of hanging CI.
"""
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time

EXPECT_TIMEOUT = 20.0  # seconds; generous for a loaded CI machine
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b[=>]|\r|\x07|\x08")
# An escape sequence cut in two by a read: held back until the rest arrives.
PARTIAL_ANSI = re.compile(rb"\x1b(\[[0-9;?]*|[()])?$")


class Failure(Exception):
    pass


class Pty:
    """A kiln process on a pseudo-terminal, with expect-style reads."""

    def __init__(self, kiln, args=("repl",), home=None, term="xterm"):
        self.home = home or tempfile.mkdtemp(prefix="kiln-repl-")
        env = dict(os.environ, HOME=self.home, TERM=term, COLUMNS="200", LINES="50")
        env.pop("KILN_ENGINE", None)
        pid, fd = pty.fork()
        if pid == 0:
            try:
                os.execve(kiln, [kiln, *args], env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.raw = b""     # everything read, for failure messages
        self.pending = b""  # read but not yet matched (escape sequences removed)
        self.partial = b""  # the start of an escape sequence a read cut off
        self.status = None

    def send(self, text):
        os.write(self.fd, text.encode() if isinstance(text, str) else text)

    def line(self, text):
        self.send(text + "\r")

    def _read(self, deadline):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        r, _, _ = select.select([self.fd], [], [], min(left, 0.2))
        if not r:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            data = b""
        if not data:
            raise Failure("kiln exited while we waited; output so far:\n" + self.transcript())
        self.raw += data
        data = self.partial + data
        cut = PARTIAL_ANSI.search(data)
        self.partial = data[cut.start():] if cut else b""
        self.pending += ANSI.sub(b"", data[:cut.start()] if cut else data)
        return True

    def expect(self, pattern, timeout=EXPECT_TIMEOUT):
        """Waits for a regex (str) in the output; returns the text before it."""
        rx = re.compile(pattern.encode())
        deadline = time.monotonic() + timeout
        while True:
            m = rx.search(self.pending)
            if m:
                before = self.pending[: m.start()].decode(errors="replace")
                self.pending = self.pending[m.end():]
                return before
            if not self._read(deadline):
                raise Failure(f"timed out waiting for {pattern!r}; unmatched output:\n"
                              f"{self.pending.decode(errors='replace')}\n--- transcript ---\n{self.transcript()}")

    def prompt(self):
        return self.expect(r">>> ")

    def run(self, text):
        """Types one line; returns what kiln printed before its next prompt
        (">>> " or "... "), without the echo of the line itself."""
        self.line(text)
        out = self.expect(r"(>>>|\.\.\.) ")
        return out.split("\n", 1)[1] if "\n" in out else ""

    def block(self, lines):
        """Types several lines, each after the previous one's prompt; returns
        the output of the last."""
        out = ""
        for text in lines:
            out = self.run(text)
        return out

    def transcript(self):
        return ANSI.sub(b"", self.raw).decode(errors="replace")

    def wait(self, timeout=EXPECT_TIMEOUT):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
            try:
                self._read(time.monotonic() + 0.1)
            except Failure:
                pass
        raise Failure("kiln did not exit; transcript:\n" + self.transcript())

    def close(self):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        try:
            os.close(self.fd)
        except OSError:
            pass


def check(cond, what, p=None):
    if not cond:
        raise Failure(what + ("\n--- transcript ---\n" + p.transcript() if p else ""))


# ---- cases over a terminal --------------------------------------------------------

def case_prompts(kiln):
    p = Pty(kiln)
    try:
        p.expect(r"kiln \S+ .*:help")
        p.prompt()
        check(p.run("1 + 2").strip() == "3", "1 + 2 is echoed as 3", p)
        fcntl.ioctl(p.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))  # SIGWINCH
        check(p.run("3 + 4").strip() == "7", "a terminal resize changes nothing else", p)
        check(p.run("'a' * 2").strip() == "'aa'", "a str is echoed with its repr", p)
        check(p.run("None").strip() == "", "None echoes nothing", p)
        p.line("def twice(v):")
        p.expect(r"\.\.\. ")
        p.line("    return v * 2")
        p.expect(r"\.\.\. ")
        p.line("")
        p.prompt()
        check(p.run("twice(21)").strip() == "42", "a block closed by a blank line defines the function", p)
        p.line("[1,")
        p.expect(r"\.\.\. ")
        p.line(" 2]")
        check("[1, 2]" in p.prompt(), "an open bracket continues the line", p)
        # a decorator, its def and a kernel
        p.block(["import taichi as ti", "x = ti.field(ti.i32, shape=8)"])
        p.line("@ti.kernel")
        p.expect(r"\.\.\. ")
        p.line("def fill(v: ti.i32):")
        p.expect(r"\.\.\. ")
        p.block(["    for i in x:", "        x[i] = v + i", "", "fill(3)"])
        check(p.run("x[5]").strip() == "8", "the kernel ran", p)
        p.line(":quit")
        check(p.wait() == 0, "':quit' exits with status 0", p)
    finally:
        p.close()
    p = Pty(kiln, args=())  # plain `kiln` on a terminal is the REPL too
    try:
        p.prompt()
        check(p.run("2 ** 10").strip() == "1024", "`kiln` with no arguments starts the REPL", p)
        p.send(b"\x04")
        check(p.wait() == 0, "Ctrl-D exits with status 0", p)
    finally:
        p.close()


def case_errors_keep_state(kiln):
    p = Pty(kiln)
    try:
        p.prompt()
        p.block(["import taichi as ti", "n = 41", "x = ti.field(ti.f32, shape=4)"])
        out = p.run("y = n +")
        check("SyntaxError" in out and "^" in out, "a syntax error prints its caret", p)
        out = p.run("undefined_name + 1")
        check("NameError" in out and "undefined_name" in out and "^" in out, "a NameError with its caret", p)
        out = p.run("x[7] = 1.0")
        check("IndexError" in out and "shape (4,)" in out and "^" in out, "host out-of-bounds: IndexError", p)
        p.block(["@ti.kernel", "def bad(i: ti.i32):", "    x[i] = 2.0", ""])
        out = p.run("bad(9)")
        check("IndexError" in out and "x[i] = 2.0" in out and "^" in out, "kernel out-of-bounds: IndexError", p)
        p.block(["@ti.kernel", "def typed(i: ti.i32) -> ti.i32:", "    return i.nope", ""])
        out = p.run("typed(1)")
        check("Error" in out and "i.nope" in out and "^" in out, "a kernel compile error prints its caret", p)
        check(p.run("n + 1").strip() == "42", "variables survive errors", p)
        p.run("x[2] = 5.0")
        check(p.run("x[2] + x[3]").strip() == "5.0", "fields survive errors", p)
        check("ZeroDivisionError" in p.run("1 / 0"), "host runtime errors are reported", p)
        check(p.run("n").strip() == "41", "still alive after a runtime error", p)
    finally:
        p.close()


def case_redefine(kiln):
    p = Pty(kiln)
    try:
        p.prompt()
        p.block(["import taichi as ti", "x = ti.field(ti.i32, shape=4)",
                 "@ti.func", "def f(i):", "    return i * 10", "",
                 "@ti.kernel", "def k():", "    for i in x:", "        x[i] = f(i)", "", "k()"])
        check(p.run("x[3]").strip() == "30", "first definition", p)
        p.block(["@ti.func", "def f(i):", "    return i * 100", "", "k()"])
        check(p.run("x[3]").strip() == "300", "a redefined ti.func takes effect in kernels that call it", p)
        p.block(["@ti.kernel", "def k():", "    for i in x:", "        x[i] = -i", "", "k()"])
        check(p.run("x[3]").strip() == "-3", "a redefined kernel takes effect", p)
        p.block(["x = ti.field(ti.i32, shape=8)", "k()"])
        check(p.run("x[7]").strip() == "-7", "a redefined field takes effect in kernels that use it", p)
        p.block(["N = 5", "@ti.kernel", "def g() -> ti.i32:", "    return N", ""])
        check(p.run("g()").strip() == "5", "a global captured at first compilation", p)
        p.run("N = 6")
        check(p.run("g()").strip() == "5", "plain values keep Taichi's capture-at-first-compile rule", p)
    finally:
        p.close()


def case_completion(kiln):
    p = Pty(kiln)
    try:
        p.prompt()
        p.run("import taichi as ti")
        p.send("y = ti.fie\t")
        p.expect(r"ti\.field")  # the line now reads `y = ti.field`
        p.run("(ti.f32, shape=3)")
        check(p.run("y.shape").strip() == "(3,)", "`ti.fie<TAB>` completed to ti.field", p)
        p.send("y.sha\t")
        p.expect(r"y\.shape")
        check(p.run("").strip() == "(3,)", "`y.sha<TAB>` completed an attribute of a field", p)
        p.run("my_long_variable = 5")
        p.send("my_lo\t")
        p.expect(r"my_long_variable")
        check(p.run(" * 2").strip() == "10", "a global's name completes", p)
        p.send("ti.sq\t")
        p.expect(r"ti\.sqrt")
        check(p.run("(4.0)").strip() == "2.0", "ti.sq<TAB> -> ti.sqrt", p)
        p.send(":fie\t")
        p.expect(r":fields")
        check("S0root->S1dense->S2place<f32>" in p.run(""), "a command completes", p)
        p.send("ti.\t\t")  # two TABs list the module's members
        # Both names are listed; their order depends on the column layout.
        p.expect(r"(?s)ti\.kernel.*ti\.field|ti\.field.*ti\.kernel")
        p.send(b"\x03")  # Ctrl-C: drop the line
        p.expect("KeyboardInterrupt")
        p.prompt()
        check(p.run("'after'").strip() == "'after'", "the session goes on after a listing", p)
    finally:
        p.close()


def case_ctrl_c(kiln):
    p = Pty(kiln)
    try:
        p.prompt()
        p.block(["import taichi as ti", "@ti.kernel", "def spin() -> ti.i32:", "    s = 0",
                 "    while s >= 0:", "        s = (s + 1) % 1000", "    return s", "",
                 "kept = 'still here'"])
        p.line("spin()")
        p.expect(r"spin\(\)\n")  # the line was taken: it runs now
        time.sleep(1.0)  # let it get deep into the loop
        p.send(b"\x03")
        out = p.prompt()
        check("KeyboardInterrupt" in out and "while s >= 0" in out, "Ctrl-C interrupts a kernel's loop", p)
        check(p.run("kept").strip() == "'still here'", "the session continues after the interrupt", p)
        # a parallel kernel: every worker stops
        p.block(["x = ti.field(ti.i32, shape=64)", "@ti.kernel", "def par():", "    for i in x:",
                 "        j = 1", "        while j > 0:", "            j = j % 7 + 1", "        x[i] = j", ""])
        p.line("par()")
        p.expect(r"par\(\)\n")
        time.sleep(1.0)
        p.send(b"\x03")
        check("KeyboardInterrupt" in p.prompt(), "Ctrl-C interrupts a parallel kernel", p)
        # a long range-for
        p.block(["@ti.kernel", "def long_sum() -> ti.i64:", "    s = ti.i64(0)",
                 "    for i in range(2000000000):", "        for j in range(2000000000):",
                 "            s += i ^ j", "    return s", ""])
        p.line("long_sum()")
        p.expect(r"long_sum\(\)\n")
        time.sleep(1.0)
        p.send(b"\x03")
        check("KeyboardInterrupt" in p.prompt(), "Ctrl-C interrupts a range-for kernel", p)
        # an inner loop the JIT runs in lanes (AVX2), called by a long outer loop
        p.block(["ys = ti.field(ti.i32, shape=1 << 16)", "@ti.kernel", "def lanes() -> ti.i32:", "    s = 0",
                 "    ti.loop_config(serialize=True)", "    for r in range(2000000000):",
                 "        for i in range(1 << 16):", "            s += ys[i] + r", "    return s", ""])
        p.line("lanes()")
        p.expect(r"lanes\(\)\n")
        time.sleep(1.0)
        p.send(b"\x03")
        check("KeyboardInterrupt" in p.prompt(), "Ctrl-C interrupts a kernel whose inner loop runs in lanes", p)
        # a host loop
        p.line("while True: pass")
        p.expect(r"pass\n")
        time.sleep(0.5)
        p.send(b"\x03")
        check("KeyboardInterrupt" in p.prompt(), "Ctrl-C interrupts a host loop", p)
        check(p.run("spin is not None").strip() == "True", "later inputs run", p)
        # at the prompt: Ctrl-C clears the line
        p.send("garbage_that_is_never_run")
        p.expect("garbage_that_is_never_run")
        p.send(b"\x03")
        p.expect("KeyboardInterrupt")
        p.prompt()
        out = p.run("6 * 7")
        check(out.strip() == "42", "Ctrl-C at the prompt clears the line", p)
        # ... and drops an unfinished block
        p.line("def half_typed():")
        p.expect(r"\.\.\. ")
        p.send(b"\x03")
        p.prompt()
        check(p.run("'fresh'").strip() == "'fresh'", "Ctrl-C drops an unfinished block", p)
        p.send(b"\x04")  # Ctrl-D leaves
        check(p.wait() == 0, "Ctrl-D exits with status 0", p)
    finally:
        p.close()


def case_history(kiln):
    home = tempfile.mkdtemp(prefix="kiln-repl-home-")
    p = Pty(kiln, home=home)
    try:
        p.prompt()
        p.run("12345 * 2")
        p.send(b"\x04")
        p.wait()
    finally:
        p.close()
    hist = os.path.join(home, ".kiln_history")
    check(os.path.exists(hist), "history is saved in $HOME/.kiln_history")
    with open(hist, "rb") as f:
        check(b"12345" in f.read(), "the history file holds the line typed")
    p = Pty(kiln, home=home)
    try:
        p.prompt()
        p.send(b"\x1b[A")  # up arrow: the previous session's line
        p.expect("12345")
        check(p.run("").strip() == "24690", "history from the last session is recalled", p)
        p.line(":quit")
        p.wait()
    finally:
        p.close()
    # an unwritable home: no message, normal exit
    p = Pty(kiln, home=os.path.join(home, "does", "not", "exist"))
    try:
        p.prompt()
        p.run("1")
        p.line(":quit")
        check(p.wait() == 0, "an unwritable history file is not an error", p)
        check("kiln_history" not in p.transcript(), "failing to save history is silent", p)
    finally:
        p.close()


def case_commands(kiln):
    p = Pty(kiln)
    prog = os.path.join(p.home, "defs.py")
    with open(prog, "w") as f:
        f.write("import taichi as ti\nv = ti.field(ti.f32, shape=(2, 3))\nloaded = 7\n"
                "@ti.kernel\ndef scale(s: ti.f32):\n    for i, j in v:\n        v[i, j] = s * (i + j)\n")
    try:
        p.prompt()
        out = p.run(":help")
        for c in [":ir", ":bc", ":time", ":fields", ":load", ":reset", ":quit"]:
            check(c in out, f":help lists {c}", p)
        p.run(f":load {prog}")
        check(p.run("loaded").strip() == "7", ":load runs a file into the session", p)
        check("not been compiled" in p.run(":ir scale"), ":ir of a kernel never called says so", p)
        check("no kernel named" in p.run(":bc nothing"), ":bc of an unknown name says so", p)
        check(re.search(r"wall time: [0-9.]+ (s|ms|us)", p.run(":time scale(2.0)")), ":time prints the wall time", p)
        check(p.run("v[1, 2]").strip() == "6.0", ":time ran its statement", p)
        out = p.run(":ir scale")
        check("range_for" in out or "struct_for" in out, ":ir prints the kernel's IR", p)
        out = p.run(":bc scale")
        check("defs.py" in out and "v[i, j] = s * (i + j)" in out, ":bc prints bytecode with source lines", p)
        out = p.run(":fields")
        check(re.search(r"v\s+\(2, 3\)\s+f32\s+S0root->S1dense->S2place<f32>\s+24", out), ":fields row", p)
        check("unknown command" in p.run(":nonsense"), "unknown commands are reported", p)
        p.run(":reset")
        check("NameError" in p.run("loaded"), ":reset forgets the session", p)
        check("no fields" in p.run(":fields"), ":reset forgets fields", p)
        p.block(["import taichi as ti", "w = ti.Vector.field(2, ti.i32, shape=3)"])
        out = p.run(":fields")
        check(re.search(r"w\s+\(3,\)\s+vec2<i32>\s+S0root->S1dense->\{S2,S3\}place<i32>\s+24", out),
              ":fields shows a vector field as one row", p)
        p.run("import sys")
        p.line("sys.exit(3)")
        check(p.wait() == 3, "sys.exit(n) leaves with status n", p)
    finally:
        p.close()


def case_python(kiln):
    """`kiln repl` is CPython: ti is imported, and any Python statement runs
    (not on KILN_HOST=builtin: the built-in host is the C API's subset)."""
    p = Pty(kiln)
    data = os.path.join(p.home, "data.json")
    with open(data, "w") as f:
        f.write('{"n": 6, "scale": 2.5}')
    try:
        p.expect(r"kiln \S+ \(Python 3")
        p.prompt()
        check(p.run("ti.__name__").strip() == "'taichi'", "ti is imported at start", p)
        p.run("import json, itertools, collections, numpy as np")
        p.line(f"with open({data!r}) as f:")
        p.expect(r"\.\.\. ")
        p.line("    cfg = json.load(f)")
        p.expect(r"\.\.\. ")
        p.run("")
        check(p.run("cfg['n'], f.closed").strip() == "(6, True)", "a with block runs (stdlib json)", p)
        check(p.run("list(itertools.accumulate(range(4)))").strip() == "[0, 1, 3, 6]", "itertools", p)
        p.block(["class Grid:", "    def __init__(self, n):",
                 "        self.x = ti.field(ti.f32, shape=n)", "    def total(self):",
                 "        return float(self.x.to_numpy().sum())", ""])
        p.run("g = Grid(cfg['n'])")
        # a kernel typed at the prompt, over a numpy array and a class's field
        p.block(["@ti.kernel", "def fill(a: ti.types.ndarray(), s: ti.f32):", "    for i in g.x:",
                 "        g.x[i] = a[i] * s", ""])
        p.run("fill(np.arange(cfg['n'], dtype=np.float32), cfg['scale'])")
        check(p.run("g.total()").strip() == "37.5", "a kernel defined at the prompt ran", p)
        out = p.run(":bc fill")
        check("g.x[i] = a[i] * s" in out, ":bc shows the source typed at the prompt", p)
        # an error inside a kernel: Kiln's message and caret, then the session goes on
        p.block(["@ti.kernel", "def broken() -> ti.f32:", "    return g.x[0] + undefined_name", ""])
        out = p.run("broken()")
        check("undefined_name" in out and "^" in out and "<input-" in out, "a kernel's error points at the prompt's line", p)
        check(p.run("collections.Counter('aab')['a']").strip() == "2", "the session goes on after the error", p)
        out = p.run("raise ValueError('mine')")
        check("Traceback" in out and "ValueError: mine" in out, "Python's own errors print Python's traceback", p)
        check(p.run("g.total()").strip() == "37.5", "state survives errors", p)
        p.line("exit(5)")
        check(p.wait() == 5, "exit(5) leaves with status 5", p)
    finally:
        p.close()


# ---- cases over pipes -------------------------------------------------------------

def run_pipe(kiln, args, text):
    return subprocess.run([kiln, *args], input=text.encode(), capture_output=True, timeout=EXPECT_TIMEOUT * 2)


def case_pipe_run(kiln):
    r = run_pipe(kiln, [], "import taichi as ti\nx = 1 + 2\nx\nprint('x is', x)\n")
    check(r.returncode == 0, f"`kiln < prog` exits 0: {r.stderr!r}")
    check(r.stdout == b"x is 3\n", f"`kiln < prog` runs like `kiln run -` (no prompts, no echo): {r.stdout!r}")
    r = run_pipe(kiln, [], "print('before')\nundefined\nprint('after')\n")
    check(r.returncode == 1 and b"NameError" in r.stderr and r.stdout == b"before\n",
          f"`kiln < prog` stops at the first error with status 1: {r.stdout!r} {r.stderr!r}")


def case_pipe_repl(kiln):
    text = ("import taichi as ti\n1 + 2\n"
            "def f(v):\n    return v + 1\n\nf(1)\n"
            "undefined\n"
            "[f(2),\n f(3)]\n"
            ":fields\n"
            "for i in range(2):\n    print(i)\n")  # the last block needs no blank line at EOF
    r = run_pipe(kiln, ["repl"], text)
    check(r.returncode == 0, f"`kiln repl < input` exits 0: {r.stderr!r}")
    check(r.stdout == b"3\n2\n[3, 4]\n(no fields)\n0\n1\n", f"echo without prompts: {r.stdout!r}")
    check(b"NameError" in r.stderr and b">>>" not in r.stdout, f"errors go on: {r.stderr!r}")


def case_trace(kiln):
    text = ("import taichi as ti\nti.init(engine='jit')\nx = ti.field(ti.f32, shape=4096)\n"
            "@ti.kernel\ndef f():\n    for i in x:\n        x[i] = i * 2\n\n"
            "f()\n:trace f\n:trace nothing\n")
    r = subprocess.run([kiln, "repl"], input=text.encode(), capture_output=True, timeout=EXPECT_TIMEOUT * 2,
                       env=dict(os.environ, KILN_JIT="hotloop=1"))
    out = r.stdout.decode()
    check(r.returncode == 0, f":trace session exits 0: {r.stderr!r}")
    check("trace f.task0_range_for" in out and "---- machine code" in out and "guard_ult" in out,
          f":trace prints the kernel's traces with IR and machine code: {out!r}")
    check("no traces of kernel 'nothing'" in out, f":trace of a kernel without traces says so: {out!r}")
    r = run_pipe(kiln, ["repl", "--engine=interp"], ":trace f\n")
    check(b"start it with --engine=jit" in r.stdout, f":trace on the interpreter says how to get traces: {r.stdout!r}")


def case_example(kiln):
    path = os.path.join(ROOT, "examples", "repl_session.txt")
    with open(path) as f:
        text = f.read()
    r = run_pipe(kiln, [], text)
    check(r.returncode == 0, f"`kiln < examples/repl_session.txt` runs: {r.stderr!r}")
    r = run_pipe(kiln, ["repl"], text)
    check(r.returncode == 0 and not r.stderr, f"`kiln repl < examples/repl_session.txt`: {r.stderr!r}")
    with open(os.path.join(HERE, "repl_session.expected"), "rb") as f:
        expected = f.read()
    check(r.stdout == expected, f"transcript differs:\n{r.stdout.decode()}\n--- expected ---\n{expected.decode()}")


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    kiln = os.path.abspath(sys.argv[1])
    names = sys.argv[2:] or list(CASES)
    failed = 0
    for name in names:
        t0 = time.monotonic()
        try:
            CASES[name](kiln)
            print(f"ok   {name} ({time.monotonic() - t0:.1f} s)")
        except Failure as e:
            failed += 1
            print(f"FAIL {name}: {e}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
