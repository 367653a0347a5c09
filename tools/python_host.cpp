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
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "python/core/core.h"

extern "C" PyObject* PyInit__core();      // python/core/module.cpp (PYBIND11_MODULE)
extern "C" PyObject* PyInit__gui_core();  // python/gui/window.cpp

namespace kiln::tools {

namespace py = pybind11;

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

namespace {

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

// `kiln run -`: the program read from stdin stays in linecache as
// "<stdin>", so that its kernels have a source (python3 keeps none, and
// Taichi cannot run kernels typed on a pipe). CPython still reads the
// program from fd 0, now a memory file holding the same text.
std::string g_stdin_text;

bool keep_stdin() {
  std::string text;
  char buf[65536];
  for (ssize_t n; (n = read(0, buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    text.append(buf, (size_t)n);
  }
  int fd = memfd_create("kiln-stdin", MFD_CLOEXEC);
  if (fd < 0) return false;
  bool ok = write(fd, text.data(), text.size()) == (ssize_t)text.size() && lseek(fd, 0, SEEK_SET) == 0 &&
            dup2(fd, 0) == 0;
  close(fd);
  g_stdin_text = std::move(text);
  return ok;
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
  if (r.file == "-") {
    py::list lines;
    for (size_t b = 0; b < g_stdin_text.size();) {
      size_t e = g_stdin_text.find('\n', b);
      e = e == std::string::npos ? g_stdin_text.size() : e + 1;
      lines.append(py::str(g_stdin_text.substr(b, e - b)));
      b = e;
    }
    // mtime None: linecache.checkcache keeps an entry that has no file.
    py::module_::import("linecache").attr("cache")["<stdin>"] =
        py::make_tuple(g_stdin_text.size(), py::none(), lines, "<stdin>");
  }
}

}  // namespace

bool have_python_host() { return true; }

bool start_python(const PythonRun& r, int& status) {
  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  config.parse_argv = 0;  // ARGS are the program's, never Python's options
  if (r.unbuffered) config.buffered_stdio = 0;
  std::vector<char*> argv;
  for (const std::string& a : r.argv) argv.push_back(const_cast<char*>(a.c_str()));
  std::string program = python_program();
  PyStatus st = PyConfig_SetBytesArgv(&config, (Py_ssize_t)argv.size(), argv.data());
  if (!PyStatus_Exception(st)) st = PyConfig_SetBytesString(&config, &config.program_name, program.c_str());
  if (!PyStatus_Exception(st) && !r.file.empty() && r.file != "-")
    st = PyConfig_SetBytesString(&config, &config.run_filename, r.file.c_str());
  if (!PyStatus_Exception(st)) st = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  if (PyStatus_Exception(st)) {
    if (PyStatus_IsExit(st)) {
      status = st.exitcode;
      return false;
    }
    std::fprintf(stderr, "kiln: cannot start Python: %s%s%s\n", st.func ? st.func : "", st.func ? ": " : "",
                 st.err_msg ? st.err_msg : "");
    status = 1;
    return false;
  }
  try {
    prepare(r);
  } catch (py::error_already_set& e) {
    e.restore();
    PyErr_Print();
    Py_FinalizeEx();
    status = 1;
    return false;
  }
  return true;
}

int run_python(const PythonRun& r, std::vector<KernelDump>* dumps) {
  int status = 0;
  if (r.file == "-" && !keep_stdin()) {
    std::fprintf(stderr, "kiln: cannot read the program from stdin: %s\n", std::strerror(errno));
    return 1;
  }
  if (dumps) py_host::state().keep_dumps = true;  // kiln dis
  if (!start_python(r, status)) return status;
  status = Py_RunMain();  // runs the program, then finalizes the interpreter
  std::fflush(stdout);
  if (dumps) *dumps = py_host::state().dumps;  // the state outlives the interpreter
  return status;
}

}  // namespace kiln::tools

#else  // no libpython: the built-in host only

namespace kiln::tools {
bool have_python_host() { return false; }
std::string package_dir() { return {}; }
int run_python(const PythonRun&, std::vector<KernelDump>*) { return 2; }
}  // namespace kiln::tools

#endif
