// Kernel.__call__ (taichi/_kernel.py) as a C function.
//
// A kernel call from Python used to run a Python method (`__call__`: check
// the tape, forward mode and the profiler, then call the KernelCore) before
// the C++ launch. That frame was ~0.3 us of a small launch's ~0.8, and
// CPython 3.11 quickens a function at its 8th call: every program's 8th
// kernel launch paid 2-4 us more (bench/sparse_grid's ten timed sweeps are
// launches 2-11 of its kernels). Here the common case (a compiled core, no
// tape, no forward mode, no profiler) goes straight to the KernelCore with the
// caller's arguments; every other case calls the Python method it replaces
// (Kernel._call), so the rules stay in one place.
#include "python/core/core.h"

namespace kiln::py_host {

namespace {

// The method's data: (taichi._state, Kernel._call).
PyObject* kernel_call(PyObject* data, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static PyObject* s_core = PyUnicode_InternFromString("_core");
  static PyObject* s_tape = PyUnicode_InternFromString("tape");
  static PyObject* s_fwd = PyUnicode_InternFromString("fwd");
  static PyObject* s_config = PyUnicode_InternFromString("config");
  static PyObject* s_profiler = PyUnicode_InternFromString("kernel_profiler");
 
  PyObject* state = PyTuple_GET_ITEM(data, 0);
  PyObject* slow = PyTuple_GET_ITEM(data, 1);
  PyObject* core = nullptr;
  bool fast = false;
  if (nargs >= 1 && (core = PyObject_GetAttr(args[0], s_core)) && core != Py_None) {
    // taichi._state is a module: its attributes are its dict's items (read
    // there directly: no attribute lookup on the module's type, fewer lines
    // to fetch on a launch whose caches the compile before it emptied).
    PyObject* names = PyModule_Check(state) ? PyModule_GetDict(state) : nullptr;
    auto get = [&](PyObject* name) -> PyObject* {
      if (!names) return PyObject_GetAttr(state, name);
      PyObject* v = PyDict_GetItemWithError(names, name);
      Py_XINCREF(v);
      return v;
    };
    PyObject* tape = get(s_tape);
    PyObject* fwd = get(s_fwd);
    PyObject* config = get(s_config);
    PyObject* profiling = config && PyDict_Check(config) ? PyDict_GetItemWithError(config, s_profiler) : nullptr;
    fast = tape == Py_None && fwd == Py_None && config && PyDict_Check(config) && !PyErr_Occurred() &&
           (!profiling || PyObject_Not(profiling) == 1);
    Py_XDECREF(tape);
    Py_XDECREF(fwd);
    Py_XDECREF(config);
  }
  PyErr_Clear();  // anything odd above: the Python method decides (and raises)
  if (!fast) {
    Py_XDECREF(core);
    return PyObject_Vectorcall(slow, args, (size_t)nargs, kwnames);
  }
  // Positional arguments to a kept instance: straight into the KernelCore
  // (kernel.cpp), without pybind's dispatch.
  if (!kwnames || PyTuple_GET_SIZE(kwnames) == 0) {
    bool handled = false;
    PyObject* r = kernel_core_fast_call(core, args + 1, nargs - 1, handled);
    if (handled) {
      Py_DECREF(core);
      return r;
    }
  }
  PyObject* r = PyObject_Vectorcall(core, args + 1, (size_t)(nargs - 1), kwnames);
  Py_DECREF(core);
  return r;
}

PyMethodDef kernel_call_def = {"__call__", (PyCFunction)(void (*)())kernel_call, METH_FASTCALL | METH_KEYWORDS,
                               "Launch the kernel (taichi/_kernel.py: Kernel._call is the general case)"};

}  // namespace

void bind_kernel_method(py::module_& m) {
  // An instancemethod binds the Kernel as the first argument, as a def would.
  m.def("kernel_method", [](py::object state, py::object slow) {
    py::tuple data = py::make_tuple(state, slow);
    py::object fn = py::reinterpret_steal<py::object>(PyCFunction_New(&kernel_call_def, data.ptr()));
    if (!fn) throw py::error_already_set();
    py::object method = py::reinterpret_steal<py::object>(PyInstanceMethod_New(fn.ptr()));
    if (!method) throw py::error_already_set();
    return method;
  }, "(taichi._state, Kernel._call) -> Kernel.__call__");
}

}  // namespace kiln::py_host
