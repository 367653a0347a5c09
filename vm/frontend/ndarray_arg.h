// An ndarray kernel argument against its annotation, as both hosts check it
// (python/core/kernel_args.cpp for CPython, vm/host/ti_ndarray.cpp for the
// built-in evaluator): the element dtype and shape, the number of indices and
// their i32 range, then the ArgSpec the frontend compiles against and the
// argument's part of the kernel instance key.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "vm/frontend/frontend.h"

namespace kiln::frontend {

// What ti.types.ndarray(dtype, ndim) asks for: prim unset accepts any
// dtype (and any element shape); ndim -1 any number of indices.
struct NdarrayWant {
  std::optional<Prim> prim;
  int n = 0, m = 0;  // vector (n) or matrix (n x m) elements; 0 for scalars
  int ndim = -1;
};

// The array: dtype `dt`, elements of n (x m), `ndim` indices of sizes
// shape[0..ndim); `np_dtype` names its dtype for messages ("float32").
void bind_ndarray(const std::string& pname, const NdarrayWant& want, Prim dt, int n, int m, int ndim,
                  const int64_t* shape, const std::string& np_dtype, ArgSpec& spec, std::string& key, SourceLoc loc);

}  // namespace kiln::frontend
