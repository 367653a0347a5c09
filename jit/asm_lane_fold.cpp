// A fold's lanes (vector.h, VecPlan::Fold; lane_body.h): each lane folds
// its own iterations' terms into its accumulator, and the lanes fold
// together when the vector loop ends. Integer folds wrap (add, sub, mul,
// and, or, xor) or pick (max, min), so any order gives the scalar loop's
// bits; float max/min are maximumNumber/minimumNumber, whose result does
// not depend on the order either (vector.h says why, NaNs included).
#include "jit/backend.h"
#include "jit/lane_body.h"

namespace kiln::jit {

using namespace asmjit;
using bc::CT;

namespace {
bool fold_float(CT t) { return t == CT::f32 || t == CT::f64; }
bool fold_signed(CT t) { return t == CT::i32 || t == CT::i64; }
}  // namespace

// max, min, and, or: every lane starts at the slot's value (each is
// idempotent, and a float fold whose steps all read the slot first must
// return the slot's own NaN when every term is one); add and xor at 0, mul
// at 1.
void LaneBody::fold_init(Ref slot, int32_t from) const {
  const VecPlan::Fold& f = p.folds.at(slot);
  x86::Vec acc = ymm(r.ymm.at(slot));
  if (f.ordered) {  // the scalar sum itself, in lane 0
    f.t == CT::f32 ? a.vmovss(acc.xmm(), x86::dword_ptr(x86::rsp, from)) : a.vmovsd(acc.xmm(), x86::qword_ptr(x86::rsp, from));
    return;
  }
  switch (f.op) {
    case IrOp::add: case IrOp::bxor:
      a.vpxor(acc.ymm(), acc.ymm(), acc.ymm());  // (zeroes a zmm too)
      if (auto h = r.fold_hi.find(slot); h != r.fold_hi.end()) a.vpxor(x86::ymm(h->second), x86::ymm(h->second), x86::ymm(h->second));
      break;
    case IrOp::mul:
      a.mov(x86::dword_ptr(x86::rsp, t_mask), 1);
      a.vpbroadcastd(acc, x86::dword_ptr(x86::rsp, t_mask));
      break;
    default:
      es == 8 ? a.vpbroadcastq(acc, x86::qword_ptr(x86::rsp, from)) : a.vpbroadcastd(acc, x86::dword_ptr(x86::rsp, from));
      break;
  }
}

// acc = acc op term (float max/min: in the step's operand order), or under
// a mask only in the lanes it selects: k1 in zmm; in ymm the new lanes are
// blended in (an add's or sub's term is cleared instead).
void LaneBody::fold_step(const VecPlan::Step& st, bool masked) const {
  const VecPlan::Fold& f = p.folds.at(st.slot);
  x86::Vec acc = ymm(r.ymm.at(st.slot)), x = y_of(st.term);
  const bool q = es == 8, sg = fold_signed(f.t);
  auto op = [&](IrOp o, x86::Vec d, x86::Vec u, x86::Vec v) {  // integer lanes: d = u o v
    if (masked && wide) a.k(x86::k1);  // (merging: the other lanes keep d's)
    switch (o) {
      case IrOp::add: q ? a.vpaddq(d, u, v) : a.vpaddd(d, u, v); break;
      case IrOp::sub: q ? a.vpsubq(d, u, v) : a.vpsubd(d, u, v); break;
      case IrOp::mul: a.vpmulld(d, u, v); break;
      case IrOp::band: wide ? a.vpandd(d, u, v) : a.vpand(d, u, v); break;
      case IrOp::bor: wide ? a.vpord(d, u, v) : a.vpor(d, u, v); break;
      case IrOp::bxor: wide ? a.vpxord(d, u, v) : a.vpxor(d, u, v); break;
      case IrOp::max:  // (64-bit: AVX-512's vpmaxsq/vpmaxuq, on ymm with VL)
        q ? (sg ? a.vpmaxsq(d, u, v) : a.vpmaxuq(d, u, v)) : (sg ? a.vpmaxsd(d, u, v) : a.vpmaxud(d, u, v));
        break;
      case IrOp::min:
        q ? (sg ? a.vpminsq(d, u, v) : a.vpminuq(d, u, v)) : (sg ? a.vpminsd(d, u, v) : a.vpminud(d, u, v));
        break;
      default: break;
    }
  };
  if (f.ordered) {
    ordered_step(st, masked);
    return;
  }
  if (st.cond != kNoRef) {  // a conditional add: its term where the sel takes the add, else 0
    x86::Vec s = ymm(r.scratch);
    a.vpcmpeqd(s, y_of(st.cond), ymm(r.zero));  // lanes where cond == 0
    st.when_zero ? a.vpand(s, s, x) : a.vpandn(s, s, x);
    if (masked) a.vpand(s, s, ymm(r.tail));
    if (!st.widen) {
      op(st.op, acc, acc, s);
      return;
    }
    x = s;
  } else if (st.widen && masked) {  // lanes past the end add nothing
    a.vpand(ymm(r.scratch), x, ymm(r.tail));
    x = ymm(r.scratch);
  }
  if (st.widen) {  // an i64 sum's 8 terms as 4 + 4 i64 (ymm lanes only: wide_lanes)
    x86::Ymm w = x86::ymm(r.fold_t), hi = x86::ymm(r.fold_hi.at(st.slot));
    auto widen = [&](x86::Xmm from) { st.widen == 's' ? a.vpmovsxdq(w, from) : a.vpmovzxdq(w, from); };
    widen(x.xmm());
    st.op == IrOp::sub ? a.vpsubq(acc.ymm(), acc.ymm(), w) : a.vpaddq(acc.ymm(), acc.ymm(), w);
    a.vextracti128(w.xmm(), x.ymm(), 1);
    widen(w.xmm());
    st.op == IrOp::sub ? a.vpsubq(hi, hi, w) : a.vpaddq(hi, hi, w);
    return;
  }
  if (fold_float(f.t)) {  // (ymm only: wide_lanes)
    x86::Vec d = ymm(r.fold_t);
    lane_maxmin(a, f.t == CT::f32, st.op == IrOp::max, d, st.term_first ? x : acc, st.term_first ? acc : x, ymm(r.scratch));
    masked ? a.vblendvps(acc, acc, d, ymm(r.tail)) : a.vmovaps(acc, d);
    return;
  }
  if (!masked || wide) {
    op(st.op, acc, acc, x);
  } else if (st.op == IrOp::add || st.op == IrOp::sub) {  // lanes past the end add nothing
    a.vpand(ymm(r.scratch), x, ymm(r.tail));
    op(st.op, acc, acc, ymm(r.scratch));
  } else {
    op(st.op, ymm(r.fold_t), acc, x);
    a.vblendvps(acc, acc, ymm(r.fold_t), ymm(r.tail));
  }
}

// An ordered float sum's step (vector.h): the terms of the lanes a condition
// or the loop's end leaves out become the identity (-0.0 for an add, +0.0
// for a sub), then lane 0, 1, ... are added to the scalar in lane 0 of the
// accumulator, each in the scalar op's operand order (which NaN comes out).
void LaneBody::ordered_step(const VecPlan::Step& st, bool masked) const {
  const bool f32 = p.folds.at(st.slot).t == CT::f32;
  x86::Xmm acc = ymm(r.ymm.at(st.slot)).xmm();
  x86::Ymm X = y_of(st.term).ymm(), S = x86::ymm(r.scratch), T = x86::ymm(r.fold_t);
  if (st.cond != kNoRef || masked) {  // S = the term where kept, else the identity
    bool ones = false;  // (T: all ones already)
    if (st.cond != kNoRef) {  // (f32 lanes: the planner takes conditional adds there only)
      a.vpcmpeqd(S, y_of(st.cond).ymm(), ymm(r.zero).ymm());  // lanes where cond == 0
      if (!st.when_zero) {
        a.vpcmpeqd(T, T, T);
        a.vpxor(S, S, T);
        ones = true;
      }
      if (masked) a.vpand(S, S, ymm(r.tail).ymm());
    } else {
      a.vmovaps(S, ymm(r.tail).ymm());
    }
    if (!ones) a.vpcmpeqd(T, T, T);
    if (st.op == IrOp::sub) a.vpxor(T, T, T);  // +0.0
    else f32 ? a.vpslld(T, T, 31) : a.vpsllq(T, T, 63);  // -0.0
    f32 ? a.vblendvps(S, T, X, S) : a.vblendvpd(S, T, X, S);
    X = S;
  }
  if (st.op == IrOp::fma) {  // fma(a_k, b_k, acc), k = 0, 1, ... (unmasked: vector.h)
    x86::Ymm B = y_of(st.term2).ymm();
    x86::Xmm s = S.xmm(), t = T.xmm();
    auto fma = [&](x86::Xmm u, x86::Xmm v) { f32 ? a.vfmadd231ss(acc, u, v) : a.vfmadd231sd(acc, u, v); };
    fma(X.xmm(), B.xmm());
    const int n = f32 ? 4 : 2;  // lanes a 128-bit half
    for (int k = 1; k < n; k++) {
      f32 ? a.vpermilps(s, X.xmm(), k) : a.vpermilpd(s, X.xmm(), 1);
      f32 ? a.vpermilps(t, B.xmm(), k) : a.vpermilpd(t, B.xmm(), 1);
      fma(s, t);
    }
    a.vextractf128(s, X, 1);
    a.vextractf128(t, B, 1);
    fma(s, t);
    for (int k = 1; k < n; k++) {  // the high half rotated down one lane at a time
      f32 ? a.vpermilps(s, s, 0x39) : a.vpermilpd(s, s, 1);
      f32 ? a.vpermilps(t, t, 0x39) : a.vpermilpd(t, t, 1);
      fma(s, t);
    }
    return;
  }
  auto fold = [&](x86::Xmm v) {  // acc = acc op v, in the scalar op's operand order
    if (st.op == IrOp::sub) f32 ? a.vsubss(acc, acc, v) : a.vsubsd(acc, acc, v);
    else if (st.term_first) f32 ? a.vaddss(acc, v, acc) : a.vaddsd(acc, v, acc);
    else f32 ? a.vaddss(acc, acc, v) : a.vaddsd(acc, acc, v);
  };
  x86::Xmm t = T.xmm(), h = S.xmm();
  for (int half = 0; half < 2; half++) {  // lanes 0-3 (f64: 0-1), then the high half's
    x86::Xmm v = half ? h : X.xmm();
    if (half) a.vextractf128(h, X, 1);  // (S is the term's copy or free)
    fold(v);
    if (f32) {
      a.vmovshdup(t, v);
      fold(t);
      a.vmovhlps(t, t, v);
      fold(t);
      a.vpermilps(t, v, 3);
      fold(t);
    } else {
      a.vpermilpd(t, v, 1);
      fold(t);
    }
  }
}

// Lane k of V into lane 0 of `to` (f32: 8 lanes, f64: 4). On AVX-512 hosts
// every form is EVEX (the terms may live in ymm16-31: vector_regs.cpp) and
// a lane of the high half is one valign; else an extract and a permute.
static void lane_to_0(x86::Assembler& a, bool f32, bool evex, x86::Xmm to, x86::Ymm V, int k) {
  const int half = f32 ? 4 : 2;  // lanes a 128-bit half
  if (k < half) {
    f32 ? a.vpermilps(to, V.xmm(), k) : a.vpermilpd(to, V.xmm(), 1);
    return;
  }
  if (k > half && evex) {
    f32 ? a.valignd(to.ymm(), V, V, k) : a.valignq(to.ymm(), V, V, k);
    return;
  }
  evex ? a.vextractf32x4(to, V, 1) : a.vextractf128(to, V, 1);
  if (k > half) f32 ? a.vpermilps(to, to, k - half) : a.vpermilpd(to, to, 1);
}

// acc = acc op x in the scalar op's operand order (an fma: fma(x, b, acc),
// b a register or a memory operand).
static void fold_lane(x86::Assembler& a, bool f32, const VecPlan::Step& st, x86::Xmm acc, x86::Xmm x, const Operand& b) {
  if (st.op == IrOp::fma) a.emit(f32 ? x86::Inst::kIdVfmadd231ss : x86::Inst::kIdVfmadd231sd, acc, x, b);
  else if (st.op == IrOp::sub) f32 ? a.vsubss(acc, acc, x) : a.vsubsd(acc, acc, x);
  else if (st.term_first) f32 ? a.vaddss(acc, x, acc) : a.vaddsd(acc, x, acc);
  else f32 ? a.vaddss(acc, acc, x) : a.vaddsd(acc, acc, x);
}

// A run of ordered sums' unconditional steps (VecPlan::batched_step; the
// body's end, vector.cpp lane_order): lane 0 of every step, then lane 1
// of every step, ..., so the sums' chains of dependent adds (or fmas) run
// side by side, each still in iteration order and in its op's operand
// order: the interpreter's roundings. Consecutive steps folding the same
// term (fma(s, dx, fx), fma(s, dy, fy)) take its lane once.
void LaneBody::ordered_run(std::span<const Ref> ops) const {
  const bool f32 = !p.f64, evex = t.allow_zmm;
  x86::Xmm S = x86::ymm(r.scratch).xmm(), T = x86::ymm(r.fold_t).xmm();
  if (t_terms >= 0) {  // the previous chunk's terms, then this chunk's into the buffer
    fold_buffered(ops);
    const std::vector<std::pair<Ref, bool>> bufs = fold_buffers(t, p);
    for (size_t j = 0; j < bufs.size(); j++) a.vmovups(x86::ymmword_ptr(x86::rsp, t_terms + 32 * (int32_t)j), y_of(bufs[j].first).ymm());
    return;
  }
  for (int k = 0; k < W; k++) {
    Ref held = kNoRef;  // the term whose lane k is in S
    for (Ref op : ops) {
      const VecPlan::Step& st = p.steps.at(op);
      x86::Xmm acc = ymm(r.ymm.at(st.slot)).xmm();
      x86::Ymm X = y_of(st.term).ymm();
      if (k > 0 && held != st.term) lane_to_0(a, f32, evex, S, X, k);
      held = st.term;
      x86::Xmm x = k ? S : X.xmm(), b;
      if (st.op == IrOp::fma) {  // fma(a_k, b_k, acc)
        x86::Ymm B = y_of(st.term2).ymm();
        if (k > 0) lane_to_0(a, f32, evex, T, B, k);
        b = k ? T : B.xmm();
      }
      fold_lane(a, f32, st, acc, x, b);
    }
  }
}

std::vector<std::pair<Ref, bool>> fold_buffers(const Trace& t, const VecPlan& p) {
  std::vector<std::pair<Ref, bool>> out;
  size_t k = p.order.size();
  while (k > 0 && p.kind[p.order[k - 1]] == VecPlan::reduce && p.batched_step(p.order[k - 1])) k--;
  for (size_t j = 0; j < k; j++)
    if (p.kind[p.order[j]] == VecPlan::reduce && p.batched_step(p.order[j])) return {};  // (not one run at the end)
  auto need = [&](Ref v, bool neg) {  // (a uniform too: the buffer's first chunk must fold to nothing)
    if (p.kind[v] != VecPlan::lane && p.kind[v] != VecPlan::uniform) return false;
    for (auto& [w, n] : out)
      if (w == v) return n == neg;
    out.push_back({v, neg});
    return true;
  };
  for (size_t j = k; j < p.order.size(); j++) {
    const VecPlan::Step& st = p.steps.at(p.order[j]);
    bool ok = st.op == IrOp::fma ? need(st.term, true) && need(st.term2, false) : need(st.term, st.op != IrOp::sub);
    if (!ok) return {};
  }
  (void)t;
  return out;
}

// The buffer's neutral terms: folding them leaves every sum as it is (an
// add of -0.0, a sub of +0.0, fma(-0.0, +0.0, s); a signalling NaN comes
// out quiet, as the chunk's first real term would leave it).
void LaneBody::ordered_init() const {
  x86::Ymm S = x86::ymm(r.scratch);
  const std::vector<std::pair<Ref, bool>> bufs = fold_buffers(t, p);
  for (size_t j = 0; j < bufs.size(); j++) {
    if (bufs[j].second) {
      a.vpcmpeqd(S, S, S);
      p.f64 ? a.vpsllq(S, S, 63) : a.vpslld(S, S, 31);
    } else {
      a.vpxor(S, S, S);
    }
    a.vmovups(x86::ymmword_ptr(x86::rsp, t_terms + 32 * (int32_t)j), S);
  }
}

void LaneBody::ordered_flush(int32_t t_iv) const {
  size_t k = p.order.size();
  while (k > 0 && p.kind[p.order[k - 1]] == VecPlan::reduce && p.batched_step(p.order[k - 1])) k--;
  Label none = a.newLabel();
  a.cmp(x86::rax, x86::qword_ptr(x86::rsp, t_iv));
  a.je(none);
  fold_buffered(std::span<const Ref>(p.order.data() + k, p.order.size() - k));
  a.bind(none);
}

// The buffered chunk's lanes, lane by lane across the run as ordered_run
// folds (the same order, the same operand order): each lane of a term a
// load or a memory operand.
void LaneBody::fold_buffered(std::span<const Ref> ops) const {
  const bool f32 = !p.f64;
  x86::Xmm S = x86::ymm(r.scratch).xmm();
  const std::vector<std::pair<Ref, bool>> bufs = fold_buffers(t, p);
  auto at = [&](Ref v, int k) {
    for (size_t j = 0; j < bufs.size(); j++)
      if (bufs[j].first == v) return t_terms + 32 * (int32_t)j + es * k;
    return -1;
  };
  auto lane = [&](Ref v, int k) { return f32 ? x86::dword_ptr(x86::rsp, at(v, k)) : x86::qword_ptr(x86::rsp, at(v, k)); };
  for (int k = 0; k < W; k++) {
    Ref held = kNoRef;  // the term whose lane k is in S
    for (Ref op : ops) {
      const VecPlan::Step& st = p.steps.at(op);
      if (held != st.term) f32 ? a.vmovss(S, lane(st.term, k)) : a.vmovsd(S, lane(st.term, k));
      held = st.term;
      fold_lane(a, f32, st, ymm(r.ymm.at(st.slot)).xmm(), S, st.op == IrOp::fma ? Operand(lane(st.term2, k)) : Operand());
    }
  }
}

// Float lanes fold in registers (no live value but the accumulators now:
// three others serve), halving the lanes each time; integer lanes through
// the frame, one scalar op a lane.
void LaneBody::fold_out(Ref slot, int32_t at, int32_t out) const {
  const VecPlan::Fold& f = p.folds.at(slot);
  x86::Vec acc = ymm(r.ymm.at(slot));
  if (f.ordered) {  // the sum is lane 0
    f.t == CT::f32 ? a.vmovd(x86::eax, acc.xmm()) : a.vmovq(x86::rax, acc.xmm());
    a.mov(x86::qword_ptr(x86::rsp, out), x86::rax);
    return;
  }
  if (fold_float(f.t)) {
    bool held[32] = {};  // (an ordered sum's may be ymm16-31: vector_regs.cpp)
    for (auto& [s, add] : p.sums) {
      held[r.ymm.at(s)] = true;
      if (auto h = r.acc2.find(s); h != r.acc2.end()) held[h->second] = true;
      if (auto h = r.fold_hi.find(s); h != r.fold_hi.end()) held[h->second] = true;
    }
    int fr[3], n = 0;
    for (int j = 0; j < 16 && n < 3; j++)
      if (!held[j]) fr[n++] = j;
    const bool f32 = f.t == CT::f32, mx = f.op == IrOp::max;
    x86::Ymm A = acc.ymm(), T = x86::ymm(fr[0]), D = x86::ymm(fr[1]), S = x86::ymm(fr[2]);
    a.vperm2f128(T, A, A, 1);  // the halves swapped
    lane_maxmin(a, f32, mx, D, A, T, S);
    f32 ? a.vpermilps(T, D, 0x4E) : a.vpermilpd(T, D, 0x5);  // pairs (f64: lanes) swapped
    lane_maxmin(a, f32, mx, A, D, T, S);
    if (f32) {
      a.vpermilps(T, A, 0xB1);  // neighbours swapped
      lane_maxmin(a, f32, mx, D, A, T, S);
      a.vmovd(x86::eax, D.xmm());  // (zero-extended: an f32 in a register)
    } else {
      a.vmovq(x86::rax, A.xmm());
    }
    a.mov(x86::qword_ptr(x86::rsp, out), x86::rax);
    return;
  }
  if (wide) a.vmovdqu32(x86::zmmword_ptr(x86::rsp, at), acc);
  else a.vmovdqu(x86::ymmword_ptr(x86::rsp, at), acc.ymm());
  auto h = r.fold_hi.find(slot);  // an i64 sum in 32-bit lanes: its 8 partials in two registers
  if (h != r.fold_hi.end()) a.vmovdqu(x86::ymmword_ptr(x86::rsp, at + 32), x86::ymm(h->second));
  const bool q = es == 8 || h != r.fold_hi.end(), sg = fold_signed(f.t);
  const int n = h != r.fold_hi.end() ? 8 : W;  // lanes at `at`
  x86::Gp R = q ? x86::Gp(x86::rax) : x86::Gp(x86::eax);
  auto lane = [&](int k) { return q ? x86::qword_ptr(x86::rsp, at + 8 * k) : x86::dword_ptr(x86::rsp, at + 4 * k); };
  a.mov(R, lane(0));
  for (int k = 1; k < n; k++) {
    switch (f.op) {
      case IrOp::add: a.add(R, lane(k)); break;
      case IrOp::mul: a.imul(R, lane(k)); break;
      case IrOp::band: a.and_(R, lane(k)); break;
      case IrOp::bor: a.or_(R, lane(k)); break;
      case IrOp::bxor: a.xor_(R, lane(k)); break;
      case IrOp::max: case IrOp::min:  // take lane k where R is below it (max) or above it (min)
        a.cmp(R, lane(k));
        if (f.op == IrOp::max) sg ? a.cmovl(R, lane(k)) : a.cmovb(R, lane(k));
        else sg ? a.cmovg(R, lane(k)) : a.cmova(R, lane(k));
        break;
      default: break;
    }
  }
  if (f.t == CT::i32) a.movsxd(x86::rax, x86::eax);  // (u32: the 32-bit ops zero-extended it)
  a.mov(x86::qword_ptr(x86::rsp, out), x86::rax);
}

}  // namespace kiln::jit
