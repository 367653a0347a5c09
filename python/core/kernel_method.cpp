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
//
// A kernel that is a method of a @ti.data_oriented class is reached through
// its descriptor (`obj.step`): KernelBase's __get__ gives a BoundKernelBase
// (taichi's _BoundKernel) holding the kernel and the object, whose call puts
// the object before the caller's arguments and takes the same way (the
// object is a template argument: kernel.cpp's try_fast matches it by
// identity). Both used to be Python (a __get__, a class, a __call__ frame
// with its attribute and _state lookups): with the binding's general path,
// 3.4 us a launch of an empty kernel method against 0.06 us for a function.
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
PyObject* g_bound_slow = nullptr;  // _BoundKernel._call (set by bound_kernel_class)
PyTypeObject* g_bound_type = nullptr;  // _BoundKernel, what __get__ makes
// No tape, no forward mode, no kernel profiler: a launch needs no Python
// (taichi._state calls set_plain_launch whenever one of them changes).
bool g_plain = true;

// call(a, nargs + 1) with a = `first` and then the caller's arguments
// (keyword values after them): in the caller's args[-1] when it lends that
// slot (PEP 590), else in a copy.
template <class Call>
PyObject* with_first(PyObject* first, PyObject* const* args, size_t nargsf, PyObject* kwnames, Call call) {
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  if (nargsf & PY_VECTORCALL_ARGUMENTS_OFFSET) {
    PyObject** a = const_cast<PyObject**>(args) - 1;
    PyObject* saved = a[0];
    a[0] = first;
    PyObject* r = call(a, nargs + 1);
    a[0] = saved;
    return r;
  }
  Py_ssize_t total = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
  PyObject* small[8];
  std::vector<PyObject*> big;
  PyObject** a = small;
  if (total + 1 > 8) {
    big.resize((size_t)total + 1);
    a = big.data();
  }
  a[0] = first;
  for (Py_ssize_t i = 0; i < total; i++) a[i + 1] = args[i];
  return call(a, nargs + 1);
}

// The Python method `slow`, called with self before the arguments.
PyObject* call_slow(PyObject* slow, PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  if (!slow) {
    PyErr_SetString(PyExc_SystemError, "taichi._core.kernel_class / bound_kernel_class was not called");
    return nullptr;
  }
  return with_first(self, args, nargsf, kwnames,
                    [&](PyObject** a, Py_ssize_t n) { return PyObject_Vectorcall(slow, a, (size_t)n, kwnames); });
}

PyObject* kernel_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  auto* k = reinterpret_cast<KernelObject*>(self);
  PyObject* core = k->core;
  if (!g_plain || !core || core == Py_None) return call_slow(g_slow, self, args, nargsf, kwnames);
  // Positional and keyword arguments to a kept instance: straight into the
  // KernelCore (kernel.cpp), without pybind's dispatch.
  {
    bool handled = false;
    PyObject* r = kernel_core_fast_call(core, args, PyVectorcall_NARGS(nargsf), kwnames, handled);
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

// ---- kernel methods: KernelBase.__get__ and the bound kernel

struct BoundObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject* k;    // the Kernel
  PyObject* obj;  // the instance it was looked up on
};

PyObject* bound_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  auto* b = reinterpret_cast<BoundObject*>(self);
  PyObject* core = reinterpret_cast<KernelObject*>(b->k)->core;
  // The fast way only runs an instance an earlier call compiled for this
  // very object, after _call's check that its class is @ti.data_oriented.
  if (g_plain && core && core != Py_None) {
    bool handled = false;
    Py_INCREF(core);
    PyObject* r = with_first(b->obj, args, nargsf, kwnames, [&](PyObject** a, Py_ssize_t n) {
      return kernel_core_fast_call(core, a, n, kwnames, handled);
    });
    Py_DECREF(core);
    if (handled) return r;
  }
  return call_slow(g_bound_slow, self, args, nargsf, kwnames);
}

PyObject* bound_make(PyTypeObject* type, PyObject* k, PyObject* obj) {
  auto* b = reinterpret_cast<BoundObject*>(type->tp_alloc(type, 0));
  if (!b) return nullptr;
  b->vectorcall = bound_vectorcall;
  Py_INCREF(k);
  b->k = k;
  Py_INCREF(obj);
  b->obj = obj;
  return reinterpret_cast<PyObject*>(b);
}

