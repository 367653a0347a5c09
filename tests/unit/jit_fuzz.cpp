// Differential fuzzing of optimizer + backend: random loops of typed pure
// ops over four carried registers (i32, i64, f32, f64), compiled as a trace
// and compared bit for bit with the same loop run through eval_pure (the
// interpreter's templates). Deterministic seeds, so a failure reproduces.
#include <asmjit/x86.h>
#include <doctest/doctest.h>

#include <bit>
#include <cstdlib>
#include <cstring>
#include <random>

#include "jit/backend.h"
#include "jit/opt.h"

using namespace kiln;
using namespace kiln::jit;
using bc::CT;
using bc::Op;

namespace {

asmjit::JitRuntime rt;
constexpr int kRegs = 4;                       // r2..r5
const CT kRegType[kRegs] = {CT::i32, CT::i64, CT::f32, CT::f64};

// One generated op: operands are indices into the value list (inputs first).
struct Gen {
  IrOp op;
  CT t;
  int a, b, c;
  int64_t k;
  CT result;
};

bool is_f(CT t) { return t == CT::f32 || t == CT::f64; }

// A conversion op from CT `from`, with the CT it produces.
bool pick_conv(std::mt19937_64& rng, CT from, Op& op, CT& to) {
  switch (from) {
    case CT::i32: { Op o[] = {Op::i64_f32, Op::i64_f64, Op::sext8, Op::zext16}; op = o[rng() % 4]; break; }
    case CT::i64: { Op o[] = {Op::i64_f64, Op::sext32, Op::i64_f32, Op::u64_f64}; op = o[rng() % 4]; break; }
    case CT::f32: { Op o[] = {Op::f32_f64, Op::f32_i32, Op::f32_i64}; op = o[rng() % 3]; break; }
    case CT::f64: { Op o[] = {Op::f64_f32, Op::f64_i32, Op::f64_i64, Op::f64_u8}; op = o[rng() % 4]; break; }
    default: return false;
  }
  switch (op) {
    case Op::i64_f32: case Op::f64_f32: to = CT::f32; break;
    case Op::i64_f64: case Op::u64_f64: case Op::f32_f64: to = CT::f64; break;
    case Op::sext8: case Op::zext16: case Op::f32_i32: case Op::f64_i32: case Op::f64_u8: to = CT::i32; break;
    case Op::sext32: to = CT::i32; break;
    default: to = CT::i64; break;
  }
  if (op == Op::sext32) to = CT::i32;
  return true;
}

std::vector<Gen> generate(std::mt19937_64& rng, int n, std::vector<CT>& types) {
  const IrOp bin[] = {IrOp::add, IrOp::sub, IrOp::mul, IrOp::max, IrOp::min, IrOp::lt, IrOp::le,
                      IrOp::eq, IrOp::ne, IrOp::band, IrOp::bor, IrOp::bxor, IrOp::div, IrOp::floordiv,
                      IrOp::mod, IrOp::raw_mod, IrOp::shl, IrOp::sar};
  std::vector<Gen> out;
  auto pick = [&](CT t) {  // a value of type t, preferring recent ones
    for (int tries = 0; tries < 8; tries++) {
      int i = (int)(types.size() - 1 - rng() % std::min<size_t>(types.size(), 6));
      if (types[i] == t) return i;
    }
    for (int i = (int)types.size() - 1; i >= 0; i--)
      if (types[i] == t) return i;
    return -1;
  };
  for (int g = 0; g < n; g++) {
    int x = (int)(rng() % types.size());
    CT t = types[x];
    Gen e{IrOp::add, t, x, -1, -1, 0, t};
    unsigned kind = rng() % 10;
    if (kind < 6) {
      e.op = bin[rng() % (sizeof bin / sizeof bin[0])];
      bool int_only = e.op == IrOp::band || e.op == IrOp::bor || e.op == IrOp::bxor || e.op == IrOp::shl ||
                      e.op == IrOp::sar;
      if (int_only && is_f(t)) e.op = IrOp::add;
      e.b = pick(t);
      if (e.op == IrOp::lt || e.op == IrOp::le || e.op == IrOp::eq || e.op == IrOp::ne) e.result = CT::i32;
      bool divides = e.op == IrOp::div || e.op == IrOp::floordiv || e.op == IrOp::mod || e.op == IrOp::raw_mod;
      if (divides && !is_f(t)) {
        // A divisor that is never zero: b | 1 (computed as its own op).
        out.push_back(Gen{IrOp::bor, t, e.b, -2, -1, 1, t});
        types.push_back(t);
        e.b = (int)types.size() - 1;
      }
    } else if (kind < 8) {
      IrOp un[] = {IrOp::neg, IrOp::abs, IrOp::lnot, IrOp::sqrt, IrOp::floor};
      e.op = un[rng() % 5];
      if (!is_f(t) && (e.op == IrOp::sqrt || e.op == IrOp::floor)) e.op = IrOp::neg;
      if (e.op == IrOp::lnot) e.result = CT::i32;
    } else if (kind < 9) {
      Op c;
      CT to;
      if (!pick_conv(rng, t, c, to)) continue;
      e.op = IrOp::conv;
      e.k = (int64_t)c;
      e.result = to;
    } else {
      e.op = IrOp::sel;
      e.a = pick(CT::i32);
      if (e.a < 0) continue;
      e.b = x;
      e.c = pick(t);
      e.t = CT::i64;
      e.result = t;
    }
    out.push_back(e);
    types.push_back(e.result);
  }
  return out;
}

uint64_t random_value(std::mt19937_64& rng, CT t) {
  int64_t small = (int64_t)(rng() % 2001) - 1000;
  bool extreme = rng() % 8 == 0;
  switch (t) {
    case CT::i32: return (uint64_t)(int64_t)(extreme ? (int32_t)rng() : (int32_t)small);
    case CT::i64: return extreme ? rng() : (uint64_t)small;
    case CT::f32: return std::bit_cast<uint32_t>(extreme ? std::bit_cast<float>((uint32_t)rng()) : (float)small / 7.0f);
    default: return std::bit_cast<uint64_t>(extreme ? std::bit_cast<double>(rng()) : (double)small / 7.0);
  }
}

void run_case(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<CT> types(kRegType, kRegType + kRegs);
  std::vector<Gen> prog = generate(rng, 4 + (int)(rng() % 20), types);
  // Which value each register takes at the end of an iteration.
  int next[kRegs];
  for (int r = 0; r < kRegs; r++) {
    next[r] = r;
    for (int v = (int)types.size() - 1; v >= kRegs; v--)
      if (types[v] == kRegType[r] && rng() % 2) {
        next[r] = v;
        break;
      }
  }
  uint64_t init[kRegs];
  for (int r = 0; r < kRegs; r++) init[r] = random_value(rng, kRegType[r]);
  int64_t iters = 1 + (int64_t)(rng() % 5);

  // Reference: the loop run through eval_pure.
  uint64_t ref[kRegs];
  std::memcpy(ref, init, sizeof ref);
  for (int64_t it = 0; it < iters; it++) {
    std::vector<uint64_t> val(ref, ref + kRegs);
    for (const Gen& g : prog) {
      uint64_t a = val[g.a], b = g.b == -2 ? 1 : g.b >= 0 ? val[g.b] : 0, c = g.c >= 0 ? val[g.c] : 0, out = 0;
      REQUIRE(eval_pure(g.op, g.t, g.k, a, b, c, out));
      val.push_back(out);
    }
    for (int r = 0; r < kRegs; r++) ref[r] = val[next[r]];
  }

  // The trace: the same body recorded once, then peeled, DCE'd, compiled.
  Trace t;
  Emitter e(t);
  std::vector<Ref> regs(2 + kRegs, kNoRef);
  Ref i = e.emit(IrOp::sload, CT::i64, kNoRef, kNoRef, kNoRef, 0);
  std::vector<Ref> val;
  for (int r = 0; r < kRegs; r++) val.push_back(e.emit(IrOp::sload, CT::i64, kNoRef, kNoRef, kNoRef, 2 + r));
  for (const Gen& g : prog) {
    Ref b = g.b == -2 ? e.kval(1) : g.b >= 0 ? val[g.b] : kNoRef;
    val.push_back(e.emit(g.op, g.t, val[g.a], b, g.c >= 0 ? val[g.c] : kNoRef, g.k));
  }
  for (int r = 0; r < kRegs; r++) regs[2 + r] = val[next[r]];
  Ref n = e.emit(IrOp::add, CT::i64, i, e.kval(1));
  regs[0] = n;
  Snapshot s{9, {}};
  for (int r = 0; r < (int)regs.size(); r++)
    if (regs[r] != kNoRef && !(t.ins[regs[r]].op == IrOp::sload && t.ins[regs[r]].k == r))
      s.regs.push_back({(uint16_t)r, regs[r]});
  e.guard(IrOp::guard_nz, e.emit(IrOp::lt, CT::i64, n, e.emit(IrOp::sload, CT::i64, kNoRef, kNoRef, kNoRef, 1)),
          kNoRef, s);
  peel(t, e, regs);
  dce(t);
  Compiled c;
  REQUIRE(compile_trace(t, rt, c) == "");
  uint64_t R[2 + kRegs] = {0, (uint64_t)iters};
  std::memcpy(R + 2, init, sizeof init);
  TraceEnv env;
  REQUIRE(c.fn(R, &env) == 9);
  for (int r = 0; r < kRegs; r++) {
    INFO("seed " << seed << " register r" << 2 + r << "\n" << dump_trace(t));
    CHECK(R[2 + r] == ref[r]);
  }
  rt.release(c.fn);
}

}  // namespace

TEST_CASE("jit fuzz: random typed loops compute what the interpreter's templates compute") {
  uint64_t n = 3000;
  if (const char* e = std::getenv("KILN_JIT_FUZZ_CASES")) n = std::strtoull(e, nullptr, 10);
  for (uint64_t seed = 1; seed <= n; seed++) run_case(seed);
}
