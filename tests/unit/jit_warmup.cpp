// The engine's warm-up traces (jit/warmup.h) still compile as they are
// meant to: the first in lanes where the host has them, the second as a
// scalar loop. A change to the trace text format or the planner that made
// them fail would leave the warm-up running less of the compiler, silently.
#include <doctest/doctest.h>

#include <asmjit/x86.h>

#include "jit/backend.h"
#include "jit/warmup.h"

using namespace kiln::jit;

TEST_CASE("jit warmup: both traces compile, the first in lanes") {
  asmjit::JitRuntime rt;
  CHECK(warm_compile_path(rt, false, false) == 2);
  if (host_has_avx2()) CHECK(warm_compile_path(rt, true, false) == 2);
  if (host_has_avx2() && host_has_avx512()) CHECK(warm_compile_path(rt, true, true) == 2);
}
