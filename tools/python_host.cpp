// `kiln run` / `kiln dis` on embedded CPython (see python_host.h).
//
// Py_RunMain does what `python3 FILE ARGS` does (sys.path[0], __main__,
// SystemExit, KeyboardInterrupt, atexit, the exit status); before it, this
// file makes the interpreter find Kiln: taichi._core and taichi._gui_core are
// compiled into this executable and placed in sys.modules (CPython's
// built-in importer takes no dotted names), and the package's .py files are
// found beside the executable, ahead of any installed taichi.
#include "tools/python_host.h"

#ifdef KILN_HAVE_PYTHON

#include <pybind11/pybind11.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "python/core/core.h"

extern "C" PyObject* PyInit__core();      // python/core/module.cpp (PYBIND11_MODULE)
extern "C" PyObject* PyInit__gui_core();  // python/gui/window.cpp

namespace kiln::tools {

namespace py = pybind11;

namespace {

// The folder that holds the taichi package: `python/` beside the executable
// (build/python in a build tree). Empty if there is none.
std::string package_dir() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  std::string exe(buf, (size_t)n);
  std::string dir = exe.substr(0, exe.rfind('/')) + "/python";
  return access((dir + "/taichi/__init__.py").c_str(), R_OK) == 0 ? dir : std::string();
}

// Whether the venv at `venv` was made by this Python's major.minor version
// (its pyvenv.cfg says "version = 3.11.2"); a venv without that line passes.
bool venv_matches(const std::string& venv) {
  std::ifstream cfg(venv + "/pyvenv.cfg");
  if (!cfg) return false;
  std::string want = std::to_string(PY_MAJOR_VERSION) + "." + std::to_string(PY_MINOR_VERSION) + ".";
  for (std::string line; std::getline(cfg, line);) {
    size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, line.find_last_not_of(" \t", eq - 1) + 1);
    if (key != "version" && key != "version_info") continue;
    size_t v = line.find_first_not_of(" \t", eq + 1);
    return v != std::string::npos && line.compare(v, want.size(), want) == 0;
  }
  return true;
}

// The Python whose prefix and site-packages the program gets, as `python3`
// on PATH would: the active venv's (CPython finds pyvenv.cfg beside it), else
// the Python this executable was built with. It becomes sys.executable.
std::string python_program() {
  if (const char* venv = std::getenv("VIRTUAL_ENV"); venv && *venv) {
    std::string py = std::string(venv) + "/bin/python3";
    if (access(py.c_str(), X_OK) == 0) {
      if (venv_matches(venv)) return py;
      std::fprintf(stderr, "kiln: ignoring the venv %s: it is not Python %d.%d, which kiln embeds\n", venv,
                   PY_MAJOR_VERSION, PY_MINOR_VERSION);
    }
  }
  return KILN_PYTHON_EXECUTABLE;
}

// sys.excepthook: Kiln's format for errors Kiln raised (taichi/_report.py),
// Python's own for the rest. Only a program that imported taichi can have
// the former.
void excepthook(py::object type, py::object value, py::object tb) {
  py::module_ sys = py::module_::import("sys");
  if (py::dict(sys.attr("modules")).contains("taichi")) {
    try {
      if (py::module_::import("taichi._report").attr("report")(type, value, tb).cast<bool>()) return;
    } catch (py::error_already_set& e) {
      e.discard_as_unraisable("kiln's error report");  // then Python prints the original as usual
    }
  }
  sys.attr("__excepthook__")(type, value, tb);
}

// A built-in extension module under its package name.
void add_builtin(py::dict modules, const char* name, PyObject* (*init)()) {
  py::object m = py::reinterpret_steal<py::object>(init());
  if (!m) throw py::error_already_set();
  modules[name] = m;
}

// Everything between initialization and the program's first line.
void prepare(const PythonRun& r) {
  py::module_ sys = py::module_::import("sys");
  py::dict modules = sys.attr("modules");
  add_builtin(modules, "taichi._core", PyInit__core);
  add_builtin(modules, "taichi._gui_core", PyInit__gui_core);
  std::string dir = package_dir();
  // Inserted first; Py_RunMain then puts the script's folder before it.
  if (!dir.empty()) sys.attr("path").attr("insert")(0, dir);
  py_host::State& s = py_host::state();
  s.options = r.opts;
  s.stats_at_exit = r.stats;
  if (r.output_to_stderr) sys.attr("stdout") = sys.attr("stderr");
  sys.attr("excepthook") = py::cpp_function(&excepthook);
}

}  // namespace

bool have_python_host() { return true; }

int run_python(const PythonRun& r, std::vector<KernelDump>* dumps) {
  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  config.parse_argv = 0;  // ARGS are the program's, never Python's options
  std::vector<char*> argv;
  for (const std::string& a : r.argv) argv.push_back(const_cast<char*>(a.c_str()));
  std::string program = python_program();
  PyStatus st = PyConfig_SetBytesArgv(&config, (Py_ssize_t)argv.size(), argv.data());
  if (!PyStatus_Exception(st)) st = PyConfig_SetBytesString(&config, &config.program_name, program.c_str());
  if (!PyStatus_Exception(st) && r.file != "-")
    st = PyConfig_SetBytesString(&config, &config.run_filename, r.file.c_str());
  if (!PyStatus_Exception(st)) st = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  if (PyStatus_Exception(st)) {
    if (PyStatus_IsExit(st)) return st.exitcode;
    std::fprintf(stderr, "kiln: cannot start Python: %s%s%s\n", st.func ? st.func : "", st.func ? ": " : "",
                 st.err_msg ? st.err_msg : "");
    return 1;
  }
  try {
    prepare(r);
  } catch (py::error_already_set& e) {
    e.restore();
    PyErr_Print();
    Py_FinalizeEx();
    return 1;
  }
  int status = Py_RunMain();  // runs the program, then finalizes the interpreter
  std::fflush(stdout);
  if (dumps) *dumps = py_host::state().dumps;  // the state outlives the interpreter
  return status;
}

}  // namespace kiln::tools

#else  // no libpython: the built-in host only

namespace kiln::tools {
bool have_python_host() { return false; }
int run_python(const PythonRun&, std::vector<KernelDump>*) { return 2; }
}  // namespace kiln::tools

#endif
