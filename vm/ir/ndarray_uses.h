// The ndarray arguments a kernel accesses, for device backends that copy them
// in before a launch and back after it (gpu/vulkan, gpu/cuda).
#pragma once
#include <string>
#include <vector>

#include "vm/ir/ir.h"

namespace kiln::ir {

struct NdarrayUse {
  int arg = 0;             // the argument slot of its data pointer; its shape (i32s) follows
  int ndim = 0;
  int elem_bytes = 0;      // an element's bytes (all its components)
  bool written = false;    // stored to or updated atomically
  std::string name;
};

// In order of first access, those of the ti.real_funcs it calls included
// (under the kernel's argument slot the calls pass them from).
std::vector<NdarrayUse> ndarray_uses(const Kernel& k);

}  // namespace kiln::ir
