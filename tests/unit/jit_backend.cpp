// The x86-64 backend: traces built by hand, compiled and run on a frame.
#include <asmjit/x86.h>
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstddef>
#include <memory>
#include <vector>

#include "jit/backend.h"
#include "jit/opt.h"
#include "vm/types/type.h"

using namespace kiln;
using namespace kiln::jit;
using bc::CT;

namespace {
asmjit::JitRuntime rt;
Ref sload(Emitter& e, int r) { return e.emit(IrOp::sload, CT::i64, kNoRef, kNoRef, kNoRef, r); }

// Ends a loop over r0 < r1 whose index is i: the increment, the exit guard
// (to `exit_pc`, with r0 written back), then peel + dce + compile.
Compiled close_loop(Trace& t, Emitter& e, std::vector<Ref>& regs, Ref i, CT ct, uint32_t exit_pc) {
  Ref next = e.emit(IrOp::add, ct, i, e.kval(1));
  regs[0] = next;
  e.guard(IrOp::guard_nz, e.emit(IrOp::lt, ct, next, sload(e, 1)), kNoRef, Snapshot{exit_pc, {{0, next}}});
  peel(t, e, regs);
  dce(t);
  Compiled c;
  REQUIRE(compile_trace(t, rt, c) == "");
  return c;
}

// Ends a loop over r0 < r1 (i64) whose index is i and whose exit writes back
// r0 and the sum r3 = acc (exit pc 7), then peel + dce + compile.
Compiled close_sum_loop(Trace& t, Emitter& e, std::vector<Ref>& regs, Ref i, Ref acc, bool listing = false) {
  regs[3] = acc;
  Ref next = e.emit(IrOp::add, CT::i64, i, e.kval(1));
  regs[0] = next;
  e.guard(IrOp::guard_nz, e.emit(IrOp::lt, CT::i64, next, sload(e, 1)), kNoRef, Snapshot{7, {{0, next}, {3, acc}}});
  peel(t, e, regs);
  dce(t);
  Compiled c;
  REQUIRE(compile_trace(t, rt, c, listing) == "");
  return c;
}

// for (; r0 < r1; r0++) r3 = r3 OP f(r0): a one-loop trace as the recorder
// would produce it, finished by peel + dce + compile.
TraceFn build(Trace& t, CT ct, bool float_acc) {
  Emitter e(t);
  std::vector<Ref> regs(4, kNoRef);
  Ref i = sload(e, 0);
  Ref v = float_acc ? e.emit(IrOp::conv, CT::i64, i, kNoRef, kNoRef, (int64_t)bc::Op::i64_f64) : i;
  Ref acc = e.emit(IrOp::add, float_acc ? CT::f64 : ct, sload(e, 3), v);
  regs[3] = acc;
  Ref next = e.emit(IrOp::add, ct, i, e.kval(1));
  regs[0] = next;
  e.guard(IrOp::guard_nz, e.emit(IrOp::lt, ct, next, sload(e, 1)), kNoRef, Snapshot{7, {{0, next}, {3, acc}}});
  peel(t, e, regs);
  dce(t);
  Compiled c;
  std::string why = compile_trace(t, rt, c, true);
  REQUIRE(why == "");
  CHECK(c.listing.find("ret") != std::string::npos);
  return c.fn;
}
}  // namespace

TEST_CASE("jit backend: an integer reduction loop exits with its snapshot written back") {
  Trace t;
  TraceFn f = build(t, CT::i64, false);
  uint64_t R[4] = {1, 1000, 0, 0};  // the recorder ran iteration 0 already
  TraceEnv env;
  CHECK(f(R, &env) == 7);
  CHECK(R[0] == 1000);
  CHECK(R[3] == 499500u - 0u);  // sum of 1..999
}

