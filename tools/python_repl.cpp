// `kiln repl` on CPython (see python_repl.h): the shared input loop and
// commands (repl_session.cpp) over a session of taichi/_repl.py, which
// compiles and runs the inputs in __main__.
//
// The loop runs with the GIL released (each call of the session takes it),
// so the program's own threads run while a line is read. Ctrl-C at the prompt is the terminal's (it clears the line);
// while code runs SIGINT is CPython's (KeyboardInterrupt in Python code) and,
// during a launch, the taichi extension's (it stops the kernel: see
// python/core/interrupt.cpp).
#include "tools/python_repl.h"

#ifdef KILN_HAVE_PYTHON

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdio>

#include "python/core/core.h"
#include "tools/python_host.h"
#include "tools/repl_session.h"

#ifndef KILN_VERSION
#define KILN_VERSION "0.1.0"
#endif

namespace kiln::tools {

namespace {

namespace py = pybind11;
using repl::NameKind;

// A failure inside the REPL's own Python (not the user's input, whose errors
// _repl.py prints): shown, and the session goes on.
void show(py::error_already_set& e) {
  e.restore();
  PyErr_Print();
}

class PythonSession : public repl::Session {
 public:
  PythonSession() : s_(py::module_::import("taichi._repl").attr("Session")()) { py_host::state().keep_dumps = true; }

  bool push(const std::string& line) override { return call_bool("push", line); }
  void finish() override { call_bool("finish"); }
  void drop() override { call_bool("drop"); }
  bool run_statement(const std::string& stmt) override { return call_bool("statement", stmt); }
  void load(const std::string& path) override { call_bool("load", path); }
  void reset() override { call_bool("reset"); }
  // (dumps and program are Kiln's own state: no Python involved)
  const std::vector<KernelDump>& dumps() override { return py_host::state().dumps; }
  Program* program() override {  // (as the next kernel call would make it: :trace names its engine)
    py::gil_scoped_acquire gil;
    return &py_host::program();
  }

  NameKind kind_of(const std::string& name) override {
    py::gil_scoped_acquire gil;
    try {
      std::string k = s_.attr("kind_of")(name).cast<std::string>();
      return k == "kernel" ? NameKind::kernel : k == "func" ? NameKind::func : NameKind::other;
    } catch (py::error_already_set& e) {
      show(e);
      return NameKind::other;
    }
  }

  bool compound_dims(const std::string& name, int64_t& n, int64_t& m) override {
    py::gil_scoped_acquire gil;
    try {
      py::object r = s_.attr("compound_dims")(name);
      if (r.is_none()) return false;
      auto nm = r.cast<std::pair<int64_t, int64_t>>();
      n = nm.first;
      m = nm.second;
      return true;
    } catch (py::error_already_set& e) {
      show(e);
      return false;
    }
  }

  std::vector<std::string> complete(std::string_view before, std::string_view word) override {
    py::gil_scoped_acquire gil;
    std::vector<std::string> cmds, kernels;
    for (auto& c : repl::commands()) cmds.push_back(c.name);
    for (auto& d : dumps()) kernels.push_back(d.name);
    try {
      return s_.attr("complete")(std::string(before), std::string(word), cmds, kernels).cast<std::vector<std::string>>();
    } catch (py::error_already_set& e) {
      e.discard_as_unraisable("kiln repl's completion");
      return {};
    }
  }

 private:
  py::object s_;

  template <class... A> bool call_bool(const char* method, A&&... args) {
    py::gil_scoped_acquire gil;
    bool r = false;
    try {
      py::object v = s_.attr(method)(std::forward<A>(args)...);
      r = v.is_none() ? false : v.cast<bool>();
    } catch (py::error_already_set& e) {
      show(e);
    }
    py::object status = s_.attr("exit_status");
    if (!status.is_none()) exit_code = status.cast<int>();
    std::fflush(stdout);
    std::fflush(stderr);
    return r;
  }
};

}  // namespace

int run_python_repl(const PythonRun& r) {
  int status = 0;
  if (!start_python(r, status)) return status;
  try {
    // Python's interactive mode: the current directory first on sys.path.
    py::module_::import("sys").attr("path").attr("insert")(0, "");
    PythonSession session;
    std::string banner = "kiln " KILN_VERSION " (Python " + std::string(PY_VERSION) +
                         "; ti is taichi). :help lists commands; Ctrl-D leaves.\n";
    {
      py::gil_scoped_release released;  // each of the session's calls takes it back
      status = repl::run_loop(session, banner.c_str());
    }
  } catch (py::error_already_set& e) {
    show(e);
    status = 1;
  }
  if (Py_FinalizeEx() < 0 && status == 0) status = 120;  // as Python does when flushing fails at exit
  return status;
}

}  // namespace kiln::tools

#else  // no libpython

namespace kiln::tools {
int run_python_repl(const PythonRun&) { return 2; }
}  // namespace kiln::tools

#endif
