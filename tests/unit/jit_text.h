// Shared by the optimizer tests that write traces as text (jit/parse.h).
#pragma once
#include <doctest/doctest.h>

#include <string>

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

}  // namespace kiln::jit::test
