// The trace IR as text: one instruction a line ("0007 i32 add 0003 0005"),
// dead instructions marked, each guard followed by its snapshot.
#include <cstdio>

#include "jit/trace.h"
#include "vm/types/type.h"

namespace kiln::jit {

namespace {
const char* kCT[] = {"i32", "u32", "i64", "u64", "f32", "f64"};

std::string ref_text(const Trace& t, Ref r) {
  if (r == kNoRef) return "";
  char buf[48];
  if (t.is_const(r)) std::snprintf(buf, sizeof buf, " #%lld", (long long)t.ins[r].k);
  else std::snprintf(buf, sizeof buf, " %04d", r);
  return buf;
}
}  // namespace

std::string dump_trace(const Trace& t) {
  std::string out = "---- trace " + t.fn_name + " @" + std::to_string(t.head_pc) + "\n";
  char buf[96];
  for (Ref i = 0; i < (Ref)t.ins.size(); i++) {
    const Ins& in = t.ins[i];
    if (in.op == IrOp::kval) continue;  // constants print inline
    bool typed = (kIrOps[(int)in.op].flags & P) && in.op != IrOp::sload && in.op != IrOp::load &&
                 in.op != IrOp::arg && in.op != IrOp::base && in.op != IrOp::gtemp && in.op != IrOp::faddr && in.op != IrOp::conv &&
                 in.op != IrOp::sel;
    std::snprintf(buf, sizeof buf, "%04d %c %-3s %-9s", i, in.live ? ' ' : '>', typed ? kCT[(int)in.t] : "",
                  kIrOps[(int)in.op].name);
    out += buf;
    out += ref_text(t, in.a) + ref_text(t, in.b) + ref_text(t, in.c);
    switch (in.op) {
      case IrOp::sload: case IrOp::rload: out += " r" + std::to_string(in.k); break;
      case IrOp::arg: case IrOp::base: case IrOp::gtemp: case IrOp::faddr: out += " [" + std::to_string(in.k) + "]"; break;
      case IrOp::conv: out += std::string(" ") + bc::op_name((bc::Op)in.k); break;
      case IrOp::load: case IrOp::store: out += " " + std::string(prim_name((Prim)in.k)); break;
      case IrOp::atomic:
        out += " " + std::string(prim_name(atomic_prim(in.k))) + " aop" + std::to_string(atomic_aop(in.k)) +
               (in.k & kLengthAtomic ? " length" : "");
        break;
      default: break;
    }
    if (in.snap >= 0) {
      const Snapshot& s = t.snaps[in.snap];
      if (in.op == IrOp::calltr) out += "   flush {";
      else if (s.pc_ref >= 0) out += "   -> pc" + ref_text(t, s.pc_ref) + " {";
      else out += "   -> pc " + std::to_string(s.pc) + " {";
      for (size_t j = 0; j < s.regs.size(); j++)
        out += (j ? " r" : "r") + std::to_string(s.regs[j].first) + "=" + ref_text(t, s.regs[j].second).substr(1);
      out += "}";
    }
    out += "\n";
  }
  return out;
}

}  // namespace kiln::jit
