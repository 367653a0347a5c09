// The debugger's host side on embedded CPython (`kiln debug FILE`, the
// default host): the program runs as under `kiln run` (python_host.cpp),
// with a C-level trace function (PyEval_SetTrace) reporting each line of the
// user's own files to the session, and the session as the kernels' debug
// hook, so kernels run on the interpreter and stop in it. Lines of the
// taichi package, the stdlib and installed packages are not stopped in
// (`step` goes over them, as into a C function). Expressions are Python's
// own: eval() in the stopped frame, or for a kernel stop in the frame that
// launched the kernel with the kernel's variables over its locals.
#include "tools/python_debug.h"

#ifdef KILN_HAVE_PYTHON

#include <Python.h>
#include <frameobject.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "tools/python_host.h"
#include "vm/debug/session.h"

namespace kiln::tools {

namespace {

// Python's exception now as a kiln::Error ("NameError: name 'q' is not
// defined"), clearing it.
[[noreturn]] void raise_python_error() {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  std::string kind = "Error", msg;
  if (type) kind = ((PyTypeObject*)type)->tp_name;
  if (value && PyErr_GivenExceptionMatches(value, PyExc_SyntaxError)) {
    // Its message without Python's "(<string>, line 1)": the expression is one line.
    if (PyObject* m = PyObject_GetAttrString(value, "msg")) {
      if (const char* c = PyUnicode_Check(m) ? PyUnicode_AsUTF8(m) : nullptr) msg = c;
      Py_DECREF(m);
    }
  } else if (value) {
    if (PyObject* s = PyObject_Str(value)) {
      if (const char* c = PyUnicode_AsUTF8(s)) msg = c;
      Py_DECREF(s);
    }
  }
  PyErr_Clear();
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
  raise(kind.rfind('.') != std::string::npos ? kind.substr(kind.rfind('.') + 1) : kind, msg);
}

// A new reference or raise_python_error.
PyObject* check(PyObject* o) {
  if (!o) raise_python_error();
  return o;
}

struct Ref {
  PyObject* o;
  explicit Ref(PyObject* p) : o(check(p)) {}
  ~Ref() { Py_XDECREF(o); }
  Ref(const Ref&) = delete;
  Ref& operator=(const Ref&) = delete;
};

std::string repr_of(PyObject* o) {
  Ref r(PyObject_Repr(o));
  const char* c = PyUnicode_AsUTF8(r.o);
  if (!c) raise_python_error();
  return c;
}

// The frame that called f (kept alive by the running chain), or null.
PyFrameObject* back(PyFrameObject* f) {
  PyFrameObject* b = PyFrame_GetBack(f);
  Py_XDECREF(b);
  return b;
}

struct PythonSide;
PythonSide* g_side = nullptr;  // the trace function's session (one per process)

struct PythonSide : debug::HostSide {
  PythonRun opts;
  debug::Session* s = nullptr;
  std::string cwd;
  std::vector<std::string> skip;  // folders whose lines are not the user's
  std::map<std::string, std::unique_ptr<SourceFile>> files;  // by co_filename
  std::unordered_map<PyCodeObject*, const SourceFile*> code_file;  // null: not the user's code

  bool evaluating = false;  // running a debugger expression: the functions it calls do not stop

  bool can_rerun() const override { return false; }

  // `quit` ends the process: the program's frames and kernel launch are
  // below this call, and C++ exceptions must not cross CPython's frames.
  [[noreturn]] void quit() override {
    if (!Py_IsInitialized()) throw debug::Quit{};  // before `run` or after the program ended
    PyGILState_STATE g = PyGILState_Ensure();
    PyRun_SimpleString("import sys\nfor f in (sys.stdout, sys.stderr):\n  try: f.flush()\n  except Exception: pass\n");
    PyGILState_Release(g);
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(0);
  }

  // The path as Kiln's messages show it (relative to the current directory
  // when under it, as taichi/_report.py's shown_path does).
  std::string shown(const std::string& path) const {
    return path.rfind(cwd, 0) == 0 ? path.substr(cwd.size()) : path;
  }