TEST_CASE("jit backend: i32 arithmetic wraps and stays sign-extended") {
  Trace t;
  TraceFn f = build(t, CT::i32, false);
  uint64_t R[4] = {0, 70000, 0, 0};
  TraceEnv env;
  CHECK(f(R, &env) == 7);
  int64_t want = 0;
  for (int64_t i = 0; i < 70000; i++) want = (int32_t)(uint32_t)((uint32_t)want + (uint32_t)i);
  CHECK((int64_t)R[3] == want);
}

TEST_CASE("jit backend: float accumulation matches C++ bit for bit") {
  Trace t;
  TraceFn f = build(t, CT::i64, true);
  uint64_t R[4] = {0, 5000, 0, std::bit_cast<uint64_t>(0.5)};
  TraceEnv env;
  CHECK(f(R, &env) == 7);
  double want = 0.5;
  for (int64_t i = 0; i < 5000; i++) want += (double)i;
  CHECK(std::bit_cast<double>(R[3]) == want);
}

// for i in range(r0, r1): data[i] = i, with a bound of 10 on the index.
static Compiled bounded_store_loop(Trace& t) {
  t.head_pc = 2;  // the loop body starts with the bound check
  Emitter e(t);
  std::vector<Ref> regs(4, kNoRef);
  Ref i = sload(e, 0);
  e.guard(IrOp::guard_ult, i, e.kval(10), Snapshot{2, {}});
  Ref addr = e.emit(IrOp::add, CT::i64, e.emit(IrOp::arg, CT::i64, kNoRef, kNoRef, kNoRef, 0),
                    e.emit(IrOp::mul, CT::i64, i, e.kval(4)));
  e.effect(IrOp::store, addr, e.emit(IrOp::conv, CT::i64, i, kNoRef, kNoRef, (int64_t)bc::Op::i64_f32),
           (int)Prim::f32);
  return close_loop(t, e, regs, i, CT::i32, 9);
}

TEST_CASE("jit backend: bounds checks, in the loop's first iteration and hoisted out of the loop") {
  Trace t;
  Compiled c = bounded_store_loop(t);
  float data[16] = {};
  uint64_t args[1] = {(uint64_t)(uintptr_t)data};
  TraceEnv env;
  env.args = args;
  SUBCASE("an in-bounds loop runs to its end without exiting") {
    uint64_t R[4] = {0, 10, 0, 0};
    CHECK(c.fn(R, &env) == 9);  // the loop's own exit
    CHECK(R[0] == 10);
    for (int k = 0; k < 10; k++) CHECK(data[k] == (float)k);
    CHECK(data[10] == 0.0f);
  }
  SUBCASE("the hoisted check leaves at the loop head before any out-of-bounds store") {
    // Entered at the last valid index, the first iteration passes its own
    // guard; the check of the loop's last index (15) then fails.
    uint64_t R[4] = {9, 16, 0, 0};
    CHECK(c.fn(R, &env) == 2);  // the loop head: the interpreter runs the iteration of index 10
    CHECK(R[0] == 10);
    CHECK(data[9] == 9.0f);
    CHECK(data[10] == 0.0f);
  }
  SUBCASE("entered past the bound, the first iteration's guard fails at its own pc") {
    uint64_t R[4] = {12, 16, 0, 0};
    CHECK(c.fn(R, &env) == 2);
    CHECK(R[0] == 12);
    CHECK(data[12] == 0.0f);
  }
}

// acc = acc * 31 + (i OP d) for i in [lo, hi), d a constant or register r2:
// the inline division code against eval_pure (the interpreter's templates).
// Signed types only: the index's i64 register is also a valid i32 register
// while it stays in i32's range.
static void check_divide(IrOp op, CT ct, int64_t lo, int64_t hi, int64_t d, bool d_const) {
  Trace t;
  Emitter e(t);
  std::vector<Ref> regs(4, kNoRef);
  Ref i = sload(e, 0);
  Ref q = e.emit(op, ct, i, d_const ? e.kval((uint64_t)d) : sload(e, 2));
  Ref acc = e.emit(IrOp::add, CT::i64, e.emit(IrOp::mul, CT::i64, sload(e, 3), e.kval(31)), q);
  Compiled c = close_sum_loop(t, e, regs, i, acc);
  uint64_t want = 0;
  for (int64_t x = lo; x < hi; x++) {
    uint64_t r;
    REQUIRE(eval_pure(op, ct, 0, (uint64_t)x, (uint64_t)d, 0, r));
    want = want * 31 + r;
  }
  uint64_t R[4] = {(uint64_t)lo, (uint64_t)hi, (uint64_t)d, 0};
  TraceEnv env;
  CHECK(c.fn(R, &env) == 7);
  CHECK(R[3] == want);
}

