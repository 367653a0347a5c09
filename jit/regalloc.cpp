// Linear-scan register allocation (regalloc.h).
#include "jit/regalloc.h"

#include <algorithm>

namespace kiln::jit {

namespace {
bool has_value(const Ins& in) {
  switch (in.op) {
    case IrOp::kval: case IrOp::store: case IrOp::guard_nz: case IrOp::guard_z: case IrOp::guard_ult:
    case IrOp::loop: case IrOp::phi:
      return false;
    default: return true;
  }
}
}  // namespace

std::vector<int8_t> allocate_registers(const Trace& t) {
  const Ref n = (Ref)t.ins.size();
  std::vector<Ref> last(n, -1);
  auto use = [&](Ref v, Ref at) {
    if (v >= 0) last[v] = std::max(last[v], at);
  };
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    if (!in.live) continue;
    use(in.a, i);
    use(in.b, i);
    use(in.c, i);
    if (in.snap >= 0)
      for (auto& [r, v] : t.snaps[in.snap].regs) use(v, i);
  }
  if (t.loop_ref >= 0)
    for (Ref v = 0; v < t.loop_ref; v++)
      if (last[v] > t.loop_ref) last[v] = n;  // read by every iteration

  std::vector<int8_t> reg(n, -1);
  Ref busy_until[kNumAllocatable];
  std::fill(std::begin(busy_until), std::end(busy_until), -1);
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    if (!in.live || !has_value(in) || last[i] < 0) continue;
    // A register whose value is last read by this instruction is free for
    // its result: the backend reads operands before it writes the result.
    for (int r = 0; r < kNumAllocatable; r++)
      if (busy_until[r] <= i) {
        reg[i] = (int8_t)r;
        busy_until[r] = last[i] == i ? i + 1 : last[i];
        break;
      }
  }
  return reg;
}

}  // namespace kiln::jit
