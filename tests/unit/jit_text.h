// Shared by the optimizer tests that write traces as text (jit/parse.h).
#pragma once
#include <asmjit/x86.h>
#include <doctest/doctest.h>

#include <string>

#include "jit/backend.h"
#include "jit/opt.h"
#include "jit/parse.h"

namespace kiln::jit::test {

// The text parsed, peeled and cleaned by DCE, as the recorder finishes a trace.
inline Trace optimized(const std::string& text) {
  Trace t;
  Emitter e(t);
  ParsedTrace p = parse_trace(text, t, e);
  REQUIRE(p.error == "");
  peel(t, e, p.end_regs);
  dce(t);
  return t;
}

// The live ops after `loop`, in order.
inline std::string loop_ops(const Trace& t) {
  std::string s;
  for (Ref i = t.loop_ref + 1; i < (Ref)t.ins.size(); i++)
    if (t.ins[i].live && t.ins[i].op != IrOp::kval) s += std::string(kIrOps[(int)t.ins[i].op].name) + " ";
  return s;
}

// `body` inside for i in range(r0, r1) (i = sload r0, a = arg 0 the array).
inline std::string counted(const std::string& body) {
  return "i = sload r0\n a = arg 0\n" + body + R"(
    n = add i32 i #1
    hi = sload r1
    c = lt i32 n hi
    guard_nz c -> 99 { r0=n }
    end r0=n
  )";
}

// The text traced, optimized and compiled with vector loops allowed.
inline Compiled compile_lanes(const std::string& text) {
  static asmjit::JitRuntime rt;
  Trace t;
  Emitter e(t);
  ParsedTrace p = parse_trace(text, t, e);
  REQUIRE(p.error == "");
  REQUIRE(peel(t, e, p.end_regs));
  dce(t);
  t.allow_lanes = true;
  Compiled c;
  REQUIRE(compile_trace(t, rt, c, true) == "");
  return c;
}

}  // namespace kiln::jit::test
