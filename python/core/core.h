// taichi._core: the CPython binding of Kiln's `ti` layer.
//
// Python programs run on the real CPython: host code is the user's Python, and
// only kernels and ti.funcs go through Kiln's frontend. This extension holds
// the current Program (ti.init makes a new one), creates fields and SNodes,
// compiles and launches kernels, and gives the frontend a HostEnv over real
// Python objects, so a kernel sees any global, closure variable, `self.x` or
// template argument exactly as Taichi's would: as a compile-time constant
// captured at its first compilation.
//
// The Python package (python/taichi/) builds the API on top; it tells this
// module how its objects look to a kernel through `_kiln_static()` (see
// static.cpp), and registers the constructors of its host values
// (ti.Vector, ti.Matrix, ti.Struct) for kernel return values.
#pragma once
#include <pybind11/pybind11.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "vm/frontend/frontend.h"
#include "vm/runtime/program.h"
#include "vm/support/diag.h"
#include "vm/ti/kernels.h"

namespace kiln::py_host {

namespace py = pybind11;

// The process's one `ti` state (CPython has one interpreter here).
struct State {
  std::unique_ptr<Program> program;  // null until ti.init or first use
  int generation = 0;                // bumped by every ti.init / ti.reset
  ti::ProgramOptions options;        // set by `kiln run` (forced flags) or left default
  bool stats_at_exit = false;        // `kiln run --stats`: the counters to stderr at shutdown
  std::vector<KernelDump> dumps;     // every kernel compiled, for `kiln dis` and the REPL,
  bool keep_dumps = false;           // when one of them set this (the texts cost compile time)
  SourceSet sources;                 // kernel sources (SourceLocs point into them)
  std::unique_ptr<frontend::HostEnv> env;
  py::object make_matrix;            // taichi's ti.Matrix constructor for returns: (n, m, ndim, dtype_name, flat list)
  py::object make_struct;            // (struct type object, dict of members)
  // Zero-copy views (field_array, __dlpack__) point into the Program's memory:
  // once one was handed out, ti.init/ti.reset keep that Program's memory
  // alive (here) instead of freeing it under the view.
  bool exported = false;
  std::vector<std::unique_ptr<Program>> retired;
};
State& state();
Program& program();  // the current Program (created with defaults if needed)

// Held across a kernel launch: Ctrl-C then stops the kernel at its next loop
// back-edge with KeyboardInterrupt instead of waiting for it (interrupt.cpp).
class LaunchInterrupt {
 public:
  explicit LaunchInterrupt(Program& p);
  ~LaunchInterrupt();
  LaunchInterrupt(const LaunchInterrupt&) = delete;
  LaunchInterrupt& operator=(const LaunchInterrupt&) = delete;

 private:
  std::atomic<bool>* outer_;
};

// Raises the Python exception for a kiln::Error: Taichi's classes for
// compile errors (TaichiSyntaxError, TaichiTypeError, TaichiNameError, ...),
// Python's own for runtime ones (IndexError, AssertionError, ...), with the
// message as `kiln run` prints it (kind, file:line:col, caret).
[[noreturn]] void throw_python(const Error& e, bool compiling);

// ---- static.cpp: Python objects as the frontend sees them ----
// A Python int as a ConstVal of `p` (wrapped to its width; above INT64_MAX
// as unsigned); false with an OverflowError saying `too_small` below
// INT64_MIN (kernel_args.cpp; field writes and kernel arguments).
bool long_to_const(PyObject* v, Prim p, ConstVal& out, const char* too_small);
frontend::StaticValue to_static(py::handle o);
py::object from_static(const frontend::StaticValue& s);
std::unique_ptr<frontend::HostEnv> make_env();
Prim prim_of_dtype(py::handle dtype);  // a taichi DataType (or int/float: default_ip/fp); throws TypeError
py::object dtype_object(Prim p);       // taichi's DataType object for a primitive
// numpy.empty(shape, dtype) of `bytes` bytes; from vm/runtime/large_buffers.h's
// blocks when that is large (np_large.cpp)
py::object np_empty_large(py::module_& np, const py::tuple& shape, const char* dtype, size_t bytes);

// A Python value wrapped so a StaticValue can hold it (GIL-safe release).
std::shared_ptr<void> hold(py::handle o);
py::handle held(const std::shared_ptr<void>& h);

// The FieldInfo of a taichi._core.FieldCore (or subclass) object, checked
// against the current Program; null for other objects. Throws RuntimeError
// for a field of a Program that ti.init/ti.reset discarded.
FieldInfo* field_info(py::handle o);
// The SNode of a taichi._core.SNode object; null for other objects.
SNode* snode_of(py::handle o);

// ---- registration of the pieces ----
void bind_fields(py::module_& m);
void bind_kernels(py::module_& m);
void bind_kernel_method(py::module_& m);  // kernel_method.cpp: taichi._core.KernelBase, Kernel's call in C
// A call of a KernelCore (`core`) with positional arguments on its kept
// instance (kernel.cpp). `handled` false: not taken, no error set (call it
// through Python); true: the result, or null with the Python error set.
PyObject* kernel_core_fast_call(PyObject* core, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, bool& handled);
void bind_linalg(py::module_& m);  // linalg.cpp: ti.linalg's sparse matrices and solvers
void bind_snodes(py::module_& m);
void bind_layouts(py::module_& m);
void bind_buffer(py::module_& m);  // buffer.cpp: taichi._core.BufferExporter
// buffer.cpp: readies `t` (its other slots already set) as taichi._core.NAME, a
// static type that Python classes derive from, with the buffer protocol:
// memoryview(obj) lends the buffer of the numpy array obj._kiln_buffer(need) returns.
void add_base_type(py::module_& m, PyTypeObject& t, const char* name, Py_ssize_t size, const char* doc);

}  // namespace kiln::py_host
