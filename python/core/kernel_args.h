// Array arguments of kernels called from Python: an ndarray (ti.ndarray or
// any buffer, by reference) and a sparse matrix builder's arrays, checked
// against the parameter's annotation (python/core/kernel.cpp).
#pragma once
#include <array>
#include <memory>
#include <string>

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

}  // namespace kiln::py_host