  // The user's source file of `code`, or null for code not stopped in.
  const SourceFile* file_of(PyCodeObject* code) {
    auto it = code_file.find(code);
    if (it != code_file.end()) return it->second;
    const SourceFile* f = nullptr;
    const char* name = PyUnicode_AsUTF8(code->co_filename);
    std::string path = name ? name : "";
    bool user = !path.empty() && path[0] != '<';
    for (auto& d : skip)
      if (user && path.rfind(d, 0) == 0) user = false;
    if (user) {
      auto& slot = files[path];
      if (!slot) {
        std::ifstream in(path, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        slot = std::make_unique<SourceFile>(shown(path), ss.str());
      }
      f = slot.get();
    }
    code_file[code] = f;
    return f;
  }

  static int frame_depth(PyFrameObject* f) {
    int d = 0;
    Py_XINCREF(f);
    while (f) {
      d++;
      PyFrameObject* b = PyFrame_GetBack(f);
      Py_DECREF(f);
      f = b;
    }
    return d;
  }

  // The innermost frame of the user's code from `f` outward (borrowed
  // through the thread's frame chain), or null.
  PyFrameObject* user_frame(PyFrameObject* f) {
    Py_XINCREF(f);
    while (f) {
      PyCodeObject* c = PyFrame_GetCode(f);
      bool mine = file_of(c) != nullptr;
      Py_DECREF(c);
      if (mine) {
        Py_DECREF(f);  // still referenced by the running chain
        return f;
      }
      PyFrameObject* b = PyFrame_GetBack(f);
      Py_DECREF(f);
      f = b;
    }
    return nullptr;
  }

  static int trace(PyObject*, PyFrameObject* frame, int what, PyObject*) {
    if (!g_side || g_side->evaluating) return 0;
    if (what == PyTrace_LINE) return g_side->line(frame);
    if (what == PyTrace_RETURN) g_side->returned(frame);
    return 0;
  }

  // A stop: its exceptions stay here (Quit never comes: quit() exits).
  void consider(const debug::Place& p) {
    try {
      s->consider(p);
    } catch (const Error& e) {  // a bug in the debugger: leave the program running
      s->io.err("kiln debug: " + e.kind + ": " + e.message + "\n");
    }
  }

  // Stepping out of a function of the user's stops in its caller mid-line,
  // as gdb does (CPython reports no new line there: the call's line goes on).
  void returned(PyFrameObject* frame) {
    using debug::Mode;
    if (s->mode == Mode::run) return;
    PyCodeObject* code = PyFrame_GetCode(frame);
    const SourceFile* f = file_of(code);
    Py_DECREF(code);
    int d = frame_depth(frame);
    if (!f || (s->mode != Mode::step && d > s->mode_depth)) return;
    PyFrameObject* caller = user_frame(back(frame));
    if (!caller) return;
    PyCodeObject* cc = PyFrame_GetCode(caller);
    debug::Place p;
    p.loc = {file_of(cc), (uint32_t)PyFrame_GetLineNumber(caller), 0};
    Py_DECREF(cc);
    p.depth = frame_depth(caller);
    p.host_frame = caller;
    p.mid_line = true;
    consider(p);
  }

  int line(PyFrameObject* frame) {
    PyCodeObject* code = PyFrame_GetCode(frame);
    const SourceFile* f = file_of(code);
    Py_DECREF(code);
    if (!f) return 0;
    s->last_fn = nullptr;  // back in host code: the next kernel instruction is a new place
    debug::Place p;
    p.loc = {f, (uint32_t)PyFrame_GetLineNumber(frame), 0};
    p.depth = frame_depth(frame);
    p.host_frame = frame;
    consider(p);
    return 0;
  }

  int run(debug::Session& session) override {
    s = &session;
    g_side = this;
    char buf[4096];
    cwd = getcwd(buf, sizeof buf) ? std::string(buf) + "/" : "";
    PythonRun r = opts;
    if (r.file.empty()) {  // the DAP server learns the program from its launch request
      r.file = session.path;
      r.argv = session.argv;
    }
    r.opts.debugger = &session;
    r.unbuffered = true;  // the program's output and the debugger's in order
    int status = 0;
    if (!start_python(r, status)) return status;
    if (route_output) route_streams();
    {
      // Not the user's lines: the taichi package, the stdlib and installed packages.
      skip.push_back(package_dir() + "/");
      PyObject* m = PyImport_ImportModule("sysconfig");
      PyObject* paths = m ? PyObject_CallMethod(m, "get_paths", nullptr) : nullptr;
      for (const char* k : {"stdlib", "platstdlib", "purelib", "platlib"})
        if (PyObject* v = paths ? PyDict_GetItemString(paths, k) : nullptr)
          if (const char* c = PyUnicode_AsUTF8(v)) skip.push_back(std::string(c) + "/");
      Py_XDECREF(paths);
      Py_XDECREF(m);
      PyErr_Clear();
      skip.push_back("/usr/lib/python3/");  // Debian's dist-packages (apt's numpy)
    }
    PyEval_SetTrace(&PythonSide::trace, nullptr);
    status = Py_RunMain();  // the program, then the interpreter's end
    g_side = nullptr;
    std::fflush(stdout);
    return status;
  }

  // sys.stdout and sys.stderr as writers into the session's io (the DAP
  // server's output events), in order with its other messages.
  static PyObject* write_to(PyObject* which, PyObject* text) {
    const char* t = PyUnicode_Check(text) ? PyUnicode_AsUTF8(text) : nullptr;
    if (!t) return nullptr;
    if (g_side) (PyLong_AsLong(which) == 2 ? g_side->s->io.err : g_side->s->io.out)(t);
    return PyLong_FromSsize_t(PyUnicode_GetLength(text));
  }
  void route_streams() {
    static PyMethodDef def = {"write", (PyCFunction)write_to, METH_O, nullptr};
    Ref scope(PyDict_New());
    if (PyDict_SetItemString(scope.o, "__builtins__", PyEval_GetBuiltins()) < 0) raise_python_error();
    Ref cls(PyRun_String(
        "type('KilnDapStream', (__import__('io').TextIOBase,), {'__init__': lambda self, w: setattr(self, '_w', w),"
        " 'write': lambda self, t: self._w(t), 'writable': lambda self: True, 'isatty': lambda self: False})",
        Py_eval_input, scope.o, scope.o));
    for (int k : {1, 2}) {
      Ref which(PyLong_FromLong(k));
      Ref w(PyCFunction_New(&def, which.o));
      Ref stream(PyObject_CallFunctionObjArgs(cls.o, w.o, nullptr));
      if (PySys_SetObject(k == 1 ? "stdout" : "stderr", stream.o) < 0) raise_python_error();
    }
  }

  // Taichi fields among __main__'s globals; 1-D ones with their elements.
  std::vector<debug::VarView> fields(debug::Session&) override {
    std::vector<debug::VarView> out;
    PyObject* main = PyImport_AddModule("__main__");  // borrowed
    if (!main) {
      PyErr_Clear();
      return out;
    }
    std::map<std::string, PyObject*> sorted;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    PyObject* globals = PyModule_GetDict(main);
    while (PyDict_Next(globals, &pos, &k, &v)) {
      const char* name = PyUnicode_AsUTF8(k);
      std::string type = Py_TYPE(v)->tp_name;
      if (name && (type == "ScalarField" || type == "MatrixField" || type == "StructField")) sorted[name] = v;
    }
    PyErr_Clear();
    for (auto& [name, f] : sorted) {
      debug::VarView view{name, "", 0, {}};
      try {
        view.value = repr_of(f);
        Ref shape(PyObject_GetAttrString(f, "shape"));
        if (PyTuple_Check(shape.o) && PyTuple_GET_SIZE(shape.o) == 1) {
          long n = PyLong_AsLong(PyTuple_GET_ITEM(shape.o, 0));
          for (long i = 0; i < n && i < 64; i++) {
            Ref index(PyLong_FromLong(i));
            Ref e(PyObject_GetItem(f, index.o));
            view.children.push_back({"[" + std::to_string(i) + "]", repr_of(e.o), 0, {}});
          }
        }
      } catch (const Error& e) {
        if (view.value.empty()) view.value = "<repr failed: " + e.kind + ">";
      }
      out.push_back(std::move(view));
    }
    return out;
  }

  int depth() const override { return frame_depth(PyEval_GetFrame()); }

  // The frame a place reads: its own, or for a kernel the launching one.
  PyFrameObject* frame_at(const debug::Place& p) {
    if (!p.kernel) return (PyFrameObject*)p.host_frame;
    return user_frame(PyEval_GetFrame());
  }

  static std::string name_of(PyFrameObject* f) {
    PyCodeObject* c = PyFrame_GetCode(f);
    const char* n = PyUnicode_AsUTF8(c->co_name);
    std::string out = n ? n : "?";
    Py_DECREF(c);
    return out;
  }

  std::string where(const debug::Place& p) const override { return name_of((PyFrameObject*)p.host_frame); }

  void frames(const debug::Place& p, std::vector<debug::FrameView>& out) const override {
    auto* self = const_cast<PythonSide*>(this);
    for (PyFrameObject* f = self->frame_at(p); f; f = self->user_frame(back(f))) {
      PyCodeObject* c = PyFrame_GetCode(f);
      debug::Place v;
      v.loc = {self->file_of(c), (uint32_t)PyFrame_GetLineNumber(f), 0};
      Py_DECREF(c);
      v.depth = frame_depth(f);
      v.host_frame = f;
      out.push_back({name_of(f), v.loc, v});
    }
  }

  std::vector<debug::VarView> variables(const debug::Place& p) override {
    auto* f = (PyFrameObject*)p.host_frame;
    Ref locals(PyFrame_GetLocals(f));
    Ref globals(PyFrame_GetGlobals(f));
    bool module = locals.o == globals.o;
    std::map<std::string, std::string> sorted;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(locals.o, &pos, &k, &v)) {
      const char* name = PyUnicode_AsUTF8(k);
      if (!name || std::string(name).rfind("__", 0) == 0) continue;
      // At module level: the data, not the imports, functions, classes and
      // taichi objects (fields, kernels) the module defines.
      if (module) {
        if (PyModule_Check(v) || PyType_Check(v) || PyCallable_Check(v)) continue;
        PyObject* tm = PyObject_GetAttrString((PyObject*)Py_TYPE(v), "__module__");
        const char* m = tm && PyUnicode_Check(tm) ? PyUnicode_AsUTF8(tm) : nullptr;
        bool taichi = m && std::string(m).rfind("taichi", 0) == 0;
        Py_XDECREF(tm);
        PyErr_Clear();
        if (taichi) continue;
      }
      try {
        sorted[name] = repr_of(v);
      } catch (const Error& e) {
        sorted[name] = "<repr failed: " + e.kind + ">";
      }
    }
    std::vector<debug::VarView> out;
    for (auto& [n, text] : sorted) out.push_back({n, text, 0, {}});
    return out;
  }