TEST_CASE("jit backend: inline integer division matches the interpreter (signs, -1, INT_MIN)") {
  for (IrOp op : {IrOp::div, IrOp::floordiv, IrOp::mod, IrOp::raw_mod})
    for (int64_t d : {-7, -1, 1, 3, 1000}) {
      check_divide(op, CT::i64, -50, 50, d, true);
      check_divide(op, CT::i64, -50, 50, d, false);
      check_divide(op, CT::i64, INT64_MIN, INT64_MIN + 3, d, false);
      check_divide(op, CT::i32, -50, 50, d, true);
      check_divide(op, CT::i32, -50, 50, d, false);
      check_divide(op, CT::i32, INT32_MIN, INT32_MIN + 3, d, false);
    }
}

TEST_CASE("jit backend: integer division by constants (multiply, no divide) matches the interpreter") {
  // out[i] = op(x(i), d) for x spread over the whole 32-bit range (pattern 1)
  // and around zero (pattern 0), compared with eval_pure, the interpreter's own
  // templates.
  const int64_t ds[] = {1, 2, 3, 5, 7, 10, 62, 100, 255, 256, 1000, 65535, 65536, 1000003, 1 << 30, 2147483647,
                        4294967311ll, 1ll << 40, 999999999989ll, (1ll << 62) - 57, 1ll << 62};
  const IrOp ops[] = {IrOp::div, IrOp::floordiv, IrOp::mod, IrOp::raw_mod};
  const int n = 2048;
  std::vector<uint64_t> out(n);
  uint8_t* bases[1] = {reinterpret_cast<uint8_t*>(out.data())};
  int checked = 0, wrong = 0;
  for (int pattern = 0; pattern < 2; pattern++)
    for (CT ct : {CT::i32, CT::u32, CT::i64, CT::u64})
      for (IrOp op : ops)
        for (int64_t d : ds) {
          if ((ct == CT::i32 || ct == CT::u32) && d > INT32_MAX) continue;  // not a 32-bit value
          Trace t;
          Emitter e(t);
          std::vector<Ref> regs(4, kNoRef);
          Ref i = sload(e, 0);
          uint64_t mult = ct == CT::i64 || ct == CT::u64 ? 0x9e3779b97f4a7c15ull : 2654435761u;
          Ref x = pattern ? e.emit(IrOp::mul, ct, i, e.kval(mult)) : e.emit(IrOp::sub, ct, i, e.kval(n / 2));
          Ref q = e.emit(op, ct, x, e.kval((uint64_t)d));
          Ref base = e.emit(IrOp::base, CT::i64, kNoRef, kNoRef, kNoRef, 0);
          Ref addr = e.emit(IrOp::add, CT::i64, base, e.emit(IrOp::mul, CT::i64, i, e.kval(8)));
          e.effect(IrOp::store, addr, q, (int)Prim::i64);
          Compiled c = close_loop(t, e, regs, i, CT::i64, 7);
          uint64_t R[4] = {0, n, 0, 0};
          TraceEnv env;
          env.tree_bases = bases;
          env.num_trees = 1;
          REQUIRE(c.fn(R, &env) == 7);
          for (int k = 0; k < n; k++) {
            uint64_t xv, want;
            if (pattern) eval_pure(IrOp::mul, ct, 0, (uint64_t)k, mult, 0, xv);
            else eval_pure(IrOp::sub, ct, 0, (uint64_t)k, n / 2, 0, xv);
            REQUIRE(eval_pure(op, ct, 0, xv, (uint64_t)d, 0, want));
            checked++;
            if (out[k] != want) {
              if (wrong++ < 5)
                FAIL_CHECK("op " << kIrOps[(int)op].name << " ct " << (int)ct << " x " << (int64_t)xv << " d " << d
                                 << ": jit " << (int64_t)out[k] << " interp " << (int64_t)want);
            }
          }
        }
  CHECK(wrong == 0);
  CHECK(checked == 2 * 4 * (2 * 21 + 2 * 16) * n);
}

