// Linear-scan register allocation (regalloc.h).
#include "jit/regalloc.h"

#include <algorithm>

#include "jit/sink.h"
#include "vm/types/type.h"

namespace kiln::jit {

using bc::CT;

namespace {
bool has_value(const Ins& in) {
  switch (in.op) {
    case IrOp::kval: case IrOp::store: case IrOp::guard_nz: case IrOp::guard_z: case IrOp::guard_ult:
    case IrOp::loop: case IrOp::phi:
      return false;
    default: return (kIrOps[(int)in.op].flags & G) == 0;
  }
}
int ct_width(CT t) { return t == CT::f32 ? 4 : t == CT::f64 ? 8 : 0; }
}  // namespace

int float_width(const Ins& in) {
  switch (in.op) {
    case IrOp::add: case IrOp::sub: case IrOp::mul: case IrOp::div: case IrOp::max: case IrOp::min:
    case IrOp::neg: case IrOp::abs: case IrOp::sqrt: case IrOp::fma:
      return ct_width(in.t);
    case IrOp::load: return in.k == (int64_t)Prim::f32 ? 4 : in.k == (int64_t)Prim::f64 ? 8 : 0;
    case IrOp::conv:
      switch ((bc::Op)in.k) {
        case bc::Op::i64_f32: case bc::Op::u64_f32: case bc::Op::f64_f32: return 4;
        case bc::Op::i64_f64: case bc::Op::u64_f64: case bc::Op::f32_f64: return 8;
        default: return 0;
      }
    default: return 0;
  }
}

int select_width(const Trace& t, const Ins& in) {
  if (in.op != IrOp::sel || in.b < 0 || in.c < 0) return 0;
  int w = float_width(t.ins[in.b]);
  return w && w == float_width(t.ins[in.c]) ? w : 0;
}

Allocation allocate_registers(const Trace& t, const RefFlags& remat, const RefFlags& sunk, int nxmm, int ngp,
                              const SnapshotNeeds* needs) {
  const Ref n = (Ref)t.ins.size();
  SnapshotNeeds own;
  if (!needs) needs = &(own = SnapshotNeeds(t, remat));
  Allocation out;
  out.last.assign(ref_slots(t), -1);
  out.fw.assign(ref_slots(t), 0);
  auto& last = out.last;
  // A folded neg or address (sink.h) is read as its operand, where its fma
  // or its load/store reads it. (A sunk add the exits recompute counts too:
  // its operand only lives longer.) kNoRef when v is not folded.
  // (found once per value: each is read at every use)
  ScratchVec<Ref> fold(n, kNoRef);
  for (Ref v = 0; v < n && v < (Ref)sunk.size(); v++) {
    if (!sunk[v]) continue;
    const Ins& f = t.ins[v];
    if (f.op == IrOp::neg && float_width(f)) fold[v] = f.a;
    else if (Ref x = index_scale(t, f).first; x >= 0) fold[v] = x;  // (SinkPlan::scalefold: its adds read x)
    else if (f.op == IrOp::add && (f.t == bc::CT::i64 || f.t == bc::CT::u64) && (t.is_const(f.a) || t.is_const(f.b)))
      fold[v] = folded_address(t, v).first;
  }
  auto folded_operand = [&](Ref v) { return fold[v]; };
  // A fused compare (remat, not sunk) is made again where it is read (its
  // guard, or a float select's mask): its operands live until there.
  auto fused = [&](Ref v) { return v < (Ref)remat.size() && remat[v] && !(v < (Ref)sunk.size() && sunk[v]); };
  // What a register saves a value: each read by an operation (not an
  // exit's), and its definition, is a stack access less; the loop's body
  // runs every iteration, the code before it once.
  ScratchVec<float> worth(n, 0.0f);
  auto weight = [&](Ref at) { return t.loop_ref >= 0 && at > t.loop_ref ? 16.0f : 1.0f; };
  // `w`: the read's worth (0 for an exit's).
  auto use = [&](Ref v, Ref at, float w = 0.0f) {
    if (v < 0) return;
    last[v] = std::max(last[v], at);
    worth[v] += w;
    if (Ref o = folded_operand(v); o >= 0) {
      last[o] = std::max(last[o], at);
      worth[o] += w;
    }
    if (fused(v))
      for (Ref o : {t.ins[v].a, t.ins[v].b})
        if (o >= 0) {
          last[o] = std::max(last[o], at);
          worth[o] += w;
        }
  };
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    out.fw[i] = (uint8_t)(in.op == IrOp::sel ? select_width(t, in) : float_width(in));
    if (!in.live) continue;
    if (i >= (Ref)sunk.size() || !sunk[i]) {
      float w = weight(i);
      worth[i] += w;
      use(in.a, i, w);
      use(in.b, i, w);
      use(in.c, i, w);
    }
    if (in.snap >= 0)
      for (Ref v : (*needs)[in.snap]) use(v, i);
  }
  // A value read from the frame or the arguments has no type of its own:
  // it lives in an xmm register when a float operation reads it.
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    int w = ct_width(in.t);
    bool float_reader = w && in.live && (float_width(in) || in.op == IrOp::lt || in.op == IrOp::le ||
                                         in.op == IrOp::eq || in.op == IrOp::ne);
    if (!float_reader) continue;
    for (Ref r : {in.a, in.b, in.op == IrOp::fma ? in.c : kNoRef})
      if (r >= 0 && out.fw[r] == 0 &&
          (t.ins[r].op == IrOp::sload || t.ins[r].op == IrOp::rload || t.ins[r].op == IrOp::arg))
        out.fw[r] = (uint8_t)w;
  }
  // A select of selects between floats, or of a float and a frame value
  // that float operations read (if-converted `if live: x = f(x)`, a while
  // loop run in lockstep: vm/ir/passes/jam_while.cpp), is a float too: in
  // a general register each was two vmovd and a cmov, and four copies' x and
  // y spilled the general registers.
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    if (in.op == IrOp::sel && !out.fw[i] && in.b >= 0 && in.c >= 0 && out.fw[in.b] && out.fw[in.b] == out.fw[in.c])
      out.fw[i] = out.fw[in.b];
  }
  if (t.loop_ref >= 0)
    for (Ref v = 0; v < t.loop_ref; v++)
      if (last[v] > t.loop_ref) last[v] = n;  // read by every iteration
  if (t.loop_snap >= 0)  // the back edge's exit reads these too
    for (Ref v : (*needs)[t.loop_snap]) last[v] = std::max(last[v], n);

  // A phi's body value may take its slot's register when the iteration has
  // read the slot for the last time by then (operands, exits): the back
  // edge's move then disappears (an accumulator stays in one register).
  ScratchVec<Ref> coalesce(n, kNoRef);  // body value -> its phi slot
  if (t.loop_ref >= 0) {
    ScratchVec<Ref> body_read(n, kNoRef);  // per slot: its last read after `loop`
    for (Ref i = t.loop_ref + 1; i < n; i++) {
      const Ins& in = t.ins[i];
      if (!in.live || in.op == IrOp::phi) continue;
      auto read = [&](Ref v) {
        if (v >= 0 && v < t.loop_ref) body_read[v] = i;
        if (Ref o = v >= 0 ? folded_operand(v) : kNoRef; o >= 0 && o < t.loop_ref) body_read[o] = i;
      };
      if (i >= (Ref)sunk.size() || !sunk[i]) {
        read(in.a);
        read(in.b);
        read(in.c);
      }
      if (in.snap >= 0)
        for (Ref v : (*needs)[in.snap]) read(v);
    }
    for (const Ins& in : t.ins)  // a slot another phi copies is read at the back edge itself
      if (in.live && in.op == IrOp::phi && in.b >= 0 && in.b < t.loop_ref) body_read[in.b] = n;
    for (const Ins& in : t.ins)
      if (in.live && in.op == IrOp::phi && in.b > t.loop_ref && (body_read[in.a] == kNoRef || body_read[in.a] <= in.b) &&
          coalesce[in.b] == kNoRef)
        coalesce[in.b] = in.a;
  }

  out.reg.assign(ref_slots(t), -1);
  Ref busy_gp[kNumGp], busy_x[kNumXmm];  // per register: the first position it is free
  Ref owner_gp[kNumGp], owner_x[kNumXmm];
  std::fill(std::begin(busy_gp), std::end(busy_gp), -1);
  std::fill(std::begin(busy_x), std::end(busy_x), -1);
  ScratchVec<uint8_t> pinned(n, 0);  // a phi slot and the body value sharing its register
  // Worth per position held: a value that holds its register long for few
  // reads gives way to one that holds it briefly for many (an address
  // made and read at once, beside a loop-long invariant read once an
  // iteration).
  auto density = [&](Ref v) { return worth[v] / (float)(std::max(last[v], v) - v + 1); };
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    if (!in.live || !has_value(in) || last[i] < 0 || (i < (Ref)remat.size() && remat[i])) continue;
    Ref* busy = out.fw[i] ? busy_x : busy_gp;
    Ref* owner = out.fw[i] ? owner_x : owner_gp;
    int nregs = out.fw[i] ? nxmm : ngp;
    if (Ref slot = coalesce[i]; slot != kNoRef && out.reg[slot] >= 0 && !out.fw[slot] == !out.fw[i]) {
      out.reg[i] = out.reg[slot];  // (the slot keeps it busy to the end)
      pinned[i] = pinned[slot] = 1;
      continue;
    }
    // A register whose value is last read by this instruction is free for
    // its result: the backend reads operands before it writes the result.
    int pick = -1;
    for (int r = 0; r < nregs && pick < 0; r++)
      if (busy[r] <= i) pick = r;
    // None free: the value worth least per position gives its register up
    // and lives in its slot from its definition on. No code exists yet, so
    // nothing moves; each value still has one home for its whole life.
    if (pick < 0) {
      float least = density(i);
      for (int r = 0; r < nregs; r++)
        if (!pinned[owner[r]] && density(owner[r]) < least) {
          least = density(owner[r]);
          pick = r;
        }
      if (pick < 0) continue;
      out.reg[owner[pick]] = -1;
    }
    out.reg[i] = (int8_t)pick;
    owner[pick] = i;
    busy[pick] = last[i] == i ? i + 1 : last[i];
  }
  return out;
}

}  // namespace kiln::jit