  // eval(expr) at p; a new reference.
  PyObject* eval(debug::Session& session, const debug::Place& p, const std::string& expr) {
    PyFrameObject* f = frame_at(p);
    if (!f) raise("RuntimeError", "no Python frame to evaluate '" + expr + "' in");
    Ref globals(PyFrame_GetGlobals(f));
    Ref frame_locals(PyFrame_GetLocals(f));
    Ref locals(PyDict_Copy(frame_locals.o));
    if (p.kernel) {
      // The kernel's variables over the launching frame's locals.
      Ref consts(Py_BuildValue("{s:d,s:d}", "inf", Py_HUGE_VAL, "nan", Py_NAN));
      for (auto& [name, text] : session.kernel_literals(p)) {
        Ref v(PyRun_String(text.c_str(), Py_eval_input, consts.o, consts.o));
        if (PyDict_SetItemString(locals.o, name.c_str(), v.o) < 0) raise_python_error();
      }
    }
    evaluating = true;
    PyObject* v = PyRun_String(expr.c_str(), Py_eval_input, globals.o, locals.o);
    evaluating = false;
    return check(v);
  }

  std::string value_text(debug::Session& session, const debug::Place& p, const std::string& expr) override {
    Ref v(eval(session, p, expr));
    return repr_of(v.o);
  }

  bool truthy(debug::Session& session, const debug::Place& p, const std::string& expr) override {
    Ref v(eval(session, p, expr));
    int t = PyObject_IsTrue(v.o);
    if (t < 0) raise_python_error();
    return t != 0;
  }
};

}  // namespace

std::unique_ptr<debug::HostSide> python_debug_host(const PythonRun& r) {
  auto side = std::make_unique<PythonSide>();
  side->opts = r;
  return side;
}

}  // namespace kiln::tools

#else

namespace kiln::tools {
std::unique_ptr<debug::HostSide> python_debug_host(const PythonRun&) { return nullptr; }
}  // namespace kiln::tools

#endif
