// The one RecursionError text for ti.real_func calls nested too deep, on
// every engine: the interpreter's limit (kMaxCallDepth), or a device's
// smaller one, which says so.
#pragma once
#include <cstdint>
#include <string>

#include "vm/interp/interp.h"

namespace kiln::interp {

// `stack`: what holds a device's levels ("its thread stack"), for a limit
// below the interpreter's.
inline std::string recursion_message(const std::string& fn, uint64_t limit, const std::string& stack) {
  std::string s = "maximum recursion depth exceeded: ti.real_func '" + fn + "' nested " + std::to_string(limit) +
                  " calls deep";
  if (limit < (uint64_t)kMaxCallDepth)
    s += " (the GPU's limit: " + stack + " holds " + std::to_string(limit) + " levels; the CPU allows " +
         std::to_string(kMaxCallDepth) + ")";
  return s;
}

}  // namespace kiln::interp
