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

uint64_t sparse_lookup(uint64_t a, uint64_t b, const RtCall& c) {
  int64_t idx[kMaxIndices] = {(int64_t)a, (int64_t)b};
  return (uint64_t)c.program->sparse_element(c.place, idx, c.activate);
}

uint64_t snode_call(uint64_t a, uint64_t b, const RtCall& c) {
  int64_t idx[kMaxIndices] = {(int64_t)a, (int64_t)b};
  try {
    return (uint64_t)c.program->snode_op((Program::SNodeOp)c.op, c.place, idx);
  } catch (Error& e) {
    if (!e.loc.known()) e.loc = c.loc;
    throw;
  }
}

}  // namespace kiln::jit
