// A trace compile's scratch block (jit/scratch.h): what ScratchVecs take
// inside and outside a scope, the block taken again by the next compile, a
// vector that outlives its compile, and compile_trace's vectors in it. Each
// case runs on a thread of its own: a fresh block, whatever ran before.
#include <doctest/doctest.h>

#include <cstdint>
#include <thread>

#include "jit/scratch.h"
#include "jit/sink.h"
#include "jit_text.h"

using namespace kiln::jit;
using kiln::jit::test::counted;
using kiln::jit::test::kAxpy;
using kiln::jit::test::optimized;

namespace {

template <class F>
void on_new_thread(F f) {
  std::thread th(f);
  th.join();
}

// Where a scope's first allocation lands now: the block's start when
// nothing of it is still in use.
uintptr_t first_taken() {
  ScratchScope s;
  ScratchVec<int> v(4);
  return reinterpret_cast<uintptr_t>(v.data());
}
uintptr_t addr(const void* p) { return reinterpret_cast<uintptr_t>(p); }

}  // namespace

TEST_CASE("jit scratch: vectors take the thread's block only inside a scope") {
  on_new_thread([] {
    ScratchVec<int> outside(100, 7);
    CHECK(scratch::block_bytes() == 0);  // (no scope yet: no block)
    CHECK(!scratch::in_block(outside.data()));
    uintptr_t at;
    {
      ScratchScope s;
      ScratchVec<int> a(100, 1);
      ScratchVec<uint8_t> b(50, 2);
      CHECK(scratch::in_block(a.data()));
      CHECK(scratch::in_block(b.data()));
      CHECK(static_cast<const void*>(b.data()) != static_cast<const void*>(a.data()));
      CHECK(reinterpret_cast<uintptr_t>(b.data()) % 16 == 0);
      at = addr(a.data());
      a.resize(10000, 3);  // (grows: its old block given back, the values kept)
      CHECK(a[99] == 1);
      CHECK(a[9999] == 3);
      CHECK(b[49] == 2);
    }
    CHECK(outside[99] == 7);
    CHECK(first_taken() == at);  // the next compile takes the same memory again
    CHECK(first_taken() == at);
  });
}

TEST_CASE("jit scratch: a vector that outlives its scope keeps its memory") {
  on_new_thread([] {
    ScratchVec<int> kept;
    uintptr_t start = first_taken();
    {
      ScratchScope s;
      ScratchVec<int> v(64, 5);
      kept = std::move(v);  // (out of the scope, still the block's)
    }
    CHECK(scratch::in_block(kept.data()));
    {
      ScratchScope s;
      ScratchVec<int> w(64, 9);  // after it, not over it
      CHECK(w.data() != kept.data());
      CHECK(kept[63] == 5);
    }
    kept = ScratchVec<int>();
    CHECK(first_taken() == start);  // rewound once nothing of it is held
  });
}

TEST_CASE("jit scratch: past the block's end, the heap") {
  on_new_thread([] {
    ScratchScope s;
    ScratchVec<char> big(scratch::block_bytes() + 1);
    CHECK(!scratch::in_block(big.data()));
    ScratchVec<int> small(4);
    CHECK(scratch::in_block(small.data()));
  });
}

TEST_CASE("jit scratch: compile_trace's vectors come from the block and are all given back") {
  on_new_thread([] {
    Trace t = optimized(counted(kAxpy));
    t.allow_lanes = host_has_avx2();
    CHECK(scratch::block_bytes() == 0);
    asmjit::JitRuntime rt;
    Compiled c;
    REQUIRE(compile_trace(t, rt, c) == "");
    rt.release(c.fn);
    REQUIRE(scratch::block_bytes() > 0);  // the compile made the thread's block
    uintptr_t start = first_taken();
    {
      ScratchScope s;
      RefFlags f(8);
      CHECK(addr(f.data()) == start);
    }
    Compiled again;
    REQUIRE(compile_trace(t, rt, again) == "");
    rt.release(again.fn);
    CHECK(first_taken() == start);  // nothing of it held after the compile
  });
}
