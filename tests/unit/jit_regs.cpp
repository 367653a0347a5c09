// The backend's float registers: with more floats live than xmm2-15 hold, an
// AVX-512 host keeps them in xmm16-31 (EVEX forms; a float select blends
// under k7), and the same trace compiled without (Trace::allow_zmm false, as
// KILN_JIT=zmm=0 or an AVX2 host) leaves the rest in stack slots. Both give
// the same bits, at the loop's exit and at a side exit that flushes them.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "jit/backend.h"
#include "jit/opt.h"
#include "jit/regalloc.h"
#include "vm/types/type.h"

using namespace kiln;
using namespace kiln::jit;
using bc::CT;

namespace {
asmjit::JitRuntime rt;
constexpr int K = 24;  // f64 values live at once
Ref sload(Emitter& e, int r) { return e.emit(IrOp::sload, CT::i64, kNoRef, kNoRef, kNoRef, r); }
Ref f64k(Emitter& e, double v) { return e.kval(std::bit_cast<uint64_t>(v)); }
Ref cvt(Emitter& e, Ref v, bc::Op op, CT t) { return e.emit(IrOp::conv, t, v, kNoRef, kNoRef, (int64_t)op); }

// for (; r0 < r1; r0++): v[k] = x * (1 + k / 8) + (k - 11.5) for x = (double)r0,
// all 24 read again in reverse order (so all live at once): r3 += v[k] < v[k+5]
// ? sqrt(|v[k]|) : v[k+5]; out[r0] = v[13] (out at r5); r4 = an f32 select of
// two of them times a third; halfway, a guard v[20] < r2 leaves (pc 9) with
// r3 so far, r4, v[9] and v[22] in r6, r7.
Compiled many_floats(bool zmm, bool listing) {
  Trace t;
  t.allow_zmm = zmm && host_has_avx512();
  Emitter e(t);
  std::vector<Ref> regs(8, kNoRef);
  Ref i = sload(e, 0);
  Ref x = cvt(e, i, bc::Op::i64_f64, CT::f64);
  Ref v[K];
  for (int k = 0; k < K; k++)
    v[k] = e.emit(IrOp::add, CT::f64, e.emit(IrOp::mul, CT::f64, x, f64k(e, 1 + k / 8.0)), f64k(e, k - 11.5));
  Ref addr = e.emit(IrOp::add, CT::i64, sload(e, 5), e.emit(IrOp::mul, CT::i64, i, e.kval(8)));
  e.effect(IrOp::store, addr, v[13], (int)Prim::f64);
  Ref fa = cvt(e, v[1], bc::Op::f64_f32, CT::f32), fb = cvt(e, v[2], bc::Op::f64_f32, CT::f32);
  Ref fsel = e.emit(IrOp::sel, CT::i64, e.emit(IrOp::lt, CT::f32, fa, fb), fb, fa);
  Ref f = e.emit(IrOp::mul, CT::f32, fsel, cvt(e, v[6], bc::Op::f64_f32, CT::f32));
  // (converted late: its register is one of the high ones on AVX-512)
  Ref y = cvt(e, e.emit(IrOp::add, CT::i64, i, e.kval(7)), bc::Op::i64_f64, CT::f64);
  Ref s = e.emit(IrOp::add, CT::f64, sload(e, 3), y);
  for (int k = K - 1; k >= 0; k--) {
    Ref o = v[(k + 5) % K];
    Ref root = e.emit(IrOp::sqrt, CT::f64, e.emit(IrOp::abs, CT::f64, v[k]));
    s = e.emit(IrOp::add, CT::f64, s, e.emit(IrOp::sel, CT::i64, e.emit(IrOp::lt, CT::f64, v[k], o), root, o));
    if (k == K / 2)
      e.guard(IrOp::guard_nz, e.emit(IrOp::lt, CT::f64, v[20], sload(e, 2)), kNoRef,
              Snapshot{9, {{0, i}, {3, s}, {4, f}, {6, v[9]}, {7, v[22]}}});
  }
  regs[3] = s;
  regs[4] = f;
  Ref next = e.emit(IrOp::add, CT::i64, i, e.kval(1));
  regs[0] = next;
  e.guard(IrOp::guard_nz, e.emit(IrOp::lt, CT::i64, next, sload(e, 1)), kNoRef,
          Snapshot{7, {{0, next}, {3, s}, {4, f}}});
  peel(t, e, regs);
  dce(t);
  Compiled c;
  REQUIRE(compile_trace(t, rt, c, listing) == "");
  return c;
}

bool names_high_xmm(const std::string& listing) {
  for (int n = 16; n < 32; n++)
    if (listing.find("xmm" + std::to_string(n)) != std::string::npos) return true;
  return false;
}

struct Run {
  uint64_t pc, R[8];
  std::vector<double> out;
};
Run run(const Compiled& c, int64_t lo, int64_t hi, double limit) {
  Run r{};
  r.out.assign(200, 0.0);
  uint64_t R[8] = {(uint64_t)lo, (uint64_t)hi, std::bit_cast<uint64_t>(limit), std::bit_cast<uint64_t>(0.5), 0,
                   (uint64_t)(uintptr_t)r.out.data(), 0, 0};
  TraceEnv env;
  r.pc = c.fn(R, &env);
  for (int k = 0; k < 8; k++) r.R[k] = R[k];
  return r;
}
}  // namespace

