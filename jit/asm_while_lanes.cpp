// The lane loop of a while-lanes plan (while_lanes.h), emitted at the loop
// trace's head, before its scalar loop: the copies' values into lanes, the
// loop while every guard passes, the carried lanes back to the phis' homes.
// Lanes in ymm0-13 (xmm0-13 for 4 32-bit copies), VEX forms only (vblendvps has no
// EVEX form); ymm14-15 scratch. Values from before the loop that every copy
// shares are broadcast into frame temporaries and read from there.
#include <asmjit/x86.h>

#include <algorithm>
#include <map>

#include "jit/asm.h"
#include "jit/backend.h"
#include "jit/lane_body.h"
#include "jit/recorder.h"
#include "jit/while_lanes.h"

namespace kiln::jit {

using namespace asmjit;
using bc::CT;

namespace {

constexpr int kLaneRegs = 14;  // ymm0-13 hold values; 14 and 15 are scratch

struct WhileLanes {
  Gen& g;
  x86::Assembler& a;
  const Trace& t;
  const WhilePlan& p;
  int32_t area, area_end;
  int32_t next = 0;  // the next free frame byte
  std::vector<int> reg;           // by position
  std::vector<int> creg, preg;    // carried, per copy
  std::map<Ref, int32_t> shared;  // a shared value's broadcast lanes in the frame
  std::vector<int32_t> c_tmp;     // each carried value's lanes on the way out
  int32_t t_zero = 0, t_sign = 0, t_abs = 0, t_one = 0, t_ones = 0;
  bool keep_x[kNumXmm] = {};
  std::pair<int, int> mask14{-1, -1};  // the select condition (source, index) whose mask ymm14 holds

  bool q() const { return p.es == 8; }  // 64-bit lanes
  x86::Vec v(int j) const { return p.K * p.es == 32 ? x86::Vec(x86::ymm(j)) : x86::Vec(x86::xmm(j)); }
  x86::Mem vmem(int32_t off) const { return x86::ptr(x86::rsp, off, (uint32_t)(p.K * p.es)); }
  int32_t alloc(int32_t bytes) {
    int32_t at = next;
    next += bytes;
    return at;
  }

  // Registers: carried and per-copy values for the whole loop, each
  // position's from its op to its last reader (a carried value's new lanes
  // to the back edge). An op's register is apart from its operands'.
  bool registers() {
    std::vector<int> last(p.ops.size(), -1);
    for (size_t j = 0; j < p.ops.size(); j++)
      for (auto& o : p.ops[j].opd)
        if (o.src == WhilePlan::kPacked) last[(size_t)o.idx] = (int)j;
    for (auto& gd : p.guards) last[(size_t)gd.pos] = std::max(last[(size_t)gd.pos], gd.pos);
    for (auto& cv : p.carried) last[(size_t)cv.val] = (int)p.ops.size();
    bool used[kLaneRegs] = {};
    auto take = [&]() {
      for (int r = 0; r < kLaneRegs; r++)
        if (!used[r]) {
          used[r] = true;
          return r;
        }
      return -1;
    };
    for (size_t k = 0; k < p.carried.size(); k++)
      if ((creg.emplace_back(take())) < 0) return false;
    for (size_t k = 0; k < p.per_copy.size(); k++)
      if ((preg.emplace_back(take())) < 0) return false;
    reg.assign(p.ops.size(), -1);
    std::vector<std::vector<int>> frees(p.ops.size() + 1);
    for (size_t j = 0; j < p.ops.size(); j++) {
      if ((reg[j] = take()) < 0) return false;
      for (int f : frees[j]) used[f] = false;  // (after the take: apart from the operands)
      if (last[j] < 0) frees[j + 1].push_back(reg[j]);  // (read by nothing: a dead value's register)
      else if (last[j] < (int)p.ops.size()) frees[(size_t)last[j] + 1].push_back(reg[j]);
    }
    return true;
  }

