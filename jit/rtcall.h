// Calls from compiled traces into the runtime (sparse SNode lookups). The
// trace IR's `rtcall` op passes two operand values and a pointer to an
// RtCall, which names the function and what it needs. A C++ exception must
// not unwind through machine code without unwind tables, so rt_call catches
// it, parks it in a thread-local and returns a harmless scratch address; the
// engine rethrows it when the trace returns (rethrow_pending()).
#pragma once
#include <cstdint>

#include "vm/support/diag.h"

namespace kiln {
struct Program;
struct SNode;
}

namespace kiln::jit {

struct RtCall {
  uint64_t (*fn)(uint64_t a, uint64_t b, const RtCall& c) = nullptr;
  Program* program = nullptr;
  int32_t place = -1;   // sparse lookups: the place SNode
  uint8_t nidx = 0;
  bool activate = false;
  uint8_t op = 0;       // SNode ops: which (Program::SNodeOp); place is then the SNode
  const SNode* node = nullptr;  // an append into a located list (sparse_walk.cpp): the dynamic SNode
  int64_t cap = 0;              // and its capacity
  SourceLoc loc;        // where the op came from (errors it raises)
};

// The trampoline compiled code calls: rdi = a, rsi = b, rdx = the RtCall.
uint64_t rt_call(uint64_t a, uint64_t b, uint64_t call);
// An RtCall that lives as long as the process (traces are never freed).
const RtCall* keep_rtcall(const RtCall& c);
// Rethrows an exception a runtime call raised inside the last trace run.
void rethrow_pending();
// A call passes two operands, so an access with more than two indices (a 3-D
// grid's) first stashes indices c.nidx and c.nidx + 1 in a thread-local with
// this call, emitted just before the access's own (no other call between).
uint64_t stash_indices(uint64_t a, uint64_t b, const RtCall& c);
// The element address of sparse[place] at indices (a, b, then any stashed):
// Program::sparse_element.
uint64_t sparse_lookup(uint64_t a, uint64_t b, const RtCall& c);
// ti.activate / is_active / deactivate / append / length at indices (a, b, then any stashed):
// Program::snode_op; its errors name the op's line.
uint64_t snode_call(uint64_t a, uint64_t b, const RtCall& c);

}  // namespace kiln::jit
