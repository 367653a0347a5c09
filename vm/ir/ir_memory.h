// Where the IR's memory comes from (issue 16: compile time linear in kernel
// size). Stmts, Blocks, their statement vectors, spilled operand lists, a
// global_ptr's Access and StmtRare all come from mimalloc (ir.cpp), whatever
// allocator the process has: under CPython the global one is glibc's (a Python
// extension must leave malloc and operator new alone, CMakeLists.txt), whose
// malloc/free were ~15% of the instructions of a 10^4-statement compile, and
// whose heap the kernel's pages are first touched in 4 KiB pages rather than
// mimalloc's 2 MiB ones.
#pragma once
#include <cstddef>

namespace kiln::ir {

void* ir_alloc(size_t bytes);     // throws std::bad_alloc, as operator new does
void* ir_alloc_n(size_t count, size_t size);  // count * size, checked for overflow
void ir_free(void* p) noexcept;

// A std allocator over ir_alloc, for the IR's containers (StmtList).
template <class T>
struct IrAllocator {
  using value_type = T;
  IrAllocator() noexcept = default;
  template <class U>
  IrAllocator(const IrAllocator<U>&) noexcept {}  // NOLINT: rebinding is implicit
  T* allocate(size_t n) { return static_cast<T*>(ir_alloc_n(n, sizeof(T))); }
  void deallocate(T* p, size_t) noexcept { ir_free(p); }
  template <class U>
  bool operator==(const IrAllocator<U>&) const noexcept { return true; }
};

// Class-scope operator new/delete of a type the IR allocates one at a time.
#define KILN_IR_MEMORY                                                      \
  static void* operator new(size_t n) { return ::kiln::ir::ir_alloc(n); } \
  static void operator delete(void* p) noexcept { ::kiln::ir::ir_free(p); }

}  // namespace kiln::ir
