// One copy of a vector loop's body (lane_body.h): each op of the plan's
// order as the lane instructions that do it, in zmm (16 lanes), ymm (8 of
// 32 bits) or ymm of f64 (4). asm_vector.cpp's vector_loop emits it
// `unroll` times a pass and once more under a mask at the loop's end.
#include "jit/lane_body.h"
#include "jit/backend.h"
#include "jit/div_magic.h"
#include "vm/types/type.h"

namespace kiln::jit {

using namespace asmjit;
using bc::CT;

// d = a * b + c in lanes with one rounding: the FMA3 form whose accumulator
// or multiplicand is d's register, so no operand is overwritten early.
template <class Y>
static void lane_fma(x86::Assembler& a, bool f32, x86::Vec d, Y ya, Y yb, Y yc) {
  auto f231 = [&](Y x, Y y) { f32 ? a.vfmadd231ps(d, x, y) : a.vfmadd231pd(d, x, y); };   // d = x * y + d
  auto f213 = [&](Y x, Y y) { f32 ? a.vfmadd213ps(d, x, y) : a.vfmadd213pd(d, x, y); };   // d = x * d + y
  if (d.id() == yc.id()) f231(ya, yb);
  else if (d.id() == ya.id()) f213(yb, yc);
  else if (d.id() == yb.id()) f213(ya, yc);
  else {
    a.vmovaps(d, yc);
    f231(ya, yb);
  }
}

// maximumNumber / minimumNumber of f32 or f64 lanes x and y into d (d
// apart from both: lane_blends; s a scratch register): y' = y, or x where y
// is a NaN; then maxps(x, y') is right but where x and y' are equal, which
// gives y': there x & y' (max) or x | y' (min), the zeros' sign rule.
void lane_maxmin(x86::Assembler& a, bool f32, bool mx, x86::Vec d, x86::Vec x, x86::Vec y, x86::Vec s) {
  auto maxmin = [&](x86::Vec o, x86::Vec p, x86::Vec q) {
    if (mx) f32 ? a.vmaxps(o, p, q) : a.vmaxpd(o, p, q);
    else f32 ? a.vminps(o, p, q) : a.vminpd(o, p, q);
  };
  auto cmp = [&](x86::Vec o, x86::Vec p, x86::Vec q, int pred) { f32 ? a.vcmpps(o, p, q, pred) : a.vcmppd(o, p, q, pred); };
  auto vand = [&](x86::Vec o, x86::Vec p, x86::Vec q) { f32 ? a.vandps(o, p, q) : a.vandpd(o, p, q); };
  auto vor = [&](x86::Vec o, x86::Vec p, x86::Vec q) { f32 ? a.vorps(o, p, q) : a.vorpd(o, p, q); };
  cmp(s, y, y, 3);  // unordered
  f32 ? a.vblendvps(s, y, x, s) : a.vblendvpd(s, y, x, s);
  cmp(d, x, s, mx ? 4 : 0);  // max: not equal (or unordered): keep; min: equal: or in a
  mx ? vor(d, d, x) : vand(d, d, x);
  maxmin(s, x, s);
  mx ? vand(d, d, s) : vor(d, d, s);
}

// ti.max/ti.min of f32 or f64 lanes: with an exact constant k
// (exact_maxmin_const) one maxps x, k, else the general form above.
template <class YOf>
static void lane_maxmin(x86::Assembler& a, const Trace& t, const Ins& in, bool f32, x86::Vec d, YOf&& y_of, x86::Vec s) {
  bool mx = in.op == IrOp::max;
  if (Ref K = exact_maxmin_const(t, in); K != kNoRef) {
    x86::Vec x = y_of(K == in.b ? in.a : in.b), k = y_of(K);
    if (mx) f32 ? a.vmaxps(d, x, k) : a.vmaxpd(d, x, k);
    else f32 ? a.vminps(d, x, k) : a.vminpd(d, x, k);
    return;
  }
  lane_maxmin(a, f32, mx, d, y_of(in.a), y_of(in.b), s);
}

// One op of an f64 lane loop (VecPlan::f64; lanes64 admits these only).
template <class YOf>
void f64_lane_op(x86::Assembler& a, const Trace& t, const Ins& in, x86::Vec d, YOf&& y_of, x86::Mem at, int sign, int absmask, int zero,
                 int scratch) {
  switch (in.op) {
    case IrOp::store: a.vmovupd(at, y_of(in.b)); break;
    case IrOp::load: a.vmovupd(d, at); break;
    case IrOp::add: in.t == CT::f64 ? a.vaddpd(d, y_of(in.a), y_of(in.b)) : a.vpaddq(d, y_of(in.a), y_of(in.b)); break;
    case IrOp::sub: in.t == CT::f64 ? a.vsubpd(d, y_of(in.a), y_of(in.b)) : a.vpsubq(d, y_of(in.a), y_of(in.b)); break;
    case IrOp::band: a.vpand(d, y_of(in.a), y_of(in.b)); break;
    case IrOp::bor: a.vpor(d, y_of(in.a), y_of(in.b)); break;
    case IrOp::bxor: a.vpxor(d, y_of(in.a), y_of(in.b)); break;
    case IrOp::mul: a.vmulpd(d, y_of(in.a), y_of(in.b)); break;
    case IrOp::div: a.vdivpd(d, y_of(in.a), y_of(in.b)); break;
    case IrOp::sqrt: a.vsqrtpd(d, y_of(in.a)); break;
    case IrOp::floor: case IrOp::ceil: a.vroundpd(d, y_of(in.a), in.op == IrOp::floor ? kRoundFloor : kRoundCeil); break;
    case IrOp::max: case IrOp::min: lane_maxmin(a, t, in, false, d, y_of, x86::ymm(scratch)); break;
    case IrOp::neg:
      if (in.t == CT::f64) a.vxorpd(d, y_of(in.a), x86::ymm(sign));
      else a.vpsubq(d, x86::ymm(zero), y_of(in.a));
      break;
    case IrOp::abs: a.vandpd(d, y_of(in.a), x86::ymm(absmask)); break;
    case IrOp::fma: lane_fma(a, false, d, y_of(in.a), y_of(in.b), y_of(in.c)); break;
    default: break;
  }
}

// Python's floor `//` or `%` of i32 lanes x by a constant d >= 2, no divide
// (AVX2 has none for integers): with s = x >> 31 (0 or -1 a lane),
// y = x ^ s in [0, 2^31) and q' = (y * m) >> k (lane_div_magic: a 32x32->64
// vpmuludq of the even lanes and of the odd ones moved down, the high
// halves merged), floor(x / d) = q' ^ s; the remainder is r' = y - q' * d
// for x >= 0 and d - 1 - r' = (r' ^ s) + (s & d) for x < 0. d may be x's
// register (x is read first); t are three temporaries, m the multiplier's
// lanes, dv the divisor's.
static void lane_floor_divide(x86::Assembler& a, bool wide, bool rem, int k, x86::Vec d, x86::Vec x, x86::Vec m,
                              x86::Vec dv, const x86::Vec (&t)[3]) {
  auto vxor = [&](x86::Vec o, x86::Vec p, x86::Vec q) { wide ? a.vpxord(o, p, q) : a.vpxor(o, p, q); };
  const x86::Vec &s = t[0], &y = t[1], &e = t[2];
  a.vpsrad(s, x, 31);
  vxor(y, x, s);
  a.vpmuludq(e, y, m);  // even lanes' 64-bit products
  a.vpsrlq(e, e, 32);
  a.vpsrlq(d, y, 32);
  a.vpmuludq(d, d, m);  // odd lanes' (their high halves in the odd dwords)
  if (wide) {  // (no vpblendd on zmm: clear the low dwords, then merge)
    a.vpsrlq(d, d, 32);
    a.vpsllq(d, d, 32);
    a.vpord(d, d, e);
  } else {
    a.vpblendd(d, e, d, 0xAA);
  }
  if (k > 32) a.vpsrld(d, d, k - 32);  // q'
  if (!rem) {
    vxor(d, d, s);
    return;
  }
  a.vpmulld(e, d, dv);
  a.vpsubd(d, y, e);  // r'
  vxor(d, d, s);
  wide ? a.vpandd(e, s, dv) : a.vpand(e, s, dv);
  a.vpaddd(d, d, e);
}

x86::Vec LaneBody::ymm(int j) const { return wide ? x86::Vec(x86::zmm(j)) : x86::Vec(x86::ymm(j)); }

x86::Vec LaneBody::acc_of(Ref slot, int h) const { return ymm(h ? r.acc2.at(slot) : r.ymm.at(slot)); }

void LaneBody::lanes_from(int y, const x86::Gp& start, int u) const {
  if (u) {
    a.lea(x86::edi, x86::dword_ptr(start, W * u));
    a.vmovd(x86::xmm(y), x86::edi);
  } else {
    a.vmovd(x86::xmm(y), start.r32());
  }
  a.vpbroadcastd(ymm(y), x86::xmm(y));
  a.vpaddd(ymm(y), ymm(y), ymm(r.iota));
}

x86::Vec LaneBody::y_of(Ref v) const {
  if (v == p.iv) return ymm(r.iv);
  if (v == p.row_r) return ymm(r.ir);
  if (v == p.row_q) return ymm(r.q);
  if (p.kind[v] == VecPlan::plane) return ymm(r.plane);
  if (p.kind[v] == VecPlan::in_plane) return ymm(r.in_plane);
  if (p.kind[v] == VecPlan::vol) return ymm(r.vol);
  if (p.kind[v] == VecPlan::in_vol) return ymm(r.in_vol);
  return ymm(r.ymm.at(v));
}

// A wide masked end's interleaved group of n components: raw vector j's
// mask, its floats below n * m (m lanes), in k(2 + j).
void LaneBody::raw_masks(int n) const {
  for (int j = 0; j < n; j++) {
    a.imul(x86::esi, x86::dword_ptr(x86::rsp, t_mask), n);
    a.sub(x86::esi, 16 * j);
    a.mov(x86::edx, 0);
    a.cmovs(x86::esi, x86::edx);
    a.mov(x86::edx, -1);
    a.bzhi(x86::edx, x86::edx, x86::esi);  // (a count of 16 or more: all 16)
    a.kmovw(x86::k(2 + j), x86::edx);
  }
}

void LaneBody::masked_move(x86::Vec v, const x86::Mem& at, bool load) const {
  // On AVX-512 hosts always under k1: AMD's vmaskmovps store is microcoded
  // (small_launches' one masked end of 4096 f32 took 11% of its samples).
  if (v.id() < 16 && !t.allow_zmm) {
    load ? a.vmaskmovps(v, ymm(r.tail), at) : a.vmaskmovps(at, ymm(r.tail), v);
    return;
  }
  a.vpmovd2m(x86::k1, ymm(r.tail));  // (the lanes vmaskmovps takes: sign bits set)
  load ? a.k(x86::k1).z().vmovups(v, at) : a.k(x86::k1).vmovups(at, v);  // (masked-off lanes never fault)
}

// Copy u of the body; `masked`: only the lanes r.tail selects load and store.
void LaneBody::operator()(int u, bool masked) const {
  if (r.iv >= 0) lanes_from(r.iv, x86::rax, u);
  if (r.ir >= 0) lanes_from(r.ir, x86::rdx, u);
  auto at = [&](Ref i) {
    const VecPlan::Access& acc = p.access[i];
    return x86::ptr(kRootRegs[r.root.at({acc.root, acc.cq})], acc.by_r ? x86::rdx : x86::rax, p.f64 ? 3 : 2,
                    acc.disp + W * es * u, wide ? 64 : 32);
  };
  for (size_t k = 0; k < p.order.size(); k++) {
    const Ref i = p.order[k];
    const Ins& in = t.ins[i];
    if (p.kind[i] == VecPlan::reduce && p.batched_step(i) && !masked) {  // ordered sums' steps, side by side
      size_t e = k + 1;
      while (e < p.order.size() && p.kind[p.order[e]] == VecPlan::reduce && p.batched_step(p.order[e])) e++;
      ordered_run(std::span<const Ref>(p.order.data() + k, e - k));
      k = e - 1;
      continue;
    }
    if (p.kind[i] == VecPlan::reduce && p.partials.count(p.sum_slot(i))) {  // a split float sum
      Ref slot = p.sum_slot(i);
      x86::Vec acc = acc_of(slot, u % regs);  // lane k: iteration W * u + k's partial
      bool f = !p.f64;
      if (masked && wide) {  // (a wide masked end: only the k1 lanes add)
        if (in.op == IrOp::add) a.k(x86::k1).vaddps(acc, acc, y_of(in.a == slot ? in.b : in.a));
        else if (in.op == IrOp::sub) a.k(x86::k1).vsubps(acc, acc, y_of(in.b));
        else a.k(x86::k1).vfmadd231ps(acc, y_of(in.a), y_of(in.b));
        continue;
      }
      if (in.op == IrOp::add) f ? a.vaddps(acc, acc, y_of(in.a == slot ? in.b : in.a)) : a.vaddpd(acc, acc, y_of(in.a == slot ? in.b : in.a));
      else if (in.op == IrOp::sub) f ? a.vsubps(acc, acc, y_of(in.b)) : a.vsubpd(acc, acc, y_of(in.b));
      else f ? a.vfmadd231ps(acc, y_of(in.a), y_of(in.b)) : a.vfmadd231pd(acc, y_of(in.a), y_of(in.b));
      continue;
    }
    if (p.kind[i] == VecPlan::reduce) {  // a fold's step (a conditional add's add: emitted with its sel)
      if (auto st = p.steps.find(i); st != p.steps.end()) fold_step(st->second, masked);
      continue;
    }
    if (p.f64) {
      bool mem_op = in.op == IrOp::load || in.op == IrOp::store;
      if (in.op != IrOp::store && !r.ymm.count(i)) continue;
      f64_lane_op(a, t, in, in.op == IrOp::store ? ymm(0) : ymm(r.ymm.at(i)), [this](Ref v) { return y_of(v); }, mem_op ? at(i) : x86::Mem(), r.sign,
                  r.absmask, r.zero, r.scratch);
      continue;
    }
    bool f = in.t == CT::f32;
    if (in.op == IrOp::guard_nz || in.op == IrOp::guard_z) {
      // The failing lanes' mask (guard_nz: where the value is 0; guard_z:
      // any bits set), and out if any lane the copy runs has one.
      x86::Vec v = y_of(in.a), bad = v;
      if (in.op == IrOp::guard_nz) {
        bad = ymm(r.scratch);
        a.vpcmpeqd(bad, v, ymm(r.zero));
      }
      a.vptest(bad, masked ? ymm(r.tail) : bad);
      a.jnz(guard_fail[u]);
      continue;
    }
    if (in.op == IrOp::store) {
      if (auto g = p.interleaved_stores.find(i); g != p.interleaved_stores.end()) {  // the group's last: all of it
        const VecPlan::Access& c0 = p.access[g->second[0]];
        a.imul(x86::rdi, x86::rax, c0.stride);
        a.add(x86::rdi, kRootRegs[r.root.at({c0.root, c0.cq})]);
        x86::Ymm vals[4], tmp[5];
        const int n = (int)g->second.size();
        for (int k = 0; k < n; k++) vals[k] = x86::ymm(y_of(t.ins[g->second[k]].b).id());
        x86::Mem to = x86::ptr(x86::rdi, c0.disp + W * c0.stride * u);
        if (wide) {
          if (masked) raw_masks(n);
          wide_interleaved_store(a, n, to, vals, masked);
          continue;
        }
        const std::vector<int>& ty = r.store_tmp.at(i);
        for (size_t k = 0; k < ty.size(); k++) tmp[k] = x86::ymm(ty[k]);
        interleave_store(a, n, to, vals, tmp);
        continue;
      }
      if (p.store_group(i) != kNoRef) continue;  // (stored with its group's last)
      if (masked && wide) a.k(x86::k1).vmovups(at(i), y_of(in.b));
      else if (masked) masked_move(y_of(in.b), at(i), false);
      else a.vmovups(at(i), y_of(in.b));
      continue;
    }
    if (!r.ymm.count(i)) continue;
    x86::Vec d = ymm(r.ymm[i]);
    switch (in.op) {
      case IrOp::load:
        if (auto g = p.interleaved.find(i); g != p.interleaved.end()) {  // the group's first: all of it
          const VecPlan::Access& c0 = p.access[g->second[0]];
          a.imul(x86::rdi, x86::rax, c0.stride);
          a.add(x86::rdi, kRootRegs[r.root.at({c0.root, c0.cq})]);
          x86::Ymm out[4];
          for (size_t k = 0; k < g->second.size(); k++) out[k] = x86::ymm(r.ymm.at(g->second[k]));
          x86::Mem from = x86::ptr(x86::rdi, c0.disp + W * c0.stride * u);
          if (wide && masked) raw_masks((int)g->second.size());
          if (wide) wide_interleaved_load(a, (int)g->second.size(), from, out, masked);
          else deinterleave_load(a, (int)g->second.size(), from, out, x86::ymm(r.shuf.at(i)));
        } else if (p.in_group(i)) {
          // (loaded with its group's first)
        } else if (const VecPlan::Access& acc = p.access[i]; acc.stride) {  // root + stride * counter, then lane offsets
          a.imul(x86::rdi, x86::rax, acc.stride);
          a.add(x86::rdi, kRootRegs[r.root.at({acc.root, acc.cq})]);
          // (masked: the lanes past the end read nothing)
          masked ? a.vmovdqa(ymm(r.gmask), ymm(r.tail)) : a.vpcmpeqd(ymm(r.gmask), ymm(r.gmask), ymm(r.gmask));
          auto m = x86::ymmword_ptr(x86::rdi, ymm(r.gidx.at(acc.stride)), 0, acc.disp + W * acc.stride * u);
          (Prim)in.k == Prim::f32 ? a.vgatherdps(d, m, ymm(r.gmask)) : a.vpgatherdd(d, m, ymm(r.gmask));
        } else if (masked && wide) {
          a.k(x86::k1).z().vmovups(d, at(i));
        } else {
          if (masked) masked_move(d, at(i), true);
          else a.vmovups(d, at(i));
        }
        break;
      case IrOp::add: f ? a.vaddps(d, y_of(in.a), y_of(in.b)) : a.vpaddd(d, y_of(in.a), y_of(in.b)); break;
      case IrOp::sub: f ? a.vsubps(d, y_of(in.a), y_of(in.b)) : a.vpsubd(d, y_of(in.a), y_of(in.b)); break;
      case IrOp::mul: f ? a.vmulps(d, y_of(in.a), y_of(in.b)) : a.vpmulld(d, y_of(in.a), y_of(in.b)); break;
      case IrOp::div: a.vdivps(d, y_of(in.a), y_of(in.b)); break;
      case IrOp::band: wide ? a.vpandd(d, y_of(in.a), y_of(in.b)) : a.vpand(d, y_of(in.a), y_of(in.b)); break;
      case IrOp::bor: wide ? a.vpord(d, y_of(in.a), y_of(in.b)) : a.vpor(d, y_of(in.a), y_of(in.b)); break;
      case IrOp::bxor: wide ? a.vpxord(d, y_of(in.a), y_of(in.b)) : a.vpxor(d, y_of(in.a), y_of(in.b)); break;
      case IrOp::sqrt: a.vsqrtps(d, y_of(in.a)); break;
      case IrOp::floor: case IrOp::ceil: {  // (roundps has no EVEX form: rndscaleps with scale 0)
        uint32_t mode = in.op == IrOp::floor ? kRoundFloor : kRoundCeil;
        wide ? a.vrndscaleps(d, y_of(in.a), mode) : a.vroundps(d, y_of(in.a), mode);
        break;
      }
      case IrOp::max: case IrOp::min: {
        bool mx = in.op == IrOp::max;
        if (!f) {  // i32 or u32 lanes
          bool sg = in.t == CT::i32;
          if (mx) sg ? a.vpmaxsd(d, y_of(in.a), y_of(in.b)) : a.vpmaxud(d, y_of(in.a), y_of(in.b));
          else sg ? a.vpminsd(d, y_of(in.a), y_of(in.b)) : a.vpminud(d, y_of(in.a), y_of(in.b));
          break;
        }
        lane_maxmin(a, t, in, true, d, [this](Ref v) { return y_of(v); }, ymm(r.scratch));
        break;
      }
      case IrOp::shl: case IrOp::shr: case IrOp::sar: {  // counts of 32 or more: 0 (shl/shr) or the sign, as scalar
        uint32_t n = (uint64_t)t.ins[in.b].k >= 32 ? 32 : (uint32_t)t.ins[in.b].k;
        in.op == IrOp::shl ? a.vpslld(d, y_of(in.a), n) : in.op == IrOp::shr ? a.vpsrld(d, y_of(in.a), n) : a.vpsrad(d, y_of(in.a), n);
        break;
      }
      case IrOp::floordiv: case IrOp::mod: {
        const x86::Vec tmp[3] = {ymm(r.div_t[0]), ymm(r.div_t[1]), ymm(r.div_t[2])};
        lane_floor_divide(a, wide, in.op == IrOp::mod, lane_div_magic(t.ins[in.b].k)->k, d, y_of(in.a), ymm(r.magic.at(i)),
                          in.op == IrOp::mod ? y_of(in.b) : d, tmp);
        break;
      }
      case IrOp::neg: f ? a.vxorps(d, y_of(in.a), ymm(r.sign)) : a.vpsubd(d, ymm(r.zero), y_of(in.a)); break;
      case IrOp::abs: f ? a.vandps(d, y_of(in.a), ymm(r.absmask)) : a.vpabsd(d, y_of(in.a)); break;
      case IrOp::conv:
        if (lane_f2i(in)) {
          // sem::f2i: cvttps2dq gives 0x80000000 for a NaN and out of
          // range; where x >= 2^31, xor with all ones makes it INT_MAX, and
          // a NaN's lane is cleared (d apart from x: vector_regs.cpp).
          x86::Vec X = y_of(in.a), S = ymm(r.scratch);
          a.vcmpps(S, X, ymm(r.f2i_lim), 13);  // >= (ordered)
          a.vcvttps2dq(d, X);
          a.vpxor(d, d, S);
          a.vcmpps(S, X, X, 7);  // ordered: not a NaN
          a.vpand(d, d, S);
        } else {
          a.vcvtdq2ps(d, y_of(in.a));
        }
        break;
      case IrOp::fma: lane_fma(a, true, d, y_of(in.a), y_of(in.b), y_of(in.c)); break;
      case IrOp::lt: case IrOp::le: case IrOp::eq: case IrOp::ne:
        // A mask per lane, then the 0/1 the scalar compare gives (NaN: only ne holds).
        if (f) {
          int pred = in.op == IrOp::lt ? 1 : in.op == IrOp::le ? 2 : in.op == IrOp::eq ? 0 : 4;
          a.vcmpps(d, y_of(in.a), y_of(in.b), pred);
          a.vpsrld(d, d, 31);
        } else if (in.op == IrOp::eq || in.op == IrOp::lt) {
          in.op == IrOp::eq ? a.vpcmpeqd(d, y_of(in.a), y_of(in.b)) : a.vpcmpgtd(d, y_of(in.b), y_of(in.a));
          a.vpsrld(d, d, 31);
        } else {  // ne, le: the mask of the opposite, plus one (-1 -> 0, 0 -> 1)
          in.op == IrOp::ne ? a.vpcmpeqd(d, y_of(in.a), y_of(in.b)) : a.vpcmpgtd(d, y_of(in.a), y_of(in.b));
          a.vpsubd(d, d, ymm(r.ones));
        }
        break;
      case IrOp::lnot:  // a == 0 as 0/1
        a.vpcmpeqd(d, y_of(in.a), ymm(r.zero));
        a.vpsrld(d, d, 31);
        break;
      case IrOp::sel:  // lanes where a == 0 take c
        a.vpcmpeqd(ymm(r.scratch), y_of(in.a), ymm(r.zero));
        a.vblendvps(d, y_of(in.b), y_of(in.c), ymm(r.scratch));
        break;
      default: break;  // (the plan admits no other op)
    }
  }
  if (!masked) lasts_hold();  // (past the copy's last guard)
}

}  // namespace kiln::jit
