// `kiln repl` on CPython embedded in kiln: a Python REPL with taichi
// imported as ti, Kiln's `:` commands, line editing, history and completion
// (the loop and commands are repl_session.cpp's; inputs run in
// python/taichi/_repl.py). Any statement runs: imports, with, classes,
// numpy; kernels and ti.funcs defined at the prompt keep their source.
#pragma once
#include "tools/python_host.h"

namespace kiln::tools {

// Runs a session on stdin/stdout; returns the exit status. r.argv is sys.argv
// ([""] as in Python's interactive mode); r.opts, r.stats as for `kiln run`.
int run_python_repl(const PythonRun& r);

}  // namespace kiln::tools
