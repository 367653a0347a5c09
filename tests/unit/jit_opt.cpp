// The trace optimizer on traces built directly: fold and CSE on emit,
// invariant hoisting by peeling, DCE.
#include <doctest/doctest.h>

#include "jit/opt.h"
#include "jit/parse.h"
#include "jit_text.h"
#include "vm/types/type.h"

using namespace kiln;
using namespace kiln::jit;
using bc::CT;

namespace {
int count_after_loop(const Trace& t, IrOp op) {
  int n = 0;
  for (Ref i = t.loop_ref + 1; i < (Ref)t.ins.size(); i++) n += t.ins[i].op == op && t.ins[i].live;
  return n;
}
Ref sload(Emitter& e, int r) { return e.emit(IrOp::sload, CT::i64, kNoRef, kNoRef, kNoRef, r); }
}  // namespace

TEST_CASE("jit opt: constants fold with the interpreter's semantics") {
  Trace t;
  Emitter e(t);
  Ref s = e.emit(IrOp::add, CT::i32, e.kval(0x7fffffff), e.kval(1));
  REQUIRE(t.is_const(s));
  CHECK(t.ins[s].k == (int64_t)INT32_MIN);  // i32 wraps, register is sign-extended
  Ref m = e.emit(IrOp::mod, CT::i32, e.kval((uint64_t)-7), e.kval(3));
  CHECK(t.ins[m].k == 2);  // Python mod
  Ref d = e.emit(IrOp::div, CT::i32, e.kval(1), e.kval(0));
  CHECK_FALSE(t.is_const(d));  // division by zero is left to run time
}

TEST_CASE("jit opt: a float divided by a power of two whose reciprocal is normal is a product") {
  Trace t;
  Emitter e(t);
  Ref x = sload(e, 0);
  auto as = [&](CT ct, uint64_t divisor) {  // (the op, its constant's bits)
    Ref r = e.emit(IrOp::div, ct, x, e.kval(divisor));
    return std::make_pair(t.ins[r].op, (uint64_t)t.ins[t.ins[r].b].k);
  };
  CHECK(as(CT::f32, 0x44800000) == std::make_pair(IrOp::mul, uint64_t(0x3a800000)));  // 1024 -> 2^-10
  CHECK(as(CT::f32, 0xbf000000) == std::make_pair(IrOp::mul, uint64_t(0xc0000000)));  // -0.5 -> -2
  CHECK(as(CT::f32, 0x7e800000) == std::make_pair(IrOp::mul, uint64_t(0x00800000)));  // 2^126 -> the least normal
  CHECK(as(CT::f64, 0x4020000000000000) == std::make_pair(IrOp::mul, uint64_t(0x3fc0000000000000)));  // 8 -> 0.125
  CHECK(as(CT::f32, 0x7f000000).first == IrOp::div);  // 2^127: its reciprocal is subnormal
  CHECK(as(CT::f32, 0x00400000).first == IrOp::div);  // a subnormal power of two
  CHECK(as(CT::f32, 0x40400000).first == IrOp::div);  // 3
  CHECK(as(CT::f32, 0x7f800000).first == IrOp::div);  // infinity
  CHECK(as(CT::i32, 4).first == IrOp::div);           // integers: C division, not this
}

TEST_CASE("jit opt: identical pure ops are one instruction and loads CSE only within an epoch") {
  Trace t;
  Emitter e(t);
  Ref a = sload(e, 0), b = sload(e, 1);
  CHECK(sload(e, 0) == a);
  Ref x = e.emit(IrOp::mul, CT::f32, a, b);
  CHECK(e.emit(IrOp::mul, CT::f32, a, b) == x);
  CHECK(e.emit(IrOp::mul, CT::f64, a, b) != x);
  Ref l1 = e.emit(IrOp::load, CT::i64, a, kNoRef, kNoRef, (int)Prim::f32);
  CHECK(e.emit(IrOp::load, CT::i64, a, kNoRef, kNoRef, (int)Prim::f32) == l1);
  e.effect(IrOp::store, b, x, (int)Prim::f32);
  CHECK(e.emit(IrOp::load, CT::i64, a, kNoRef, kNoRef, (int)Prim::f32) != l1);
  Ref z = e.emit(IrOp::add, CT::i64, a, e.kval(0));
  CHECK(z == a);
}

