// Runtime calls from traces: an exception raised in the runtime is parked
// (machine code has no unwind tables) and rethrown when the trace returns.
#include <doctest/doctest.h>

#include "jit/rtcall.h"
#include "vm/runtime/program.h"
#include "vm/support/diag.h"

using namespace kiln::jit;

static uint64_t adds(uint64_t a, uint64_t b, const RtCall&) { return a + b; }
static uint64_t fails(uint64_t, uint64_t, const RtCall&) { kiln::raise("IndexError", "index 9 is out of bounds"); }

TEST_CASE("rt_call passes its operands and returns the result") {
  RtCall c;
  c.fn = &adds;
  const RtCall* kept = keep_rtcall(c);
  CHECK(rt_call(40, 2, (uint64_t)kept) == 42);
  CHECK_NOTHROW(rethrow_pending());
}

TEST_CASE("an exception in a runtime call is parked and rethrown once") {
  RtCall c;
  c.fn = &fails;
  const RtCall* kept = keep_rtcall(c);
  uint64_t p = rt_call(0, 0, (uint64_t)kept);
  CHECK(p != 0);  // a scratch address the rest of the trace may touch harmlessly
  *(volatile uint64_t*)p = 1;
  try {
    rethrow_pending();
    FAIL("nothing was rethrown");
  } catch (const kiln::Error& e) {
    CHECK(e.kind == "IndexError");
  }
  CHECK_NOTHROW(rethrow_pending());
}

// A trace passes two operands a call: an access with more indices stashes
// the rest first (stash_indices, two a call), as record_runtime.cpp emits.
TEST_CASE("sparse lookups and SNode ops with 3-5 indices take the stashed ones") {
  kiln::Config cfg;
  cfg.num_threads = 1;
  kiln::Program p(cfg);
  kiln::FieldInfo* x = p.create_field(kiln::Prim::i32, "x", {});
  kiln::SNode* ptr = p.add_container(p.open_root(), kiln::SNodeKind::pointer, {0, 1, 2, 3, 4}, {2, 3, 2, 3, 2}, {});
  kiln::SNode* leaf = p.place(ptr, x, {});
  p.materialize();
  auto stash = [&](int from, int64_t a, int64_t b) {
    RtCall s;
    s.fn = &stash_indices;
    s.nidx = (uint8_t)from;
    rt_call((uint64_t)a, (uint64_t)b, (uint64_t)keep_rtcall(s));
  };
  RtCall w;  // x[1, 2, 0, 1, 1] = 7, activating
  w.fn = &sparse_lookup;
  w.program = &p;
  w.place = leaf->id;
  w.nidx = 5;
  w.activate = true;
  stash(2, 0, 1);
  stash(4, 1, 0);
  *(int32_t*)rt_call(1, 2, (uint64_t)keep_rtcall(w)) = 7;
  CHECK_NOTHROW(rethrow_pending());
  int64_t at[5] = {1, 2, 0, 1, 1};
  CHECK(*(const int32_t*)p.element_read_address(*x, at, 5, {}) == 7);
  int64_t other[5] = {1, 2, 0, 1, 0};  // the last index was taken from the stash, not left 0
  CHECK(*(const int32_t*)p.element_read_address(*x, other, 5, {}) == 0);
  RtCall q;  // ti.is_active(ptr, [1, 2, 0, 1, 1]) and [1, 2, 1, 1, 1]
  q.fn = &snode_call;
  q.program = &p;
  q.place = ptr->id;
  q.nidx = 5;
  q.op = (uint8_t)kiln::Program::SNodeOp::is_active;
  stash(2, 0, 1);
  stash(4, 1, 0);
  CHECK(rt_call(1, 2, (uint64_t)keep_rtcall(q)) == 1);
  stash(2, 1, 1);
  stash(4, 1, 0);
  CHECK(rt_call(1, 2, (uint64_t)keep_rtcall(q)) == 0);
  CHECK_NOTHROW(rethrow_pending());
}