TEST_CASE("jit registers: 24 live f64s take xmm16-31 on AVX-512 and give the bits of the stack-slot code") {
  Compiled hi = many_floats(true, true), lo = many_floats(false, true);
  if (host_has_avx512()) {
    CHECK(names_high_xmm(hi.listing));
    CHECK(hi.listing.find("vblendmpd") != std::string::npos);
    CHECK(hi.listing.find("{k7}") != std::string::npos);
    CHECK(hi.listing.find("vblendvpd") == std::string::npos);
  }
  CHECK(!names_high_xmm(lo.listing));
  // The reference, one operation at a time (volatile: no contraction into fmas).
  auto value = [](int64_t i, int k) {
    volatile double p = (double)i * (1 + k / 8.0);
    return p + (k - 11.5);
  };
  for (double limit : {1e9, 500.0}) {
    Run a = run(hi, 1, 180, limit), b = run(lo, 1, 180, limit);
    CHECK(a.pc == b.pc);
    for (int k = 0; k < 8; k++)
      if (k != 5) CHECK_MESSAGE(a.R[k] == b.R[k], "r" << k << ", limit " << limit);
    CHECK(a.out == b.out);
    double s = 0.5;
    float f = 0;
    int64_t i = 1, stop = 180;
    bool left = false;
    for (; i < 180 && !left; i++) {
      double v[K];
      for (int k = 0; k < K; k++) v[k] = value(i, k);
      CHECK(a.out[i] == v[13]);
      float fa = (float)v[1], fb = (float)v[2];
      f = (fa < fb ? fb : fa) * (float)v[6];
      s += (double)(i + 7);
      for (int k = K - 1; k >= 0; k--) {
        double o = v[(k + 5) % K];
        s += v[k] < o ? std::sqrt(std::fabs(v[k])) : o;
        if (k == K / 2 && !(v[20] < limit)) {
          left = true;
          stop = i;
          CHECK(std::bit_cast<double>(a.R[6]) == v[9]);
          CHECK(std::bit_cast<double>(a.R[7]) == v[22]);
          break;
        }
      }
    }
    CHECK(a.pc == (limit < 1e9 ? 9u : 7u));
    CHECK(std::bit_cast<double>(a.R[3]) == s);
    CHECK(std::bit_cast<float>((uint32_t)a.R[4]) == f);
    CHECK(a.R[0] == (uint64_t)(left ? stop : 180));
  }
}