TEST_CASE("jit backend: float negs that only fmas read fold into vfmsub, vfnmadd and vfnmsub, bit for bit") {
  if (!host_has_fma3()) return;
  // for (; r0 < r1; r0++) r3 = fma(±x, ±(x + 0.5), ±r3), x = (double)r0; bit k of m negates operand k
  for (int m = 0; m < 8; m++) {
    Trace t;
    Emitter e(t);
    std::vector<Ref> regs(4, kNoRef);
    Ref i = sload(e, 0);
    Ref x = e.emit(IrOp::conv, CT::i64, i, kNoRef, kNoRef, (int64_t)bc::Op::i64_f64);
    Ref y = e.emit(IrOp::add, CT::f64, x, e.kval((int64_t)std::bit_cast<uint64_t>(0.5)));
    auto ng = [&](Ref r, int bit) { return m & bit ? e.emit(IrOp::neg, CT::f64, r) : r; };
    Ref acc = e.emit(IrOp::fma, CT::f64, ng(x, 1), ng(y, 2), ng(sload(e, 3), 4));
    Compiled c = close_sum_loop(t, e, regs, i, acc, true);
    bool neg_ab = (m & 1) != (m >> 1 & 1), neg_c = m & 4;
    const char* want = neg_ab ? (neg_c ? "vfnmsub" : "vfnmadd") : (neg_c ? "vfmsub" : "vfmadd");
    CHECK_MESSAGE(c.listing.find(want) != std::string::npos, "m = " << m << ": no " << want);
    CHECK_MESSAGE(c.listing.find("pcmpeqd") == std::string::npos, "m = " << m << ": a neg was computed");
    CHECK_MESSAGE(c.listing.find("vxorp") == std::string::npos, "m = " << m << ": a neg was computed");
    uint64_t R[4] = {0, 300, 0, std::bit_cast<uint64_t>(0.1)};
    TraceEnv env;
    CHECK(c.fn(R, &env) == 7);
    double s = 0.1;
    for (int64_t j = 0; j < 300; j++) {
      double xv = (double)j, yv = xv + 0.5;
      s = std::fma(m & 1 ? -xv : xv, m & 2 ? -yv : yv, m & 4 ? -s : s);
    }
    CHECK_MESSAGE(std::bit_cast<double>(R[3]) == s, "m = " << m);
  }
}