  // Which positions are held as masks (all ones where true), not 0/1: a
  // compare whose readers take a mask (a select's condition, a select or or
  // that is itself a mask, a guard), selects and ors of masks or 0. Not a
  // carried value (the scalar code's 0/1 comes back out of it). A compare's
  // 0/1 shift and the mask compare of its select fall out of the loop's
  // chain (mandelbrot's escape test).
  std::vector<bool> mask;
  void find_masks() {
    size_t N = p.ops.size();
    mask.assign(N, false);
    for (size_t j = 0; j < N; j++) {
      IrOp op = t.ins[p.ops[j].refs[0]].op;
      mask[j] = op == IrOp::lt || op == IrOp::le || op == IrOp::eq || op == IrOp::ne || op == IrOp::sel ||
                op == IrOp::bor || op == IrOp::band || op == IrOp::bxor;
    }
    for (auto& cv : p.carried) mask[(size_t)cv.val] = false;
    auto is_zero = [&](const WhilePlan::Operand& o) {
      return o.src == WhilePlan::kShared && t.is_const(o.ref) && t.ins[o.ref].k == 0;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t j = 0; j < N; j++) {
        if (!mask[j]) continue;
        const WhilePlan::Op& o = p.ops[j];
        IrOp op = t.ins[o.refs[0]].op;
        bool ok = true;
        if (op == IrOp::sel || op == IrOp::bor || op == IrOp::band || op == IrOp::bxor)
          for (int k = op == IrOp::sel ? 1 : 0; k < (op == IrOp::sel ? 3 : 2); k++) {
            const WhilePlan::Operand& x = o.opd[(size_t)k];
            ok &= (x.src == WhilePlan::kPacked && mask[(size_t)x.idx]) || (op == IrOp::sel && is_zero(x));
          }
        for (size_t r = 0; r < N && ok; r++)  // every reader takes a mask
          for (int k = 0; k < 3; k++) {
            const WhilePlan::Operand& x = p.ops[r].opd[(size_t)k];
            if (x.src != WhilePlan::kPacked || x.idx != (int)j) continue;
            IrOp rop = t.ins[p.ops[r].refs[0]].op;
            ok &= (rop == IrOp::sel && k == 0) ||
                  ((rop == IrOp::sel || rop == IrOp::bor || rop == IrOp::band || rop == IrOp::bxor) && mask[r]);
          }
        if (!ok) mask[j] = false, changed = true;
      }
    }
  }

  // Operand o of op j in a register (a shared value loaded into `scratch`).
  x86::Vec in(const WhilePlan::Operand& o, int scratch) {
    switch (o.src) {
      case WhilePlan::kPacked: return v(reg[(size_t)o.idx]);
      case WhilePlan::kCarried: return v(creg[(size_t)o.idx]);
      case WhilePlan::kPerCopy: return v(preg[(size_t)o.idx]);
      default:
        if (scratch == 14) mask14 = {-1, -1};
        a.vmovups(v(scratch), vmem(shared.at(o.ref)));
        return v(scratch);
    }
  }
  // The same as a second source: a shared value straight from the frame.
  Operand src(const WhilePlan::Operand& o) {
    if (o.src == WhilePlan::kShared) return vmem(shared.at(o.ref));
    return in(o, 15);
  }

  // 0/1 from a float compare's all-ones/zero lanes.
  void to01(x86::Vec d) { q() ? a.vpsrlq(d, d, 63) : a.vpsrld(d, d, 31); }