TEST_CASE("jit opt: if-conversion's probes find earlier loads and guards and add nothing") {
  Trace t;
  Emitter e(t);
  Ref a = sload(e, 0), b = sload(e, 1), n = e.kval(300);
  CHECK(e.loaded(a, (int)Prim::f32) == kNoRef);
  Ref l1 = e.emit(IrOp::load, CT::i64, a, kNoRef, kNoRef, (int)Prim::f32);
  CHECK_FALSE(e.implied(IrOp::guard_ult, b, n));
  REQUIRE(e.guard(IrOp::guard_ult, b, n, Snapshot{}));
  size_t size = t.ins.size();
  CHECK(e.loaded(a, (int)Prim::f32) == l1);
  CHECK(e.loaded(a, (int)Prim::i32) == kNoRef);  // another type: another load
  CHECK(e.loaded(b, (int)Prim::f32) == kNoRef);
  CHECK(e.implied(IrOp::guard_ult, b, n));
  CHECK_FALSE(e.implied(IrOp::guard_ult, a, n));
  CHECK(e.implied(IrOp::guard_ult, e.kval(3), n));         // a constant that passes
  CHECK_FALSE(e.implied(IrOp::guard_ult, e.kval(300), n));  // ... and one that fails
  CHECK(t.ins.size() == size + 1);                         // (the probes added only kval 3)
  e.effect(IrOp::store, b, l1, (int)Prim::f32);
  CHECK(e.loaded(a, (int)Prim::f32) == kNoRef);             // a store since: it may have changed
}

TEST_CASE("jit opt: peeling hoists invariants and carries the index in a phi") {
  // for i in range(r0, r1): x[i] = arg0 * 2 (address base + i*4)
  Trace t;
  Emitter e(t);
  std::vector<Ref> regs(6, kNoRef);
  Ref i = sload(e, 0);
  regs[0] = i;
  Ref two = e.emit(IrOp::mul, CT::f32, e.emit(IrOp::arg, CT::i64, kNoRef, kNoRef, kNoRef, 0), e.kval(0x40000000));
  Ref base = e.emit(IrOp::base, CT::i64, kNoRef, kNoRef, kNoRef, 0);
  e.guard(IrOp::guard_ult, i, e.kval(100), Snapshot{5, {}});
  Ref addr = e.emit(IrOp::add, CT::i64, base, e.emit(IrOp::mul, CT::i64, i, e.kval(4)));
  e.effect(IrOp::store, addr, two, (int)Prim::f32);
  regs[3] = two;
  regs[4] = addr;
  Ref next = e.emit(IrOp::add, CT::i32, i, e.kval(1));
  regs[0] = next;
  Snapshot s{9, {{0, next}, {3, two}, {4, addr}}};
  e.guard(IrOp::guard_nz, e.emit(IrOp::lt, CT::i32, next, sload(e, 1)), kNoRef, s);
  peel(t, e, regs);
  dce(t);
  REQUIRE(t.loop_ref > 0);
  CHECK(count_after_loop(t, IrOp::arg) == 0);     // invariant: stays before the loop
  CHECK(count_after_loop(t, IrOp::base) == 0);
  CHECK(count_after_loop(t, IrOp::store) == 1);   // effects repeat
  // the index varies, but its bound check holds for the whole loop once it
  // holds for the loop's first and last index: checked before `loop` (jit/bounds.h)
  CHECK(count_after_loop(t, IrOp::guard_ult) == 0);
  CHECK(count_after_loop(t, IrOp::phi) == 2);     // i and the address are carried
  bool mul_f32_in_loop = false;
  for (Ref r = t.loop_ref; r < (Ref)t.ins.size(); r++)
    mul_f32_in_loop |= t.ins[r].op == IrOp::mul && t.ins[r].t == CT::f32;
  CHECK_FALSE(mul_f32_in_loop);
  // The loop's exit snapshot holds the current values of everything written.
  const Ins& last_guard = t.ins[t.ins.size() - 3];
  REQUIRE(last_guard.op == IrOp::guard_nz);
  CHECK(t.snaps[last_guard.snap].regs.size() == 3);
  CHECK(dump_trace(t).find("loop") != std::string::npos);
}