TEST_CASE("jit backend: a select between floats under a float compare is a blend under the compare's mask") {
  if (!host_has_avx2()) return;
  // for (; r0 < r1; r0++) r3 += (x OP y) ? x : y + 1, x = (double)r0 - 100, y a constant (NaN too).
  // A trace that may use AVX-512 (allow_zmm, on such a host) blends under k7 with vblendmpd
  // (one uop; vblendvpd is 2-3 on Intel's cores), any other under xmm1 with vblendvpd.
  const IrOp ops[] = {IrOp::lt, IrOp::le, IrOp::eq, IrOp::ne};
  for (bool zmm : {false, true})
    for (IrOp op : ops)
      for (double y : {3.0, -0.0, std::nan("")}) {
        Trace t;
        t.allow_zmm = zmm && host_has_avx512();
        Emitter e(t);
        std::vector<Ref> regs(4, kNoRef);
        Ref i = sload(e, 0);
        Ref x = e.emit(IrOp::add, CT::f64, e.emit(IrOp::conv, CT::i64, i, kNoRef, kNoRef, (int64_t)bc::Op::i64_f64),
                       e.kval((int64_t)std::bit_cast<uint64_t>(-100.0)));
        Ref k = e.kval((int64_t)std::bit_cast<uint64_t>(y));
        Ref y1 = e.emit(IrOp::add, CT::f64, x, e.kval((int64_t)std::bit_cast<uint64_t>(1.0)));
        Ref pick = e.emit(IrOp::sel, CT::i64, e.emit(op, CT::f64, x, k), x, y1);
        Ref acc = e.emit(IrOp::add, CT::f64, sload(e, 3), pick);
        Compiled c = close_sum_loop(t, e, regs, i, acc, true);
        CHECK(c.listing.find("vcmpsd") != std::string::npos);
        CHECK(c.listing.find(t.allow_zmm ? "vblendmpd" : "vblendvpd") != std::string::npos);
        CHECK((c.listing.find("{k7}") != std::string::npos) == t.allow_zmm);
        CHECK(c.listing.find("cmov") == std::string::npos);
        uint64_t R[4] = {0, 300, 0, std::bit_cast<uint64_t>(0.25)};
        TraceEnv env;
        CHECK(c.fn(R, &env) == 7);
        double s = 0.25;
        for (int64_t j = 0; j < 300; j++) {
          double xv = (double)j - 100.0;
          bool cond = op == IrOp::lt ? xv < y : op == IrOp::le ? xv <= y : op == IrOp::eq ? xv == y : xv != y;
          s += cond ? xv : xv + 1.0;
        }
        CHECK_MESSAGE(std::bit_cast<uint64_t>(std::bit_cast<double>(R[3])) == std::bit_cast<uint64_t>(s),
                      "op " << (int)op << ", y = " << y);
      }
}

TEST_CASE("jit backend: float neg and abs are one vxorps/vandps with a mask from the constant pool") {
  if (!host_has_avx2()) return;
  // for (; r0 < r1; r0++) r3 += -(x) * 3 + abs(x - 7.5), x = (double)r0 - 100, in f64 and f32
  for (CT ct : {CT::f64, CT::f32}) {
    bool s = ct == CT::f32;
    auto k = [&](double v) { return s ? (int64_t)std::bit_cast<uint32_t>((float)v) : (int64_t)std::bit_cast<uint64_t>(v); };
    Trace t;
    Emitter e(t);
    std::vector<Ref> regs(4, kNoRef);
    Ref i = sload(e, 0);
    Ref x = e.emit(IrOp::add, ct, e.emit(IrOp::conv, CT::i64, i, kNoRef, kNoRef, (int64_t)(s ? bc::Op::i64_f32 : bc::Op::i64_f64)),
                   e.kval(k(-100.0)));
    Ref v = e.emit(IrOp::add, ct, e.emit(IrOp::mul, ct, e.emit(IrOp::neg, ct, x), e.kval(k(3.0))),
                   e.emit(IrOp::abs, ct, e.emit(IrOp::sub, ct, x, e.kval(k(7.5)))));
    Ref acc = e.emit(IrOp::add, ct, sload(e, 3), v);
    Compiled c = close_sum_loop(t, e, regs, i, acc, true);
    CHECK(c.listing.find("vxorps") != std::string::npos);
    CHECK(c.listing.find("vandps") != std::string::npos);
    CHECK(c.listing.find("pcmpeqd") == std::string::npos);
    uint64_t R[4] = {0, 300, 0, (uint64_t)k(0.5)};
    TraceEnv env;
    CHECK(c.fn(R, &env) == 7);
    double sd = 0.5;
    float sf = 0.5f;
    for (int64_t j = 0; j < 300; j++) {
      double xd = (double)j - 100.0;
      float xf = (float)j - 100.0f;
      sd += -xd * 3.0 + std::fabs(xd - 7.5);
      sf += -xf * 3.0f + std::fabs(xf - 7.5f);
    }
    if (s) CHECK(R[3] == (uint64_t)std::bit_cast<uint32_t>(sf));
    else CHECK(R[3] == std::bit_cast<uint64_t>(sd));
  }
}

