// Float constants in registers through a scalar loop (Gen::kregs, asm.h).
// Operands that are constants read the pool, RIP-relative: in a loop that
// is a load per use per iteration beside the loop's own loads and stores.
// sparse_particles' step has five (0.098, 0.01, the sign mask twice, 0 of
// the compare): with them the loop ran ~1.7x the time of the same
// instructions reading registers (both written as inline assembly in C++,
// CPU time best of 3), as the loop's stores stream through memory.
#include <asmjit/x86.h>

#include "jit/asm.h"
#include "jit/backend.h"
#include "jit/trace.h"

namespace kiln::jit {

using namespace asmjit;
using bc::CT;

// The constants the loop's float operations read from the pool (as
// asm_ops.cpp would: a binop's or compare's operand, an fma's, a select's
// compare, a neg's or abs's sign mask), each given a free xmm register
// while there is one.
void Gen::plan_kregs() {
  kregs.clear();
  bool used[kNumXmm] = {};
  for (Ref v = 0; v < (Ref)t.ins.size(); v++)
    if (in_xmm(v)) used[al.reg[v]] = true;
  int next = 0;
  // xmm16-31 only where the trace's code is already EVEX-safe (Gen::evex:
  // its selects blend under k7), and the allocator had them (nxmm).
  const int limit = evex ? nxmm : kNumXmmVex;
  auto want = [&](uint64_t bits) {
    for (auto& [b, x] : kregs)
      if (b == bits) return;
    while (next < limit && used[next]) next++;
    if (next < limit) kregs.push_back({bits, x86::xmm(kFirstXmm + next++)});
  };
  auto operand = [&](Ref r) {
    if (r >= 0 && r < (Ref)negfold.size() && negfold[r]) r = t.ins[r].a;  // (fma reads a folded neg's operand)
    if (r >= 0 && t.is_const(r)) want((uint64_t)t.ins[r].k);
  };
  for (Ref i = t.loop_ref + 1; i < (Ref)t.ins.size(); i++) {
    const Ins& in = t.ins[i];
    if (!in.live || sunk[i]) continue;
    switch (in.op) {
      case IrOp::add: case IrOp::sub: case IrOp::mul: case IrOp::div:
        if (is_float(in.t)) operand(in.b), operand(in.a);
        break;
      case IrOp::lt: case IrOp::le: case IrOp::eq: case IrOp::ne:
        if (is_float(in.t) && fused[i]) operand(in.a), operand(in.b);
        break;
      case IrOp::fma: operand(in.a), operand(in.b), operand(in.c); break;
      case IrOp::neg: case IrOp::abs:
        if (is_float(in.t) && host_has_avx2() && (in_xmm(i) || in_xmm(in.a))) {
          uint64_t sign = in.t == CT::f32 ? 0x80000000ull : 0x8000000000000000ull;
          want(in.op == IrOp::neg ? sign : ~sign & (in.t == CT::f32 ? 0xffffffffull : ~0ull));
        }
        break;
      default: break;
    }
  }
}

// Each register as its pool entry's 16 bytes (vxorps reads all of them;
// the scalar operations read the low 4 or 8): at the loop's entry, and
// after a call in or beside the loop (every xmm register is caller-saved).
void Gen::load_kregs() {
  for (auto& [bits, x] : kregs) host_has_avx2() ? a.vmovups(x, kbits(bits, CT::u64)) : a.movups(x, kbits(bits, CT::u64));
}

}  // namespace kiln::jit
