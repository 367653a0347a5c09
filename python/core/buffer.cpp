// The buffer protocol for fields, ndarrays and their outer-axis slices, so
// that memoryview(x), np.asarray(x) and mpi4py's comm.Sendrecv(x, ...) use a
// field's own memory without a copy.
//
// Python 3.11 has no `__buffer__`: only a type defined in C can export a
// buffer. So the slot lives here, on FieldCore (scalar fields) and on
// taichi._core.BufferExporter, an empty base for the Python classes that
// export memory (vector/matrix fields, ndarrays, slices). The slot asks the
// object for a numpy array over its memory (`self._kiln_buffer(need)`) and
// lends that array's buffer: the consumer's view then keeps the array, and
// through it the memory, alive. The Python side decides what the memory is
// and names the object and its layout in the error when a consumer needs a
// contiguous block and the layout is not one.
#include <string>
#include <vector>

#include "python/core/core.h"

namespace kiln::py_host {

namespace {

// What the consumer asked for: "C", "F" or "A" (any) contiguous, or None
// when it accepts strides (PEP 3118: without PyBUF_STRIDES the buffer must be
// C-contiguous).
PyObject* contiguity_needed(int flags) {
  if ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS) return PyUnicode_FromString("A");
  if ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS) return PyUnicode_FromString("F");
  if ((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS) return PyUnicode_FromString("C");
  if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES) return PyUnicode_FromString("C");
  Py_RETURN_NONE;
}

int get_buffer(PyObject* self, Py_buffer* view, int flags) {
  PyObject* need = contiguity_needed(flags);
  if (!need) return -1;
  PyObject* arr = PyObject_CallMethod(self, "_kiln_buffer", "O", need);
  Py_DECREF(need);
  if (!arr) {
    view->obj = nullptr;
    return -1;
  }
  // The array's own getbuffer fills the view and sets view->obj = arr (a new
  // reference), so PyBuffer_Release goes to the array.
  int rc = PyObject_GetBuffer(arr, view, flags);
  Py_DECREF(arr);
  return rc;
}

PyBufferProcs buffer_procs = {get_buffer, nullptr};

}  // namespace

void add_base_type(py::module_& m, PyTypeObject& t, const char* name, Py_ssize_t size, const char* doc) {
  static std::vector<std::string> names;  // tp_name must outlive the type
  names.push_back(std::string("taichi._core.") + name);
  t.tp_name = names.back().c_str();
  t.tp_basicsize = size;
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;
  t.tp_doc = doc;
  t.tp_new = PyType_GenericNew;
  t.tp_as_buffer = &buffer_procs;
  if (PyType_Ready(&t) < 0) throw py::error_already_set();
  m.add_object(name, py::handle((PyObject*)&t));
}

void bind_buffer(py::module_& m) {
  static PyTypeObject t = {PyVarObject_HEAD_INIT(nullptr, 0)};
  add_base_type(m, t, "BufferExporter", sizeof(PyObject),
                "Base of Python classes that lend their memory through the buffer protocol (self._kiln_buffer(need)).");
}

}  // namespace kiln::py_host