TEST_CASE("jit backend: a constant added to an address that only loads and stores read is their displacement") {
  // for (; r0 < r1; r0++) { p = r2 + r0 * 32; *(i32*)(p + 28) += *(i32*)(p + 20); r3 += *(i64*)p (+ p + 20
  // when `escape`: that add is then a value of its own) }: rows as a struct-for's cell table has them.
  // (Displacements that are not multiples of 8, which frame and stack slots are.)
  for (bool escape : {false, true}) {
    Trace t;
    Emitter e(t);
    std::vector<Ref> regs(4, kNoRef);
    Ref i = sload(e, 0);
    Ref p = e.emit(IrOp::add, CT::i64, sload(e, 2), e.emit(IrOp::mul, CT::i64, i, e.kval(32)));
    Ref pb = e.emit(IrOp::add, CT::i64, p, e.kval(20));
    Ref pc = e.emit(IrOp::add, CT::i64, p, e.kval(28));
    Ref sum = e.emit(IrOp::add, CT::i32, e.emit(IrOp::load, CT::i64, pc, kNoRef, kNoRef, (int64_t)Prim::i32),
                     e.emit(IrOp::load, CT::i64, pb, kNoRef, kNoRef, (int64_t)Prim::i32));
    e.effect(IrOp::store, pc, sum, (int)Prim::i32);
    Ref acc = e.emit(IrOp::add, CT::i64, sload(e, 3), e.emit(IrOp::load, CT::i64, p, kNoRef, kNoRef, (int64_t)Prim::i64));
    if (escape) acc = e.emit(IrOp::add, CT::i64, acc, pb);
    Compiled c = close_sum_loop(t, e, regs, i, acc, true);
    auto displaced = [&](const char* d) {  // a load or store (not an lea) with displacement d
      for (size_t at = 0, end; at < c.listing.size(); at = end + 1) {
        end = c.listing.find('\n', at);
        if (end == std::string::npos) end = c.listing.size();
        std::string line = c.listing.substr(at, end - at);
        if (line.find(d) != std::string::npos && line.rfind("lea", 0) != 0) return true;
      }
      return false;
    };
    CHECK(displaced("+20]") == !escape);
    CHECK(displaced("+28]"));
    struct Row {
      int64_t a, pad;
      int32_t pad2, b, pad3, c;
    };
    static_assert(sizeof(Row) == 32 && offsetof(Row, b) == 20 && offsetof(Row, c) == 28);
    std::vector<Row> rows(50);
    for (int k = 0; k < 50; k++) rows[k] = {k * 1000, 0, 0, k, 0, 2 * k};
    uint64_t R[4] = {0, 50, (uint64_t)(uintptr_t)rows.data(), 5};
    TraceEnv env;
    CHECK(c.fn(R, &env) == 7);
    int64_t want = 5;
    for (int k = 0; k < 50; k++) {
      CHECK(rows[k].c == 3 * k);
      want += k * 1000 + (escape ? (int64_t)(uintptr_t)&rows[k].b : 0);
    }
    CHECK(R[0] == 50);
    CHECK((int64_t)R[3] == want);
  }
}