TEST_CASE("jit opt: DCE drops values nothing observes") {
  Trace t;
  Emitter e(t);
  std::vector<Ref> regs(2, kNoRef);
  Ref i = sload(e, 0);
  Ref unused = e.emit(IrOp::mul, CT::i64, i, i);
  Ref next = e.emit(IrOp::add, CT::i64, i, e.kval(1));
  regs[0] = next;
  e.guard(IrOp::guard_nz, e.emit(IrOp::lt, CT::i64, next, sload(e, 1)), kNoRef, Snapshot{3, {{0, next}}});
  peel(t, e, regs);
  dce(t);
  CHECK_FALSE(t.ins[unused].live);
  CHECK(t.ins[next].live);
}

TEST_CASE("jit opt: DCE keeps what only the back edge's exit reads, with its operands") {
  // r1 = fd[2] * 2 is computed once and read by no instruction, only by the
  // loop head's snapshot: its load and address must be kept too.
  Trace t;
  Emitter e(t);
  std::vector<Ref> regs(3, kNoRef);
  Ref i = sload(e, 0);
  Ref addr = e.emit(IrOp::add, CT::i64, e.emit(IrOp::base, CT::i64, kNoRef, kNoRef, kNoRef, 0), e.kval(16));
  Ref x = e.emit(IrOp::mul, CT::f64, e.emit(IrOp::load, CT::i64, addr, kNoRef, kNoRef, (int)Prim::f64),
                 e.kval(0x4000000000000000ull));
  regs[1] = x;
  Ref next = e.emit(IrOp::add, CT::i64, i, e.kval(1));
  regs[0] = next;
  e.guard(IrOp::guard_nz, e.emit(IrOp::lt, CT::i64, next, sload(e, 2)), kNoRef, Snapshot{3, {{0, next}}});
  // r1 is dead where the loop is left (pc 3), live at the head (pc 0).
  peel(t, e, regs, [](uint32_t pc, uint16_t r) { return !(pc == 3 && r == 1); });
  dce(t);
  REQUIRE(t.loop_snap >= 0);
  bool reads_x = false;
  for (auto& [reg, ref] : t.snaps[t.loop_snap].regs) reads_x |= ref == x;
  REQUIRE(reads_x);
  CHECK(t.ins[x].live);
  CHECK(t.ins[t.ins[x].a].live);  // the load
  CHECK(t.ins[addr].live);        // and its address
}

// The optimizer on traces written as text (jit/parse.h): what stays in the
// loop after folding, CSE, peeling and DCE.
using kiln::jit::test::loop_ops;
using kiln::jit::test::optimized;

TEST_CASE("jit opt (text): saxpy keeps only the varying work in the loop") {
  Trace t = optimized(R"(
    i = sload r0
    a = arg 0
    guard_ult i #1024 -> 2 { }
    xb = base 0
    guard_nz xb -> 3 { }
    off = mul i64 i #4
    xa = add i64 xb off
    x = load xa f32
    ax = mul f32 a x
    yb = add i64 xb #4096
    ya = add i64 yb off
    y = load ya f32
    s = add f32 ax y
    store ya s f32
    n = add i32 i #1
    hi = sload r1
    c = lt i32 n hi
    guard_nz c -> 17 { r0=n }
    end r0=n
  )");
  REQUIRE(t.loop_ref > 0);
  // the argument, the base, the y offset and the bound check (for the first
  // and last index) are hoisted; two loads, the arithmetic, the store and the
  // loop test repeat
  CHECK(loop_ops(t) == "mul add load mul add load add store add lt guard_nz phi ");
}

