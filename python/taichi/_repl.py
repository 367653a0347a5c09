"""`kiln repl` on CPython: compiling and running what is typed
(tools/python_repl.cpp reads the lines and runs the `:` commands).

Each input is compiled as Python's own prompt compiles it (codeop, "single"
mode: an expression's value is echoed by sys.displayhook) in __main__'s
namespace, under a name of its own, <input-N>, whose text stays in
linecache: kernels and ti.funcs defined at the prompt have a source (Kiln
parses it at their first call), and tracebacks and Kiln's carets show the
lines typed. Errors are printed as `kiln run` prints them (sys.excepthook);
the session goes on.

A kernel compiles against the kernels, ti.funcs and fields its globals name
when it is first called. At a prompt those get redefined, so when an input
rebinds such a name every kernel of the session is compiled afresh at its
next call; plain values (N = 6) keep Taichi's capture-at-first-compile rule.
"""
import builtins
import codeop
import keyword
import linecache
import sys
import traceback

import __main__

from . import _report


def _exit_status(e):
    """The exit status of a SystemExit, as Python's own exit gives it."""
    code = e.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _compiles_against(v):
    """Whether a kernel that names `v` compiles it in (a kernel, a ti.func,
    a field, a class): rebinding it must recompile the session's kernels."""
    return isinstance(v, type) or hasattr(type(v), "_kiln_static")


