// `kiln run` and `kiln dis` on CPython: the program runs as under `python3
// FILE ARGS` (sys.argv, sys.path with the script's folder first and the active
// venv's site-packages, __name__ == "__main__", exit codes, tracebacks), in
// libpython embedded in this executable, with taichi._core and
// taichi._gui_core built in. The taichi package's .py files come from the
// `python/` folder beside the executable. An uncaught error that Kiln raised
// is printed in Kiln's format (taichi/_report.py), any other as Python does.
#pragma once
#include <string>
#include <vector>

#include "vm/ti/kernels.h"

namespace kiln::tools {

// Whether this executable was built with libpython (python3-dev).
bool have_python_host();

struct PythonRun {
  std::string file;               // the program; "-" reads it from stdin; "" none (the REPL)
  std::vector<std::string> argv;  // sys.argv (argv[0] is `file`)
  ti::ProgramOptions opts;        // --debug, --print-ir, --engine (else $KILN_ENGINE)
  bool stats = false;             // --stats: the runtime's counters to stderr at exit
  bool output_to_stderr = false;  // `kiln dis`: the program's stdout goes to stderr
  bool unbuffered = false;        // `kiln debug`: sys.stdout and sys.stderr write through
};

// Starts the interpreter with Kiln in it, ready to run r.file (empty: none,
// as for the REPL). False (after a message) if it cannot: `status` is then
// the exit status. Py_RunMain or Py_FinalizeEx ends it.
bool start_python(const PythonRun& r, int& status);

// The folder holding the taichi package's .py files ("" if none).
std::string package_dir();

// Runs the program to its end and finalizes the interpreter; returns the
// exit status `python3` would give. `dumps` receives every kernel compiled.
int run_python(const PythonRun& r, std::vector<KernelDump>* dumps = nullptr);

}  // namespace kiln::tools
