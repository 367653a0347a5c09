// numpy arrays the size of a large field, for to_numpy (field.cpp): their
// data comes from vm/runtime/large_buffers (2 MiB pages; a released block
// kept for the next array of its size) through a numpy memory handler
// (NEP 49, numpy >= 1.22), set only around the one np.empty call.
//
// Why: `a = x.to_numpy()` in a loop (every frame, every step) had numpy
// allocate 64 MiB for a 4096x4096 f32 field each time; the allocator mapped
// fresh pages and returned the last array's, so each array paid page faults
// and the kernel's clearing of every page: 61% of bench/numpy_copy's CPU time
// (perf, cpu-clock; docs/perf/memory.md "Memory-bound loops, session 30"). The array
// is numpy's own (OWNDATA, no base): numpy frees or reallocates it through
// the handler it was made with, whenever it dies.
#include <cstdlib>
#include <cstring>

#include "python/core/core.h"
#include "vm/runtime/large_buffers.h"

namespace kiln::py_host {

namespace {

// NEP 49's handler, version 1 (numpy/ndarraytypes.h: PyDataMem_Handler).
struct Allocator {
  void* ctx;
  void* (*malloc)(void* ctx, size_t size);
  void* (*calloc)(void* ctx, size_t nelem, size_t elsize);
  void* (*realloc)(void* ctx, void* ptr, size_t new_size);
  void (*free)(void* ctx, void* ptr, size_t size);
};
struct Handler {
  char name[127];
  uint8_t version;
  Allocator allocator;
};

void* large_malloc(void*, size_t n) {
  if (n >= kLargeBuffer)
    if (void* p = map_large(n, nullptr, true)) return p;
  return std::malloc(n ? n : 1);
}
void* large_calloc(void*, size_t k, size_t size) {
  size_t n = k * size;  // (numpy checked the product)
  bool zeroed = false;
  if (n >= kLargeBuffer)
    if (void* p = map_large(n, &zeroed, true)) {
      if (!zeroed) std::memset(p, 0, n);
      return p;
    }
  return std::calloc(k ? k : 1, size ? size : 1);
}
void large_free(void*, void* p, size_t) {
  if (p && !unmap_large(p, true)) std::free(p);
}
void* large_realloc(void* ctx, void* p, size_t n) {
  size_t had = large_length(p);
  if (!had) return std::realloc(p, n ? n : 1);
  if (n <= had && n >= kLargeBuffer) return p;  // (a shrink within the block)
  void* q = large_malloc(ctx, n);
  if (!q) return nullptr;
  std::memcpy(q, p, n < had ? n : had);
  large_free(ctx, p, had);
  return q;
}

Handler handler = {"kiln_large_buffers", 1, {nullptr, large_malloc, large_calloc, large_realloc, large_free}};

// numpy's PyDataMem_SetHandler, from its C API table (the _ARRAY_API
// capsule; entry 304 from numpy 1.22 on), or null where numpy is older.
using SetHandler = PyObject* (*)(PyObject*);
SetHandler set_handler() {
  static SetHandler fn = []() -> SetHandler {
    py::object mod;
    for (const char* name : {"numpy._core.multiarray", "numpy.core.multiarray"}) {  // (numpy 2, numpy 1)
      try {
        mod = py::module_::import(name);
        break;
      } catch (py::error_already_set&) {
      }
    }
    if (!mod || !py::hasattr(mod, "get_handler_name") || !py::hasattr(mod, "_ARRAY_API")) return nullptr;
    void** table = static_cast<void**>(PyCapsule_GetPointer(mod.attr("_ARRAY_API").ptr(), nullptr));
    if (!table) {
      PyErr_Clear();
      return nullptr;
    }
    return reinterpret_cast<SetHandler>(table[304]);
  }();
  return fn;
}

}  // namespace

py::object np_empty_large(py::module_& np, const py::tuple& shape, const char* dtype, size_t bytes) {
  SetHandler set = bytes >= kLargeBuffer ? set_handler() : nullptr;
  if (!set) return np.attr("empty")(shape, dtype);
  static PyObject* capsule = PyCapsule_New(&handler, "mem_handler", nullptr);  // (lives as long as the arrays)
  PyObject* old = set(capsule);
  if (!old) throw py::error_already_set();
  py::object arr;
  try {
    arr = np.attr("empty")(shape, dtype);
  } catch (...) {
    Py_XDECREF(set(old));
    Py_DECREF(old);
    throw;
  }
  Py_XDECREF(set(old));  // (returns our capsule, with a new reference)
  Py_DECREF(old);
  return arr;
}

}  // namespace kiln::py_host