// A loop computing eight values a trace keeps in registers, with two exits
// whose snapshots hold them (the second also the index): the second exit
// stores the index and finishes with the first one's flush.
TEST_CASE("jit backend: an exit whose snapshot holds another's entries and more shares that exit's flush") {
  auto build_shared = [](Trace& t) {
    t.hoist_bounds = false;  // (the guard on r7 stays in the loop)
    Emitter e(t);
    std::vector<Ref> regs(16, kNoRef);
    Ref i = sload(e, 0);
    std::vector<std::pair<uint16_t, Ref>> eight, nine;
    for (int k = 0; k < 8; k++) eight.push_back({(uint16_t)(2 + k), e.emit(IrOp::mul, CT::i64, i, e.kval(3 + k))});
    nine = eight;
    nine.push_back({10, i});
    e.guard(IrOp::guard_ult, i, sload(e, 11), Snapshot{20, eight});                                  // i < r11
    e.guard(IrOp::guard_nz, e.emit(IrOp::ne, CT::i64, i, sload(e, 1)), kNoRef, Snapshot{21, nine});  // i != r1
    Ref next = e.emit(IrOp::add, CT::i64, i, e.kval(1));
    regs[0] = next;
    e.guard(IrOp::guard_nz, e.emit(IrOp::lt, CT::i64, next, e.kval(1000)), kNoRef, Snapshot{7, {{0, next}}});
    peel(t, e, regs);
    dce(t);
  };
  Trace t0, t1;
  build_shared(t0);
  build_shared(t1);
  Compiled plain, shared;
  REQUIRE(compile_trace(t0, rt, plain) == "");  // (no ExitInfos: every exit flushes in full)
  std::unique_ptr<ExitInfo[]> infos(new ExitInfo[t1.snaps.size()]);
  REQUIRE(compile_trace(t1, rt, shared, false, infos.get()) == "");
  CHECK(shared.code_size < plain.code_size);
  // Each exit, in the peeled iteration (i = 0) and in the loop (i = 40).
  for (int64_t at : {0, 40})
    for (int which : {0, 1}) {
      uint64_t R[12] = {0, which ? (uint64_t)at : 1000};
      R[11] = which ? 1000 : (uint64_t)at;
      TraceEnv env;
      CHECK(shared.fn(R, &env) == (which ? 21u : 20u));
      REQUIRE(env.exit != nullptr);
      CHECK(env.exit->pc == (which ? 21u : 20u));
      for (int k = 0; k < 8; k++) CHECK(R[2 + k] == (uint64_t)at * (3 + k));
      CHECK(R[10] == (which ? (uint64_t)at : 0));
    }
}

// An exit goes on through its ExitInfo::jump: the trace's exit tail (which
// records the exit and returns its pc) until a side trace is linked there,
// then straight into that trace's warm entry, the frame as the exit left it.
TEST_CASE("jit backend: an exit jumps through its ExitInfo: the exit tail, or the side trace linked there") {
  auto build = [](Trace& t, uint32_t exit_pc) {  // a loop over r0 < r1, r0 written back at its exit
    Emitter e(t);
    std::vector<Ref> regs(2, kNoRef);
    Ref next = e.emit(IrOp::add, CT::i64, sload(e, 0), e.kval(1));
    regs[0] = next;
    e.guard(IrOp::guard_nz, e.emit(IrOp::lt, CT::i64, next, sload(e, 1)), kNoRef, Snapshot{exit_pc, {{0, next}}});
    peel(t, e, regs);
    dce(t);
  };
  Trace ta, tb;
  build(ta, 7);
  build(tb, 9);
  std::unique_ptr<ExitInfo[]> infos(new ExitInfo[ta.snaps.size()]);
  Compiled a, b;
  REQUIRE(compile_trace(ta, rt, a, false, infos.get()) == "");
  REQUIRE(compile_trace(tb, rt, b) == "");  // (no ExitInfos: its exits return their pc)
  for (size_t s = 0; s < ta.snaps.size(); s++) CHECK(infos[s].jump.load() != nullptr);
  uint64_t R[2] = {0, 50};
  TraceEnv env;
  CHECK(a.fn(R, &env) == 7u);  // not linked: the tail records the exit
  REQUIRE(env.exit != nullptr);
  CHECK(env.exit->pc == 7u);
  CHECK(R[0] == 50u);
  for (size_t s = 0; s < ta.snaps.size(); s++) infos[s].jump.store(b.warm);
  R[0] = 0;
  env.exit = nullptr;
  // linked: a's exit flushes r0 = 50 and b runs on from there (51 is past
  // r1: its first guard leaves at its own pc, and nothing recorded a's exit)
  CHECK(a.fn(R, &env) == 9u);
  CHECK(env.exit == nullptr);
  CHECK(R[0] == 51u);
}
