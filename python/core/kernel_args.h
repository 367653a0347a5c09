// A kernel call's arguments from Python (python/core/kernel.cpp binds the
// call and keeps the instances): what each parameter's annotation asks for,
// each argument classified by it into the instance's cache key, and the
// argument slots of a launch: scalars converted to their type's bits, an
// ndarray (ti.ndarray or any buffer, by reference) and a sparse matrix
// builder's arrays, checked against the annotation.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "python/core/core.h"

namespace kiln::py_host {

// A buffer lent to one launch.
struct NdarrayArg {
  py::object arr;  // the numpy array (kept alive across the launch)
  Py_buffer view{};
  bool held = false;
  ~NdarrayArg() {
    if (held) PyBuffer_Release(&view);
  }
};

Prim prim_of_format(const char* f, Py_ssize_t itemsize);

// Classifies an ndarray argument (spec: kind, prim, ndim, rows, cols) and adds it to the cache key.
std::unique_ptr<NdarrayArg> ndarray_arg(const py::object& ann, const py::object& v, const std::string& pname,
                                        frontend::ArgSpec& spec, std::string& key);
void builder_arg(const py::object& v, const std::string& pname, std::array<std::unique_ptr<NdarrayArg>, 3>& out);

// Which instance a call runs (taichi/_kernel.py passes these numbers).
enum CallMode { kKernel = 0, kGrad = 1, kDual = 2, kValidate = 3 };

// An argument's part of the cache key that identifies an instance: immutable
// values (numbers, strings, tuples of them) by value, any other object by its
// address (the kernel then holds it: kernel.cpp's hold_template).
std::string identity(py::handle v);

// A Python number as the bits of a `p` argument slot; false with a Python
// error set when it is not one (or does not fit).
bool slot_of(PyObject* v, Prim p, uint64_t& out);

// What one argument lends its launch: arrays, and an argpack's members' own.
struct ArgHold {
  py::object ann, val;
  std::unique_ptr<NdarrayArg> nd, comp;  // comp: an ndarray's grad/dual array (autodiff)
  std::array<std::unique_ptr<NdarrayArg>, 3> builder;  // a sparse matrix builder's arrays
  std::vector<ArgHold> members;
};

// Classifies one argument by its annotation (spec.name is set) and adds
// what its instance depends on to the cache key.
// What an annotation asks for, decided once per parameter (info[k],
// load_annotations): redone at every call, its to_static and the failing
// attribute lookups (each formats an AttributeError) were ~5 us of a call
// that takes the general path (keywords, a new object).
enum class AnnKind { template_, builder, ndarray, argpack, compound, scalar, unsupported };
struct AnnInfo {
  AnnKind kind;
  frontend::StaticValue a;
};
AnnInfo ann_info(const py::object& ann);

// Classifies one argument by its annotation (spec.name is set) into `spec`
// and `h`, and adds what its instance depends on to the cache key; errors
// name the parameter and `kernel`, at `loc`.
void classify(int mode, const std::string& kernel, const py::object& ann, const AnnInfo& info, const py::object& val,
              SourceLoc loc, frontend::ArgSpec& spec, ArgHold& h, std::string& key);

// Puts one classified argument into the slots from `slot` on, in the order
// the frontend gave them (vm/frontend/lower_kernel.cpp); returns how many it took.
size_t fill(const std::string& kernel, const frontend::ArgSpec& spec, ArgHold& h, size_t slot, std::vector<uint64_t>& slots);

}  // namespace kiln::py_host