  bool op(size_t j) {
    const WhilePlan::Op& o = p.ops[j];
    const Ins& in0 = t.ins[o.refs[0]];
    x86::Vec D = v(reg[j]);
    bool f = in0.t == CT::f32 || in0.t == CT::f64, d = in0.t == CT::f64;
    auto A = [&] { return in(o.opd[0], 14); };
    auto B = [&] { return src(o.opd[1]); };
    // d = x op y, y a register or the frame
    auto bin = [&](InstId id, x86::Vec d, x86::Vec x, const Operand& y) { a.emit(id, d, x, y); };
    namespace I = x86::Inst;
    switch (in0.op) {
      // (integers in 64-bit lanes: dword ops, the high halves 0 op 0 = 0)
      case IrOp::add: bin(d ? I::kIdVaddpd : f ? I::kIdVaddps : I::kIdVpaddd, D, A(), B()); break;
      case IrOp::sub: bin(d ? I::kIdVsubpd : f ? I::kIdVsubps : I::kIdVpsubd, D, A(), B()); break;
      case IrOp::mul: bin(d ? I::kIdVmulpd : f ? I::kIdVmulps : I::kIdVpmulld, D, A(), B()); break;
      case IrOp::div: bin(d ? I::kIdVdivpd : I::kIdVdivps, D, A(), B()); break;
      case IrOp::band: bin(I::kIdVpand, D, A(), B()); break;
      case IrOp::bor: bin(I::kIdVpor, D, A(), B()); break;
      case IrOp::bxor: bin(I::kIdVpxor, D, A(), B()); break;
      case IrOp::sqrt: d ? a.vsqrtpd(D, A()) : a.vsqrtps(D, A()); break;
      case IrOp::neg:
        if (f) {
          bin(d ? I::kIdVxorpd : I::kIdVxorps, D, A(), vmem(t_sign));
        } else {  // 0 - x
          x86::Vec X = in(o.opd[0], 15);
          mask14 = {-1, -1};
          a.vmovups(v(14), vmem(t_zero));
          a.vpsubd(D, v(14), X);
        }
        break;
      case IrOp::abs:
        if (f) bin(d ? I::kIdVandpd : I::kIdVandps, D, A(), vmem(t_abs));
        else a.vpabsd(D, A());
        break;
      case IrOp::max: case IrOp::min: {
        bool mx = in0.op == IrOp::max;
        if (f) {
          // (a value from before the loop in 14, the blends' scratch in 15;
          // the planner refuses two such)
          x86::Vec X = in(o.opd[0], 14), Y = in(o.opd[1], 14);
          lane_maxmin(a, !d, mx, D, X, Y, v(15));  // (writes 15 only)
        } else if (in0.t == CT::i32) {
          bin(mx ? I::kIdVpmaxsd : I::kIdVpminsd, D, A(), B());
        } else {
          bin(mx ? I::kIdVpmaxud : I::kIdVpminud, D, A(), B());
        }
        break;
      }
      case IrOp::fma: {  // d = a * b + c, one rounding
        x86::Vec X = A();
        Operand Y = B();
        if (o.opd[2].src == WhilePlan::kShared) a.vmovups(D, vmem(shared.at(o.opd[2].ref)));
        else a.vmovaps(D, in(o.opd[2], 15));
        bin(d ? I::kIdVfmadd231pd : I::kIdVfmadd231ps, D, X, Y);
        break;
      }
      case IrOp::lt: case IrOp::le: case IrOp::eq: case IrOp::ne:
        if (f) {  // the scalar compares' answers on NaNs: only != is true
          int pred = in0.op == IrOp::lt ? 0x11 : in0.op == IrOp::le ? 0x12 : in0.op == IrOp::eq ? 0x00 : 0x04;
          a.emit(d ? I::kIdVcmppd : I::kIdVcmpps, D, A(), B(), Imm(pred));
          if (!mask[j]) to01(D);
        } else if (mask[j]) {  // all ones where true, over the whole lane
          if (in0.op == IrOp::lt) bin(I::kIdVpcmpgtd, D, in(o.opd[1], 15), src(o.opd[0]));
          else bin(in0.op == IrOp::le ? I::kIdVpcmpgtd : I::kIdVpcmpeqd, D, A(), B());
          if (in0.op == IrOp::le || in0.op == IrOp::ne) a.vpxor(D, D, vmem(t_ones));
          if (q()) a.vpshufd(D, D, 0xA0);  // (the low half's answer)
        } else if (in0.op == IrOp::lt) {  // b > a
          bin(I::kIdVpcmpgtd, D, in(o.opd[1], 15), src(o.opd[0]));
          a.vpsrld(D, D, 31);  // (the low halves' answers; 64-bit lanes' high halves: 0 > 0)
        } else if (in0.op == IrOp::le) {  // 1 + (a > b ? -1 : 0)
          bin(I::kIdVpcmpgtd, D, A(), B());
          a.vpaddd(D, D, vmem(t_one));
        } else {
          bin(I::kIdVpcmpeqd, D, A(), B());  // (0/1 by an and: 64-bit lanes' high halves compare equal)
          a.vpand(D, D, vmem(t_one));
          if (in0.op == IrOp::ne) a.vpxor(D, D, vmem(t_one));
        }
        break;
      case IrOp::sel: {  // where the condition is 0, b's lanes, else a's
        // (selects in a row on one condition share its mask: the copies'
        // updates under their live flags)
        const WhilePlan::Operand& c = o.opd[0];
        if (c.src == WhilePlan::kPacked && mask[(size_t)c.idx]) {  // the condition is a mask: where set, a's lanes
          x86::Vec Y = in(o.opd[2], 15);
          a.emit(I::kIdVblendvps, D, Y, src(o.opd[1]), v(reg[(size_t)c.idx]));
          break;
        }
        if (c.src == WhilePlan::kShared || mask14 != std::make_pair((int)c.src, c.idx)) {
          a.vpcmpeqd(v(14), in(c, 14), vmem(t_zero));
          if (q()) a.vpshufd(v(14), v(14), 0xA0);  // (the low half's answer over the lane)
          mask14 = {(int)c.src, c.idx};
        }
        x86::Vec X = in(o.opd[1], 15);
        Operand Y = src(o.opd[2]);  // (a register apart from 15, or the frame)
        a.emit(I::kIdVblendvps, D, X, Y, v(14));
        break;
      }
      default: return false;
    }
    return true;
  }

