// Runtime calls from traces: an exception raised in the runtime is parked
// (machine code has no unwind tables) and rethrown when the trace returns.
#include <doctest/doctest.h>

#include "jit/rtcall.h"
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