PyObject* bound_new(PyTypeObject* type, PyObject* args, PyObject* kw) {
  PyObject *k, *obj;
  static const char* names[] = {"k", "obj", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO", const_cast<char**>(names), &k, &obj)) return nullptr;
  if (!PyObject_TypeCheck(k, &kernel_base_type)) {
    PyErr_SetString(PyExc_TypeError, "a bound kernel binds a Kernel");
    return nullptr;
  }
  return bound_make(type, k, obj);
}

int bound_traverse(PyObject* self, visitproc visit, void* arg) {
  auto* b = reinterpret_cast<BoundObject*>(self);
  Py_VISIT(b->k);
  Py_VISIT(b->obj);
  return 0;
}

int bound_clear(PyObject* self) {
  auto* b = reinterpret_cast<BoundObject*>(self);
  Py_CLEAR(b->k);
  Py_CLEAR(b->obj);
  return 0;
}

void bound_dealloc(PyObject* self) {  // (the Python subclass's dealloc drops the type's reference)
  PyObject_GC_UnTrack(self);
  bound_clear(self);
  Py_TYPE(self)->tp_free(self);
}

PyMemberDef bound_members[] = {
    {"k", T_OBJECT, offsetof(BoundObject, k), READONLY, "the Kernel"},
    {"obj", T_OBJECT, offsetof(BoundObject, obj), READONLY, "the instance the kernel is a method of"},
    {nullptr, 0, 0, 0, nullptr},
};

PyTypeObject bound_base_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

// Kernel.__get__: on an instance, the kernel bound to it.
PyObject* kernel_descr_get(PyObject* self, PyObject* obj, PyObject*) {
  if (!obj || obj == Py_None) {
    Py_INCREF(self);
    return self;
  }
  return bound_make(g_bound_type ? g_bound_type : &bound_base_type, self, obj);
}

// CPython 3.11 does not give a class defined in Python its C base's
// vectorcall (3.12 does, while the class leaves __call__ alone): without it
// each call packs its arguments into a tuple for tp_call.
void inherit_vectorcall(PyTypeObject* c, PyTypeObject* base) {
  if (c->tp_call == base->tp_call) {
    c->tp_vectorcall_offset = base->tp_vectorcall_offset;
    c->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
  }
}

PyTypeObject* subclass_of(py::handle cls, PyTypeObject* base, const char* what) {
  if (!PyType_Check(cls.ptr()) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()), base))
    throw py::type_error(std::string(what) + ": the class must derive from " + base->tp_name);
  return reinterpret_cast<PyTypeObject*>(cls.ptr());
}

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
  t.tp_descr_get = kernel_descr_get;
  if (PyType_Ready(&t) < 0) throw py::error_already_set();
  m.add_object("KernelBase", py::handle(reinterpret_cast<PyObject*>(&t)));

  PyTypeObject& bt = bound_base_type;
  bt.tp_name = "taichi._core.BoundKernelBase";
  bt.tp_basicsize = sizeof(BoundObject);
  bt.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL;
  bt.tp_doc = "Base of taichi's _BoundKernel (a kernel method looked up on its instance): its call in C.";
  bt.tp_new = bound_new;
  bt.tp_dealloc = bound_dealloc;
  bt.tp_traverse = bound_traverse;
  bt.tp_clear = bound_clear;
  bt.tp_vectorcall_offset = offsetof(BoundObject, vectorcall);
  bt.tp_call = PyVectorcall_Call;
  bt.tp_members = bound_members;
  if (PyType_Ready(&bt) < 0) throw py::error_already_set();
  m.add_object("BoundKernelBase", py::handle(reinterpret_cast<PyObject*>(&bt)));

  m.def("kernel_class", [](py::object cls, py::object slow) {
    inherit_vectorcall(subclass_of(cls, &kernel_base_type, "kernel_class"), &kernel_base_type);
    Py_XDECREF(g_slow);
    g_slow = slow.release().ptr();
  }, "(Kernel, Kernel._call): the class whose calls are kernel launches, and its general case");
  m.def("bound_kernel_class", [](py::object cls, py::object slow) {
    PyTypeObject* c = subclass_of(cls, &bound_base_type, "bound_kernel_class");
    inherit_vectorcall(c, &bound_base_type);
    Py_INCREF(c);
    Py_XDECREF(reinterpret_cast<PyObject*>(g_bound_type));
    g_bound_type = c;
    Py_XDECREF(g_bound_slow);
    g_bound_slow = slow.release().ptr();
  }, "(_BoundKernel, _BoundKernel._call): what Kernel.__get__ makes on an instance, and its general case");
  m.def("set_plain_launch", [](bool plain) { g_plain = plain; },
        "(plain): whether launches need no Python (no tape, forward mode or kernel profiler; taichi._state)");
}

}  // namespace kiln::py_host
