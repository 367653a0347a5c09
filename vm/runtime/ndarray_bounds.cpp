// See ndarray_bounds.h.
#include "vm/runtime/ndarray_bounds.h"

namespace kiln {

std::string ndarray_bounds_message(const std::string& name, int axis, int64_t index, const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); i++) s += (i ? ", " : "") + std::to_string(shape[i]);
  s += shape.size() == 1 ? ",)" : ")";
  return "index " + std::to_string(index) + " is out of bounds for axis " + std::to_string(axis) + " of " +
         (name.empty() ? std::string("ndarray") : "ndarray '" + name + "'") + " with shape " + s;
}

}  // namespace kiln
