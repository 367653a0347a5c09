// Trace IR written as text, for tests of the optimizer: each line is one
// instruction, emitted through the Emitter (so folding and CSE apply as they
// do when recording), e.g.
//   i = sload r0
//   a = arg 0
//   x = mul f32 a #0x40000000
//   guard_ult i #100 -> 5 { }
//   n = add i32 i #1
//   end r0=n r3=x
// Values are named; `#k` is a constant (decimal or 0x hex bits); a typed op
// names its type after the op; sload/rload take `rN`, arg/base/gtemp a
// number, load/store a storage type (load i a f32 / store a v f32); a guard
// ends with `-> PC { rN=name ... }`. The `end` line gives the registers'
// values at the end of the iteration (what peel() needs).
#pragma once
#include <string>
#include <vector>

#include "jit/opt.h"
#include "jit/trace.h"

namespace kiln::jit {

struct ParsedTrace {
  std::vector<Ref> end_regs;  // register -> value at the end of the iteration
  std::string error;          // "" when the text parsed
};

// Emits the text's instructions into t through e.
ParsedTrace parse_trace(const std::string& text, Trace& t, Emitter& e, size_t num_regs = 16);

}  // namespace kiln::jit