  bool emit() {
    if (!registers()) return false;
    find_masks();
    next = area;
    // Every value from before the loop the lanes start from, read now
    // (the scalar code's xmm registers are this loop's): each copy's 32
    // bits into its lane's place in the frame.
    for (const auto& cv : p.carried)
      for (Ref r : cv.slot)
        if (r < (Ref)g.remat.size() && g.remat[r]) return false;
    for (const auto& pc : p.per_copy)
      for (Ref r : pc)
        if (r < (Ref)g.remat.size() && g.remat[r]) return false;
    // The frame: each carried value's lanes in and out, each per-copy
    // value's, each shared value's 4 bytes and lanes, 4 constants' lanes.
    std::vector<Ref> sh;
    for (const auto& op : p.ops)
      for (const auto& o : op.opd)
        if (o.src == WhilePlan::kShared && std::find(sh.begin(), sh.end(), o.ref) == sh.end()) sh.push_back(o.ref);
    if (area + 32 * (2 * (int32_t)p.carried.size() + (int32_t)p.per_copy.size()) + 40 * (5 + (int32_t)sh.size()) > area_end)
      return false;
    Label skip = a.newLabel();  // (a value of unknown type that is not a sign-extended 32-bit one)
    const int es = p.es;
    // A value into rax as its lane holds it: an integer in 64-bit lanes
    // zero-extended from its low half.
    auto lane_value = [&](Ref r, CT ct, bool check) {
      g.ld(x86::rax, r);
      if (check) {
        a.movsxd(x86::rcx, x86::eax);
        a.cmp(x86::rcx, x86::rax);
        a.jne(skip);
      }
      if (es == 8 && ct != CT::f64) a.mov(x86::eax, x86::eax);
    };
    auto pack = [&](const std::vector<Ref>& refs, CT ct, bool check) {
      int32_t at = alloc(32);
      for (int c = 0; c < p.K; c++) {
        lane_value(refs[(size_t)c], ct, check);
        if (es == 8) a.mov(x86::qword_ptr(x86::rsp, at + 8 * c), x86::rax);
        else a.mov(x86::dword_ptr(x86::rsp, at + 4 * c), x86::eax);
      }
      return at;
    };
    std::vector<CT> pc_t(p.per_copy.size(), CT::i32);  // (as the ops read them)
    std::map<Ref, CT> sh_t;
    for (const auto& op : p.ops)
      for (const auto& o : op.opd) {
        if (o.src == WhilePlan::kPerCopy) pc_t[(size_t)o.idx] = o.t;
        if (o.src == WhilePlan::kShared) sh_t.emplace(o.ref, o.t);
      }
    std::vector<int32_t> c_in, p_in;
    for (const auto& cv : p.carried) c_in.push_back(pack(cv.slot, cv.t, cv.t == CT::u64));
    // (values of unknown type, taken as sign-extended i32s: checked)
    for (size_t k = 0; k < p.per_copy.size(); k++) p_in.push_back(pack(p.per_copy[k], pc_t[k], pc_t[k] == CT::u64));
    std::map<Ref, int32_t> one;
    for (auto& [r, ct] : sh_t) {
      int32_t s = alloc(8);
      lane_value(r, ct, ct == CT::u64 && !t.is_const(r));
      a.mov(x86::qword_ptr(x86::rsp, s), x86::rax);
      one[r] = s;
      shared[r] = 0;
    }
    // The scalar code's xmm values from before the loop that it reads after.
    for (Ref r = 0; r < t.loop_ref; r++)
      if (g.in_xmm(r) && g.al.last[r] > t.loop_ref) keep_x[g.al.reg[r]] = true;
    for (int j = 0; j + kFirstXmm < 16; j++)  // (xmm16-31: not this loop's)
      if (keep_x[j]) a.movsd(x86::qword_ptr(x86::rsp, g.xsave + 8 * j), x86::xmm(kFirstXmm + j));
    // Broadcast lanes (rsp is 16-aligned: unaligned moves).
    auto broadcast = [&](const x86::Mem& m32or64) {
      if (es == 8) a.vbroadcastsd(x86::ymm(14), m32or64);
      else a.vbroadcastss(v(14), m32or64);
    };
    for (auto& [r, s] : shared) {
      s = alloc(32);
      broadcast(es == 8 ? x86::qword_ptr(x86::rsp, one[r]) : x86::dword_ptr(x86::rsp, one[r]));
      a.vmovups(vmem(s), v(14));
    }
    auto splat = [&](uint64_t bits) {
      int32_t s = alloc(32);
      int32_t k = alloc(8);
      a.mov(x86::rax, Imm(es == 8 ? bits : bits & 0xffffffffu));
      a.mov(x86::qword_ptr(x86::rsp, k), x86::rax);
      broadcast(es == 8 ? x86::qword_ptr(x86::rsp, k) : x86::dword_ptr(x86::rsp, k));
      a.vmovups(vmem(s), v(14));
      return s;
    };
    t_zero = splat(0);
    t_sign = splat(es == 8 ? 0x8000000000000000ull : 0x80000000u);
    t_abs = splat(es == 8 ? 0x7fffffffffffffffull : 0x7fffffffu);
    t_one = splat(1);
    t_ones = splat(~0ull);
    for (size_t k = 0; k < p.carried.size(); k++) a.vmovups(v(creg[k]), vmem(c_in[k]));
    for (size_t k = 0; k < p.per_copy.size(); k++) a.vmovups(v(preg[k]), vmem(p_in[k]));
    for (size_t k = 0; k < p.carried.size(); k++) c_tmp.push_back(alloc(32));

    Label top = a.newLabel(), leave = a.newLabel();
    a.bind(top);
    for (size_t j = 0; j < p.ops.size(); j++) {
      if (!op(j)) return false;
      for (const auto& gd : p.guards) {
        if (gd.pos != (int)j) continue;
        x86::Vec D = v(reg[j]);
        if (gd.nz && !gd.any) {  // every lane nonzero: no lane equal to 0
          mask14 = {-1, -1};
          q() ? a.vpcmpeqq(v(14), D, vmem(t_zero)) : a.vpcmpeqd(v(14), D, vmem(t_zero));
          a.vptest(v(14), v(14));
          a.jnz(leave);
        } else {  // some lane nonzero (any, nz), or none (z)
          a.vptest(D, D);
          gd.nz ? a.jz(leave) : a.jnz(leave);
        }
      }
    }
    // Ctrl-C: the scalar loop's back edge polls and leaves.
    a.mov(x86::rax, x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, stop)));
    a.cmp(x86::byte_ptr(x86::rax), 0);
    a.jne(leave);
    for (size_t k = 0; k < p.carried.size(); k++) a.vmovaps(v(creg[k]), v(reg[(size_t)p.carried[k].val]));
    a.jmp(top);

