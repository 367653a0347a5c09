// Size validation shared by every host (see sizes.h for the rules).
#include "vm/runtime/sizes.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "vm/runtime/snode.h"

namespace kiln {

namespace {

// memory.max of this process's cgroup (v2), 0 when there is none or "max".
uint64_t cgroup_limit() {
  std::ifstream cg("/proc/self/cgroup");
  std::string line, path;
  while (std::getline(cg, line))
    if (line.rfind("0::", 0) == 0) path = line.substr(3);
  if (path.empty()) return 0;
  std::ifstream f("/sys/fs/cgroup" + path + "/memory.max");
  std::string v;
  if (!(f >> v) || v == "max") return 0;
  return std::strtoull(v.c_str(), nullptr, 10);
}

uint64_t detect_memory() {
  if (const char* env = std::getenv("KILN_MEMORY_BYTES")) {
    char* end = nullptr;
    unsigned long long v = std::strtoull(env, &end, 10);
    if (end != env && *end == 0 && v > 0) return v;
  }
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  uint64_t phys = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
  uint64_t cg = cgroup_limit();
  if (cg && (!phys || cg < phys)) return cg;
  return phys;
}

}  // namespace

uint64_t machine_memory_bytes() {
  static const uint64_t bytes = detect_memory();  // fixed for the process's life
  return bytes;
}

void check_memory(int64_t bytes, SourceLoc loc) {
  uint64_t have = machine_memory_bytes();
  if (bytes >= 0 && (!have || (uint64_t)bytes <= have)) return;
  std::string n = bytes < 0 ? "more than " + std::to_string(INT64_MAX) : std::to_string(bytes);
  raise("MemoryError", "the request of " + n + " bytes exceeds the machine's memory (" + std::to_string(have) + " bytes)",
        loc);
}

int64_t checked_bytes(int64_t count, int64_t elem_bytes, SourceLoc loc) {
  int64_t r;
  if (count < 0 || __builtin_mul_overflow(count, elem_bytes, &r)) r = -1;
  check_memory(r, loc);
  return r;
}

void check_extent(int64_t n, const std::string& what, SourceLoc loc) {
  if (n <= 0) raise("ValueError", what + " must be positive, got " + std::to_string(n), loc);
  if (n > kMaxExtent)
    raise("ValueError", what + " is " + std::to_string(n) + ", more than " + std::to_string(kMaxExtent) +
                            " (indices are 32-bit)",
          loc);
}

int64_t check_shape(const std::vector<int64_t>& shape, const std::string& what, SourceLoc loc) {
  if (shape.size() > (size_t)kMaxIndices)
    raise("ValueError", "a " + what + " has at most " + std::to_string(kMaxIndices) + " dimensions, got " +
                            std::to_string(shape.size()),
          loc);
  int64_t count = 1;
  bool overflow = false;
  for (int64_t n : shape) {
    if (n <= 0) raise("ValueError", what + " shape " + format_shape(shape) + " must be positive", loc);
    if (n > kMaxExtent)
      raise("ValueError", what + " shape " + format_shape(shape) + " has a dimension longer than " +
                              std::to_string(kMaxExtent) + " (indices are 32-bit)",
            loc);
    overflow |= __builtin_mul_overflow(count, n, &count);
  }
  if (overflow)
    raise("ValueError", what + " shape " + format_shape(shape) + " has more than " + std::to_string(INT64_MAX) +
                            " elements",
          loc);
  return count;
}

int64_t check_vector_components(int64_t n, SourceLoc loc) {
  if (n <= 0 || n > kMaxComponents)
    raise("ValueError", "a vector has 1 to " + std::to_string(kMaxComponents) + " components, got " + std::to_string(n),
          loc);
  return n;
}

int64_t check_matrix_components(int64_t n, int64_t m, SourceLoc loc) {
  int64_t count = 0;
  if (n <= 0 || m <= 0 || __builtin_mul_overflow(n, m, &count) || count > kMaxComponents)
    raise("ValueError", "a matrix has 1 to " + std::to_string(kMaxComponents) + " components, got " + std::to_string(n) +
                            " x " + std::to_string(m),
          loc);
  return count;
}

int64_t check_ndarray(const std::vector<int64_t>& shape, int64_t comps, int64_t elem_bytes, SourceLoc loc) {
  int64_t count = check_shape(shape, "ndarray", loc);
  int64_t elems;
  if (__builtin_mul_overflow(count, comps, &elems)) elems = -1;
  return checked_bytes(elems, elem_bytes, loc);
}

int64_t check_dense(const std::vector<int64_t>& shape, int64_t cell_bytes, const std::string& what, SourceLoc loc) {
  return checked_bytes(check_shape(shape, what, loc), cell_bytes, loc);
}

}  // namespace kiln
