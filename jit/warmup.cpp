// The compile path run once when the engine is made (warmup.h).
#include "jit/warmup.h"

#include <memory>
#include <string>

#include "jit/backend.h"
#include "jit/opt.h"
#include "jit/parse.h"
#include "jit/recorder.h"

namespace kiln::jit {

namespace {

// for i in range(r0, r1): y[i] = x[i] * 3 + 1 (f32, x at arg 0, y 4 KiB
// after it): a loop the planner puts in lanes.
const char* const kLanes = R"(
    i = sload r0
    a = arg 0
    off = mul i64 i #4
    xa = add i64 a off
    x = load xa f32
    m = mul f32 x #0x40400000
    v = add f32 m #0x3f800000
    yb = add i64 a #4096
    ya = add i64 yb off
    store ya v f32
    n = add i32 i #1
    hi = sload r1
    c = lt i32 n hi
    guard_nz c -> 99 { r0=n }
    end r0=n
)";

// for i in range(r0, r1): s = s * 3 + x[i] (i64, s in r2): a carried value
// that is no fold, so the scalar loop with its guards and exits.
const char* const kScalar = R"(
    i = sload r0
    a = arg 0
    s = sload r2
    off = mul i64 i #8
    xa = add i64 a off
    x = load xa i64
    m = mul i64 s #3
    w = add i64 m x
    n = add i32 i #1
    hi = sload r1
    c = lt i32 n hi
    guard_nz c -> 99 { r0=n r2=w }
    end r0=n r2=w
)";

// Compiled as the engine compiles a root trace (and in lanes, where the
// host allows them and the text is kLanes: else it would not warm the
// vector path).
bool compile_once(const char* text, asmjit::JitRuntime& rt, bool lanes, bool zmm, bool want_lanes) {
  Trace t;
  Emitter e(t);
  ParsedTrace p = parse_trace(text, t, e);
  if (!p.error.empty() || !peel(t, e, p.end_regs)) return false;
  dce(t);
  t.allow_lanes = lanes;
  t.allow_zmm = zmm;
  std::unique_ptr<ExitInfo[]> exits(new ExitInfo[t.snaps.size()]);
  Compiled c;
  if (!compile_trace(t, rt, c, false, exits.get()).empty()) return false;
  rt.release(c.fn);
  return !want_lanes || (!c.lanes.empty() && c.lanes.rfind("scalar", 0) != 0);  // ("8 lanes", "16 lanes (zmm)")
}

}  // namespace

int warm_compile_path(asmjit::JitRuntime& rt, bool lanes, bool zmm) {
  int n = 0;
  try {
    n += compile_once(kLanes, rt, lanes, zmm, lanes);
    n += compile_once(kScalar, rt, lanes, zmm, false);
  } catch (const std::exception&) {
    // (a compiler bug shows in the program's own traces, with its message)
  }
  return n;
}

}  // namespace kiln::jit
