// Runtime calls from traces (rtcall.h).
#include "jit/rtcall.h"

#include <deque>
#include <exception>
#include <mutex>

#include "vm/bytecode/function.h"
#include "vm/runtime/program.h"

namespace kiln::jit {

namespace {
thread_local std::exception_ptr t_pending;
alignas(64) thread_local uint8_t t_scratch[256];  // where a failed lookup points
thread_local int64_t t_indices[kMaxIndices];      // indices 2.. of the next lookup (stash_indices)

// Indices (a, b), then those stash_indices left for positions 2..nidx-1.
void indices_of(uint64_t a, uint64_t b, const RtCall& c, int64_t* idx) {
  idx[0] = (int64_t)a;
  idx[1] = (int64_t)b;
  for (int v = 2; v < c.nidx && v < kMaxIndices; v++) idx[v] = t_indices[v];
}
std::mutex g_mu;
std::deque<RtCall> g_calls;  // deque: addresses stay valid as it grows
}  // namespace

uint64_t rt_call(uint64_t a, uint64_t b, uint64_t call) {
  const RtCall& c = *reinterpret_cast<const RtCall*>(call);
  try {
    return c.fn(a, b, c);
  } catch (...) {
    if (!t_pending) t_pending = std::current_exception();
    return (uint64_t)t_scratch;
  }
}

const RtCall* keep_rtcall(const RtCall& c) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_calls.push_back(c);
  return &g_calls.back();
}

void rethrow_pending() {
  if (!t_pending) return;
  std::exception_ptr e = t_pending;
  t_pending = nullptr;
  std::rethrow_exception(e);
}

uint64_t stash_indices(uint64_t a, uint64_t b, const RtCall& c) {
  t_indices[c.nidx] = (int64_t)a;
  if (c.nidx + 1 < kMaxIndices) t_indices[c.nidx + 1] = (int64_t)b;
  return 0;
}

uint64_t sparse_lookup(uint64_t a, uint64_t b, const RtCall& c) {
  int64_t idx[kMaxIndices] = {};
  indices_of(a, b, c, idx);
  return (uint64_t)c.program->sparse_element(c.place, idx, c.activate);
}

uint64_t snode_call(uint64_t a, uint64_t b, const RtCall& c) {
  int64_t idx[kMaxIndices] = {};
  indices_of(a, b, c, idx);
  try {
    return (uint64_t)c.program->snode_op((Program::SNodeOp)c.op, c.place, idx);
  } catch (Error& e) {
    if (!e.loc.known()) e.loc = c.loc;
    throw;
  }
}

}  // namespace kiln::jit
