// Linux perf's map of JIT code (/tmp/perf-PID.map; KILN_JIT=perfmap=1).
#pragma once
#include <cstddef>
#include <string>

namespace kiln::jit {

// Appends "START SIZE NAME" for `size` bytes of code at `code`.
void perf_map_note(const void* code, size_t size, const std::string& name);

}  // namespace kiln::jit
