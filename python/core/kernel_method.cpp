// taichi._core.KernelBase: the C base of taichi's Kernel class
// (taichi/_kernel.py), which makes a kernel call C from the caller's
// CALL instruction to the launch.
//
// A kernel call from Python used to run a Python method (`__call__`: check
// the tape, forward mode and the profiler, then call the KernelCore) before
// the C++ launch. That frame was ~0.3 us of a small launch's ~0.8, and
// CPython 3.11 quickens a function at its 8th call: every program's 8th
// kernel launch paid 2-4 us more (bench/sparse_grid's ten timed sweeps are
// launches 2-11 of its kernels). A C method in its place (an instancemethod)
// still cost, per call, CPython's lookup of __call__ on the type, a bound
// method and an argument tuple (both allocated, and they drive the cyclic
// GC), the `_core` attribute fetched from the instance's __dict__, and four
// dict lookups for the tape, forward mode and profiler: ~0.1 us of an empty
// kernel's ~0.25 us launch (issue 16). Now the Kernel is a KernelBase: CPython
// calls its vectorcall slot with the caller's arguments in place, `_core` is
// a field of the object, and whether a launch needs the Python method is one
// flag that taichi._state keeps current (set_plain_launch). The common case
// (a compiled core, no tape, no forward mode, no profiler) goes straight to
// the KernelCore; every other case calls the Python method it replaces
// (Kernel._call), so the rules stay in one place.
#include <vector>

#include "python/core/core.h"  // (Python.h before structmember.h)
#include <structmember.h>

namespace kiln::py_host {

namespace {

struct KernelObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject* core;  // Kernel._core: its KernelCore once parsed, else null (None to Python)
  PyObject* dict;
  PyObject* weaklist;
};

PyObject* g_slow = nullptr;  // Kernel._call: the general case (set by kernel_class)
// No tape, no forward mode, no kernel profiler: a launch needs no Python
// (taichi._state calls set_plain_launch whenever one of them changes).
bool g_plain = true;

// The Python method, called with the Kernel before the arguments.
PyObject* call_slow(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  if (!g_slow) {
    PyErr_SetString(PyExc_SystemError, "taichi._core.kernel_class was not called");
    return nullptr;
  }
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  if (nargsf & PY_VECTORCALL_ARGUMENTS_OFFSET) {  // the caller lends args[-1] (PEP 590)
    PyObject** a = const_cast<PyObject**>(args) - 1;
    PyObject* saved = a[0];
    a[0] = self;
    PyObject* r = PyObject_Vectorcall(g_slow, a, (size_t)(nargs + 1), kwnames);
    a[0] = saved;
    return r;
  }
  Py_ssize_t total = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
  std::vector<PyObject*> a((size_t)total + 1);
  a[0] = self;
  for (Py_ssize_t i = 0; i < total; i++) a[(size_t)i + 1] = args[i];
  return PyObject_Vectorcall(g_slow, a.data(), (size_t)(nargs + 1), kwnames);
}

PyObject* kernel_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  auto* k = reinterpret_cast<KernelObject*>(self);
  PyObject* core = k->core;
  if (!g_plain || !core || core == Py_None) return call_slow(self, args, nargsf, kwnames);
  // Positional arguments to a kept instance: straight into the KernelCore
  // (kernel.cpp), without pybind's dispatch.
  if (!kwnames || PyTuple_GET_SIZE(kwnames) == 0) {
    bool handled = false;
    PyObject* r = kernel_core_fast_call(core, args, PyVectorcall_NARGS(nargsf), handled);
    if (handled) return r;
  }
  Py_INCREF(core);  // the call may replace Kernel._core (a recompile after ti.reset does not, but keep it alive)
  PyObject* r = PyObject_Vectorcall(core, args, nargsf, kwnames);
  Py_DECREF(core);
  return r;
}

PyObject* kernel_new(PyTypeObject* type, PyObject*, PyObject*) {
  auto* k = reinterpret_cast<KernelObject*>(type->tp_alloc(type, 0));
  if (k) k->vectorcall = kernel_vectorcall;
  return reinterpret_cast<PyObject*>(k);
}

int kernel_traverse(PyObject* self, visitproc visit, void* arg) {
  auto* k = reinterpret_cast<KernelObject*>(self);
  Py_VISIT(k->core);
  Py_VISIT(k->dict);
  return 0;
}

int kernel_clear(PyObject* self) {
  auto* k = reinterpret_cast<KernelObject*>(self);
  Py_CLEAR(k->core);
  Py_CLEAR(k->dict);
  return 0;
}

void kernel_dealloc(PyObject* self) {
  PyObject_GC_UnTrack(self);
  if (reinterpret_cast<KernelObject*>(self)->weaklist) PyObject_ClearWeakRefs(self);
  kernel_clear(self);
  Py_TYPE(self)->tp_free(self);
}

PyMemberDef kernel_members[] = {
    {"_core", T_OBJECT, offsetof(KernelObject, core), 0, "the KernelCore (None until the kernel is parsed)"},
    {nullptr, 0, 0, 0, nullptr},
};

PyGetSetDef kernel_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyTypeObject kernel_base_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

}  // namespace

void bind_kernel_method(py::module_& m) {
  PyTypeObject& t = kernel_base_type;
  t.tp_name = "taichi._core.KernelBase";
  t.tp_basicsize = sizeof(KernelObject);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL;
  t.tp_doc = "Base of taichi's Kernel: its call (a launch) in C; Kernel._call is the general case.";
  t.tp_new = kernel_new;
  t.tp_dealloc = kernel_dealloc;
  t.tp_traverse = kernel_traverse;
  t.tp_clear = kernel_clear;
  t.tp_vectorcall_offset = offsetof(KernelObject, vectorcall);
  t.tp_call = PyVectorcall_Call;
  t.tp_dictoffset = offsetof(KernelObject, dict);
  t.tp_weaklistoffset = offsetof(KernelObject, weaklist);
  t.tp_members = kernel_members;
  t.tp_getset = kernel_getset;
  if (PyType_Ready(&t) < 0) throw py::error_already_set();
  m.add_object("KernelBase", py::handle(reinterpret_cast<PyObject*>(&t)));

  m.def("kernel_class", [](py::object cls, py::object slow) {
    if (!PyType_Check(cls.ptr()) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()), &kernel_base_type))
      throw py::type_error("kernel_class: the class must derive from taichi._core.KernelBase");
    auto* c = reinterpret_cast<PyTypeObject*>(cls.ptr());
    // CPython 3.11 does not give a class defined in Python its C base's
    // vectorcall (3.12 does, while the class leaves __call__ alone): without
    // it each call packs its arguments into a tuple for tp_call.
    if (c->tp_call == kernel_base_type.tp_call) {
      c->tp_vectorcall_offset = kernel_base_type.tp_vectorcall_offset;
      c->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
    }
    Py_XDECREF(g_slow);
    g_slow = slow.release().ptr();
  }, "(Kernel, Kernel._call): the class whose calls are kernel launches, and its general case");
  m.def("set_plain_launch", [](bool plain) { g_plain = plain; },
        "(plain): whether launches need no Python (no tape, forward mode or kernel profiler; taichi._state)");
}

}  // namespace kiln::py_host