TEST_CASE("jit opt (text): constants fold, identical expressions are one, dead code goes") {
  Trace t = optimized(R"(
    i = sload r0
    k = mul i32 #6 #7
    a = add i32 i k
    b = add i32 i k
    unused = mul i64 a b
    s = sub i32 a b
    n = add i32 i #1
    c = lt i32 n #100
    guard_nz c -> 9 { r1=s }
    end r0=n r1=s
  )");
  std::string dump = dump_trace(t);
  CHECK(dump.find("#42") != std::string::npos);       // 6 * 7 folded
  CHECK(dump.find("mul       0001") == std::string::npos);
  bool unused_live = false;
  for (const Ins& in : t.ins) unused_live |= in.live && in.op == IrOp::mul && in.t == CT::i64;
  CHECK_FALSE(unused_live);
  CHECK(loop_ops(t) == "add sub add lt guard_nz phi phi ");  // a and b are one add
}

TEST_CASE("jit opt (text): parse errors name the line") {
  Trace t;
  Emitter e(t);
  CHECK(parse_trace("x = frobnicate i32 #1 #2\n", t, e).error.find("line 1: unknown op") == 0);
  CHECK(parse_trace("x = add i32 y #2\n", t, e).error.find("bad operand") != std::string::npos);
  CHECK(parse_trace("guard_nz #1\n", t, e).error.find("-> PC") != std::string::npos);
  CHECK(parse_trace("c = sload i64 r0\nf = conv c f32_to_nothing\n", t, e).error.find("line 2: needs a conversion op") == 0);
}

TEST_CASE("jit opt (text): // and % by powers of two, sel on x == 0, constants on the right") {
  Trace t = optimized(R"(
    i = sload r0
    a = floordiv i64 i #8
    b = mod i32 i #16
    c = floordiv u32 i #4
    z = eq i64 b #0
    s = sel z a c
    m = mul i64 #3 s
    n = add i32 i #1
    hi = sload r1
    k = lt i32 n hi
    guard_nz k -> 9 { r0=n r2=m }
    end r0=n r2=m
  )");
  std::string ops = loop_ops(t);
  CHECK(ops.find("floordiv") == std::string::npos);
  CHECK(ops.find("mod") == std::string::npos);
  CHECK(ops.find("sar") != std::string::npos);   // signed floor division
  CHECK(ops.find("shr") != std::string::npos);   // unsigned
  CHECK(ops.find("band") != std::string::npos);  // Python's mod is a mask for every sign
  CHECK(ops.find("eq") == std::string::npos);    // sel reads b itself, arms swapped
  bool const_right = false;
  for (const Ins& in : t.ins)
    if (in.live && in.op == IrOp::mul) const_right = t.is_const(in.b) && !t.is_const(in.a);
  CHECK(const_right);
}

TEST_CASE("jit opt (text): adding 0 to an i32 op's result is that result, to a register's entry value is not") {
  // ndrange indices are `i % n + 0`: the op's result is already sign-extended.
  // An sload's bits are whatever the frame holds: its + 0 keeps the i32 fix.
  Trace t = optimized(R"(
    i = sload r0
    m = raw_mod i32 i #48
    j = add i32 m #0
    e = add i32 i #0
    n = add i32 i #1
    hi = sload r1
    k = lt i32 n hi
    guard_nz k -> 9 { r0=n r2=j r3=e }
    end r0=n r2=j r3=e
  )");
  int adds_of_zero = 0;
  for (const Ins& in : t.ins)
    if (in.live && in.op == IrOp::add && t.is_const(in.b) && t.ins[in.b].k == 0) adds_of_zero++;
  // The sload's + 0, in the peeled iteration only: in the loop, i is the
  // previous n, an i32 add's result.
  CHECK(adds_of_zero == 1);
  CHECK(loop_ops(t).find("raw_mod") != std::string::npos);
}