class Session:
    def __init__(self):
        self.exit_status = None  # set when the input raised SystemExit
        self.count = 0
        self.lines = []
        self.compiler = codeop.CommandCompiler()
        self.ns = __main__.__dict__
        self._kiln_hook = sys.excepthook  # Kiln's (tools/python_host.cpp)
        self._dunders = {k: v for k, v in self.ns.items() if k.startswith("__") and k.endswith("__")}
        self.reset(reset_program=False)

    def reset(self, reset_program=True):
        """Forgets every name, field and kernel: a fresh session with ti imported."""
        import taichi
        if reset_program:
            taichi.reset()
            taichi._core.clear_kernel_dumps()
        self.ns.clear()
        self.ns.update(self._dunders)
        self.ns["ti"] = taichi
        self.compiler = codeop.CommandCompiler()
        self.lines = []
        self.defined = self._definitions()

    # ---- running inputs ----

    def push(self, line):
        """Adds a typed line; returns True while the input is incomplete."""
        self.lines.append(line)
        source = "\n".join(self.lines)  # no final newline: codeop reads one as the closing blank line
        name = f"<input-{self.count + 1}>"
        try:
            code = self.compiler(source, name, "single")
        except (SyntaxError, OverflowError, ValueError):
            self._take(name, source)
            self._show_error(sys.exc_info(), skip=None)
            return False
        if code is None:
            return True
        self._take(name, source)
        return self._run(code)

    def finish(self):
        """Runs an incomplete input as if a blank line closed it."""
        if self.lines:
            return self.push("")
        return False

    def drop(self):
        self.lines = []

    def statement(self, text):
        """Runs one statement (:time): True if it succeeded."""
        name = f"<input-{self.count + 1}>"
        self._take(name, text)
        return self._compile_and_run(text, name, "single")

    def load(self, path):
        """Runs a file in the session (:load); its globals stay."""
        try:
            with open(path, "rb") as f:
                source = f.read()
        except OSError as e:
            print(f"cannot open '{path}': {e.strerror}", file=sys.stderr)
            return False
        return self._compile_and_run(source, path, "exec")

    def _compile_and_run(self, source, name, mode):
        try:
            code = compile(source, name, mode)
        except (SyntaxError, OverflowError, ValueError):
            self._show_error(sys.exc_info(), skip=None)
            return False
        return self._run(code, want_ok=True)

    def _take(self, name, source):
        self.lines = []
        self.count += 1
        # mtime None: linecache.checkcache keeps the entry (it has no file).
        lines = [line + "\n" for line in source.split("\n")]
        linecache.cache[name] = (len(source) + len(lines), None, lines, name)

    def _run(self, code, want_ok=False):
        """Runs compiled code; returns (want_ok) whether it succeeded, or
        False. SystemExit sets exit_status: the session ends."""
        ok = True
        try:
            exec(code, self.ns)
        except SystemExit as e:
            ok = False
            self.exit_status = _exit_status(e)
        except BaseException:
            ok = False
            self._show_error(sys.exc_info(), skip=1)
        finally:
            self._note_redefinitions()
            _flush()
        return ok if want_ok else False

    def _show_error(self, info, skip):
        """Prints an error as `kiln run` would; skip: how many frames (this
        module's) to leave out of the traceback, None for all of them."""
        etype, value, tb = info
        if skip is None:  # a compile error: where the compiler was is nobody's business
            tb = None
        for _ in range(skip or 0):  # this module's own frames
            tb = tb.tb_next if tb is not None else None
        if value is not None and tb is not None:
            value = value.with_traceback(tb)  # what printers read
        sys.last_type, sys.last_value, sys.last_traceback = etype, value, tb  # for pdb.pm()
        _flush()
        try:
            if sys.excepthook is not self._kiln_hook:  # the program set its own
                sys.excepthook(etype, value, tb)
            elif not _report.report(etype, value, tb):
                # Python's own format, read through linecache (CPython's
                # default hook reads files, and <input-N> is not one).
                traceback.print_exception(etype, value, tb)
        except BaseException:
            sys.__excepthook__(etype, value, tb)
        _flush()

    # ---- redefinitions ----

    def _definitions(self):
        return {k: id(v) for k, v in self.ns.items() if _compiles_against(v)}

    def _note_redefinitions(self):
        now = self._definitions()
        changed = any(now.get(k) != i for k, i in self.defined.items())
        self.defined = now
        if not changed:
            return
        from ._kernel import Kernel
        for v in list(self.ns.values()):
            kernels = [v] if isinstance(v, Kernel) else \
                [a for a in vars(v).values() if isinstance(a, Kernel)] if isinstance(v, type) else []
            for k in kernels:
                k._core = None  # compiled afresh (against today's globals) at its next call

    # ---- what the commands ask ----

    def kind_of(self, name):
        """'kernel', 'func' or '' for a global name (:ir / :bc messages)."""
        from ._kernel import Func, Kernel
        v = self.ns.get(name)
        return "kernel" if isinstance(v, Kernel) else "func" if isinstance(v, Func) else ""

    def compound_dims(self, name):
        """(n, m) of the vector or matrix field a global holds, else None."""
        v = self.ns.get(name)
        n, m = getattr(v, "n", None), getattr(v, "m", 1)
        if isinstance(n, int) and isinstance(m, int) and not isinstance(v, type):
            return n, m
        return None

    def complete(self, before, word, commands, kernels):
        """Completions of `word` given the line's text before it: commands
        after a leading ':', kernel names after :ir/:bc/:trace, else names
        of the session, builtins and keywords, or attributes after a dot.
        Names starting with '_' only when the typed part does."""
        lead = before.lstrip()
        if not lead and word.startswith(":"):
            return sorted(c for c in commands if c.startswith(word))
        if lead.split(" ")[0] in (":ir", ":bc", ":trace") and lead.startswith(":"):
            return sorted({k for k in kernels if k.startswith(word)})
        if lead.startswith(":"):
            return []
        head, dot, part = word.rpartition(".")
        if dot:
            obj = self._lookup(head)
            if obj is _MISSING:
                return []
            names = _attributes(obj)
        else:
            names = set(self.ns) | set(vars(builtins)) | set(keyword.kwlist)
        hide = not part.startswith("_")
        out = sorted({n for n in names if n.startswith(part) and not (hide and n.startswith("_"))})
        return [head + dot + n for n in out]

    def _lookup(self, dotted):
        """The object a dotted name of the session names, without calling anything
        but attribute lookups; _MISSING if it names nothing."""
        parts = dotted.split(".")
        if not all(p.isidentifier() for p in parts):
            return _MISSING
        if parts[0] in self.ns:
            obj = self.ns[parts[0]]
        elif hasattr(builtins, parts[0]):
            obj = getattr(builtins, parts[0])
        else:
            return _MISSING
        for p in parts[1:]:
            try:
                obj = getattr(obj, p)
            except Exception:
                return _MISSING
        return obj


_MISSING = object()


def _attributes(obj):
    try:
        names = set(dir(obj))
    except Exception:
        names = set()
    if hasattr(obj, "__class__"):
        names.add("__class__")
    return names


def _flush():
    for s in (sys.stdout, sys.stderr):
        try:
            s.flush()
        except Exception:
            pass