    a.bind(leave);
    for (size_t k = 0; k < p.carried.size(); k++) a.vmovups(vmem(c_tmp[k]), v(creg[k]));
    a.vzeroupper();
    for (int j = 0; j + kFirstXmm < 16; j++)
      if (keep_x[j]) a.movsd(x86::xmm(kFirstXmm + j), x86::qword_ptr(x86::rsp, g.xsave + 8 * j));
    for (size_t k = 0; k < p.carried.size(); k++)
      for (int c = 0; c < p.K; c++) {
        x86::Mem m = x86::dword_ptr(x86::rsp, c_tmp[k] + p.es * c);  // (an integer: the low half)
        CT ct = p.carried[k].t;
        if (ct == CT::f64) a.mov(x86::rax, x86::qword_ptr(x86::rsp, c_tmp[k] + 8 * c));
        else if (ct == CT::i32 || ct == CT::u64) a.movsxd(x86::rax, m);  // (as an i32 is held in a register)
        else a.mov(x86::eax, m);
        g.put(p.carried[k].slot[(size_t)c], x86::rax);
      }
    a.bind(skip);
    return true;
  }
};

}  // namespace

bool while_lanes(Gen& g, const WhilePlan& p, int32_t area, int32_t area_end) {
  WhileLanes w{g, g.a, g.t, p, area, area_end};
  return w.emit();
}

}  // namespace kiln::jit