// Ten integers read once at the end, then a chain of twenty values each read
// at once by the next: linear scan in order gave the first eight their
// registers for the whole trace and left the chain in stack slots (a store
// and a load a link). The ones worth least per position held give theirs up.
TEST_CASE("jit registers: a chain read at once takes the registers of values held long for one read") {
  Trace t;
  Emitter e(t);
  Ref held[10];
  for (int k = 0; k < 10; k++) held[k] = sload(e, k);
  Ref x = held[0];
  std::vector<Ref> chain;
  for (int j = 0; j < 20; j++) {
    x = e.emit(IrOp::bxor, CT::i64, e.emit(IrOp::add, CT::i64, x, e.kval(j + 1)), e.kval(5));
    chain.push_back(t.ins[x].a);
    chain.push_back(x);
  }
  Ref sum = x;
  for (int k = 1; k < 10; k++) sum = e.emit(IrOp::add, CT::i64, sum, held[k]);
  e.emit(IrOp::sub, CT::i64, sum, e.kval(1));  // (reads sum: it is a value too)
  Allocation al = allocate_registers(t);
  for (Ref c : chain) CHECK_MESSAGE(al.reg[c] >= 0, "chain value " << c);
  int in_slots = 0;
  for (Ref h : held) in_slots += al.reg[h] < 0;
  CHECK(in_slots >= 2);  // (10 values, 8 registers, the chain holding one)
}

// for (; r0 < r1; r0++): ten integers v[k] = r0 * (k + 3) + k, then a call
// (f64 -> i16 is not inlined) while all ten are live, then out[r0] = the
// call's result + sum of v[k] * (k + 1) (out at r5). With rsi and rdi among
// the general registers, the call saves the caller-saved ones holding
// values first and loads its argument after: the sums come out right.
TEST_CASE("jit registers: values in rsi, rdi and r8-r11 live across a call") {
  Trace t;
  Emitter e(t);
  std::vector<Ref> regs(8, kNoRef);
  Ref i = sload(e, 0);
  Ref v[10];
  for (int k = 0; k < 10; k++)
    v[k] = e.emit(IrOp::add, CT::i64, e.emit(IrOp::mul, CT::i64, i, e.kval(k + 3)), e.kval(k));
  Ref c = cvt(e, cvt(e, i, bc::Op::i64_f64, CT::f64), bc::Op::f64_i16, CT::i64);
  Ref s = c;
  for (int k = 0; k < 10; k++) s = e.emit(IrOp::add, CT::i64, s, e.emit(IrOp::mul, CT::i64, v[k], e.kval(k + 1)));
  Ref addr = e.emit(IrOp::add, CT::i64, sload(e, 5), e.emit(IrOp::mul, CT::i64, i, e.kval(8)));
  e.effect(IrOp::store, addr, s, (int)Prim::i64);
  Ref next = e.emit(IrOp::add, CT::i64, i, e.kval(1));
  regs[0] = next;
  e.guard(IrOp::guard_nz, e.emit(IrOp::lt, CT::i64, next, sload(e, 1)), kNoRef, Snapshot{7, {{0, next}}});
  peel(t, e, regs);
  dce(t);
  Compiled cc;
  REQUIRE(compile_trace(t, rt, cc, true) == "");
  CHECK(cc.listing.find("call") != std::string::npos);
  bool homes = cc.listing.find(", rsi\n") != std::string::npos || cc.listing.find(", rdi\n") != std::string::npos;
  CHECK_MESSAGE(homes, cc.listing);
  std::vector<int64_t> out(40000, 0);
  uint64_t R[8] = {1, 40000, 0, 0, 0, (uint64_t)(uintptr_t)out.data(), 0, 0};
  TraceEnv env;
  CHECK(cc.fn(R, &env) == 7u);
  for (int64_t x = 1; x < 40000; x++) {
    int64_t want = (int16_t)x;  // (in range below 32768; saturated above)
    if (x > 32767) want = 32767;
    for (int k = 0; k < 10; k++) want += (x * (k + 3) + k) * (k + 1);
    if (out[x] != want) {
      CHECK_MESSAGE(out[x] == want, "r0 " << x);
      break;
    }
  }
}
