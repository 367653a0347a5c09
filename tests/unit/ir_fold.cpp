// eval_unary/eval_binary semantics, constant_fold and eliminate_dead_code.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "vm/ir/builder.h"
#include "vm/ir/eval.h"
#include "vm/ir/passes/passes.h"

using namespace kiln;
using namespace kiln::ir;

namespace {

Const I(Prim p, int64_t v) { return Const::of_int(p, v); }
Const U(Prim p, uint64_t v) { Const c; c.prim = p; c.u = v; return c; }
Const F(Prim p, double v) { return Const::of_float(p, v); }
Type T(Prim p) { return Type::scalar(p); }

// Folds op on same-typed operands with the operand type as result (i32 for comparisons).
std::optional<Const> bin(BinaryOp op, Const a, Const b) {
  return eval_binary(op, a, b, T(is_comparison(op) ? Prim::i32 : a.prim));
}
int64_t ibin(BinaryOp op, Const a, Const b) {
  auto r = bin(op, a, b);
  REQUIRE(r.has_value());
  CHECK(r->prim == (is_comparison(op) ? Prim::i32 : a.prim));
  return r->i;
}
uint64_t ubin(BinaryOp op, Const a, Const b) {
  auto r = bin(op, a, b);
  REQUIRE(r.has_value());
  return r->u;
}
double fbin(BinaryOp op, Const a, Const b) {
  auto r = bin(op, a, b);
  REQUIRE(r.has_value());
  CHECK(r->prim == a.prim);
  return r->f;
}
Const un(UnaryOp op, Const a, Prim result) {
  auto r = eval_unary(op, a, T(result));
  REQUIRE(r.has_value());
  CHECK(r->prim == result);
  return *r;
}

}  // namespace

TEST_CASE("integer arithmetic wraps at the type's width") {
  CHECK(ibin(BinaryOp::add, I(Prim::i32, INT32_MAX), I(Prim::i32, 1)) == INT32_MIN);
  CHECK(ibin(BinaryOp::add, I(Prim::i8, 127), I(Prim::i8, 1)) == -128);
  CHECK(ibin(BinaryOp::mul, I(Prim::i8, 100), I(Prim::i8, 3)) == 44);
  CHECK(ibin(BinaryOp::sub, I(Prim::i16, -32768), I(Prim::i16, 1)) == 32767);
  CHECK(ibin(BinaryOp::mul, I(Prim::i64, INT64_MAX), I(Prim::i64, 2)) == -2);
  CHECK(ubin(BinaryOp::add, U(Prim::u8, 200), U(Prim::u8, 100)) == 44);
  CHECK(ubin(BinaryOp::sub, U(Prim::u8, 0), U(Prim::u8, 1)) == 255);
  CHECK(ubin(BinaryOp::sub, U(Prim::u32, 0), U(Prim::u32, 1)) == 0xFFFFFFFFu);  // zero-extended
  CHECK(ubin(BinaryOp::mul, U(Prim::u64, UINT64_MAX), U(Prim::u64, UINT64_MAX)) == 1);
}

TEST_CASE("division: C div, Python floordiv and mod, C raw_mod") {
  Prim p = Prim::i32;
  CHECK(ibin(BinaryOp::div, I(p, -7), I(p, 2)) == -3);
  CHECK(ibin(BinaryOp::floordiv, I(p, -7), I(p, 2)) == -4);
  CHECK(ibin(BinaryOp::floordiv, I(p, 7), I(p, -2)) == -4);
  CHECK(ibin(BinaryOp::floordiv, I(p, -7), I(p, -2)) == 3);
  CHECK(ibin(BinaryOp::floordiv, I(p, 6), I(p, -2)) == -3);
  CHECK(ibin(BinaryOp::mod, I(p, -7), I(p, 2)) == 1);
  CHECK(ibin(BinaryOp::mod, I(p, 7), I(p, -2)) == -1);
  CHECK(ibin(BinaryOp::mod, I(p, -7), I(p, -2)) == -1);
  CHECK(ibin(BinaryOp::mod, I(p, -6), I(p, 2)) == 0);
  CHECK(ibin(BinaryOp::raw_mod, I(p, -7), I(p, 2)) == -1);
  CHECK(ibin(BinaryOp::floordiv, I(Prim::i8, -128), I(Prim::i8, 3)) == -43);
  CHECK(ubin(BinaryOp::div, U(Prim::u32, 0xFFFFFFFF), U(Prim::u32, 2)) == 0x7FFFFFFF);
  CHECK(ubin(BinaryOp::mod, U(Prim::u8, 250), U(Prim::u8, 7)) == 5);
  // INT_MIN / -1 wraps rather than trapping, at every width.
  CHECK(ibin(BinaryOp::div, I(p, INT32_MIN), I(p, -1)) == INT32_MIN);
  CHECK(ibin(BinaryOp::div, I(Prim::i64, INT64_MIN), I(Prim::i64, -1)) == INT64_MIN);
  CHECK(ibin(BinaryOp::floordiv, I(Prim::i64, INT64_MIN), I(Prim::i64, -1)) == INT64_MIN);
  CHECK(ibin(BinaryOp::mod, I(Prim::i64, INT64_MIN), I(Prim::i64, -1)) == 0);
  CHECK(ibin(BinaryOp::raw_mod, I(Prim::i8, -128), I(Prim::i8, -1)) == 0);
  // Division by zero traps at run time, so it is never folded.
  for (BinaryOp op : {BinaryOp::div, BinaryOp::floordiv, BinaryOp::mod, BinaryOp::raw_mod}) {
    CHECK_FALSE(bin(op, I(p, 5), I(p, 0)).has_value());
    CHECK_FALSE(bin(op, U(Prim::u64, 5), U(Prim::u64, 0)).has_value());
  }
}

TEST_CASE("integer pow") {
  Prim p = Prim::i32;
  CHECK(ibin(BinaryOp::pow, I(p, 3), I(p, 4)) == 81);
  CHECK(ibin(BinaryOp::pow, I(p, -2), I(p, 3)) == -8);
  CHECK(ibin(BinaryOp::pow, I(p, 2), I(p, 31)) == INT32_MIN);
  CHECK(ibin(BinaryOp::pow, I(p, 0), I(p, 0)) == 1);
  CHECK(ibin(BinaryOp::pow, I(Prim::i8, 3), I(Prim::i8, 5)) == -13);  // 243 wraps
  CHECK(ubin(BinaryOp::pow, U(Prim::u64, 2), U(Prim::u64, 64)) == 0);
  CHECK_FALSE(bin(BinaryOp::pow, I(p, 2), I(p, -1)).has_value());
}

TEST_CASE("shifts and bitwise ops") {
  Prim p = Prim::i32;
  CHECK(ibin(BinaryOp::bit_shl, I(p, 1), I(p, 31)) == INT32_MIN);
  CHECK(ibin(BinaryOp::bit_shl, I(p, 1), I(p, 32)) == 0);
  CHECK(ibin(BinaryOp::bit_shl, I(p, 1), I(p, -1)) == 0);  // negative count: huge
  CHECK(ibin(BinaryOp::bit_shl, I(Prim::i64, 1), I(Prim::i64, 63)) == INT64_MIN);
  CHECK(ibin(BinaryOp::bit_shr, I(p, -1), I(p, 28)) == 15);
  CHECK(ibin(BinaryOp::bit_shr, I(p, -1), I(p, 32)) == 0);
  CHECK(ibin(BinaryOp::bit_shr, I(Prim::i8, -128), I(Prim::i8, 1)) == 64);
  CHECK(ibin(BinaryOp::bit_sar, I(p, -16), I(p, 2)) == -4);
  CHECK(ibin(BinaryOp::bit_sar, I(p, -1), I(p, 40)) == -1);
  CHECK(ibin(BinaryOp::bit_sar, I(p, 5), I(p, 40)) == 0);
  CHECK(ibin(BinaryOp::bit_sar, I(Prim::i64, INT64_MIN), I(Prim::i64, 63)) == -1);
  CHECK(ubin(BinaryOp::bit_sar, U(Prim::u8, 0x80), U(Prim::u8, 1)) == 0xC0);  // ashr on the pattern
  CHECK(ubin(BinaryOp::bit_shl, U(Prim::u8, 0xFF), U(Prim::u8, 4)) == 0xF0);
  // The count may have another integer type; the result keeps the left one.
  auto r = eval_binary(BinaryOp::bit_shl, I(Prim::i16, 3), U(Prim::u8, 2), T(Prim::i16));
  REQUIRE(r);
  CHECK(r->i == 12);
  CHECK_FALSE(eval_binary(BinaryOp::bit_shl, I(Prim::i16, 3), U(Prim::u8, 2), T(Prim::u8)));
  CHECK(ibin(BinaryOp::bit_and, I(p, 12), I(p, 10)) == 8);
  CHECK(ibin(BinaryOp::bit_or, I(p, 12), I(p, 10)) == 14);
  CHECK(ibin(BinaryOp::bit_xor, I(p, 12), I(p, 10)) == 6);
  CHECK(un(UnaryOp::bit_not, I(Prim::i8, 0), Prim::i8).i == -1);
  CHECK(un(UnaryOp::bit_not, U(Prim::u16, 0), Prim::u16).u == 65535);
  CHECK_FALSE(bin(BinaryOp::bit_and, F(Prim::f32, 1), F(Prim::f32, 1)));
}

TEST_CASE("comparisons give i32 0/1, max and min") {
  Prim p = Prim::i32;
  CHECK(ibin(BinaryOp::cmp_lt, I(p, -1), I(p, 0)) == 1);
  CHECK(ibin(BinaryOp::cmp_lt, U(Prim::u32, 0xFFFFFFFF), U(Prim::u32, 0)) == 0);
  CHECK(ibin(BinaryOp::cmp_ge, I(Prim::i8, -1), I(Prim::i8, -1)) == 1);
  CHECK(ibin(BinaryOp::cmp_ne, I(Prim::i64, 1), I(Prim::i64, 2)) == 1);
  double nan = std::nan("");
  CHECK(ibin(BinaryOp::cmp_eq, F(Prim::f32, nan), F(Prim::f32, nan)) == 0);
  CHECK(ibin(BinaryOp::cmp_ne, F(Prim::f32, nan), F(Prim::f32, nan)) == 1);
  CHECK(ibin(BinaryOp::cmp_le, F(Prim::f64, nan), F(Prim::f64, 1)) == 0);
  CHECK(ibin(BinaryOp::cmp_gt, F(Prim::f16, 1), F(Prim::f16, 0.5)) == 1);
  CHECK(ibin(BinaryOp::max, I(p, -3), I(p, 2)) == 2);
  CHECK(ubin(BinaryOp::max, U(Prim::u32, 0xFFFFFFFF), U(Prim::u32, 2)) == 0xFFFFFFFF);
  CHECK(ibin(BinaryOp::min, I(Prim::i8, -3), I(Prim::i8, 2)) == -3);
  CHECK(fbin(BinaryOp::max, F(Prim::f32, nan), F(Prim::f32, 1)) == 1);
  CHECK(fbin(BinaryOp::min, F(Prim::f64, 2), F(Prim::f64, nan)) == 2);
  CHECK_FALSE(std::signbit(fbin(BinaryOp::max, F(Prim::f64, -0.0), F(Prim::f64, 0.0))));
  CHECK(std::signbit(fbin(BinaryOp::min, F(Prim::f64, 0.0), F(Prim::f64, -0.0))));
  // Operands of different types are never folded (the frontend casts first).
  CHECK_FALSE(eval_binary(BinaryOp::add, I(Prim::i32, 1), I(Prim::i64, 1), T(Prim::i64)));
  CHECK_FALSE(eval_binary(BinaryOp::add, I(Prim::i32, 1), I(Prim::i32, 1), T(Prim::i64)));
}

TEST_CASE("float arithmetic rounds at its width") {
  float a = 0.1f, b = 0.2f;
  CHECK(fbin(BinaryOp::add, F(Prim::f32, a), F(Prim::f32, b)) == (double)(a + b));
  CHECK(fbin(BinaryOp::add, F(Prim::f32, a), F(Prim::f32, b)) != (double)a + (double)b);
  CHECK(fbin(BinaryOp::add, F(Prim::f64, 0.1), F(Prim::f64, 0.2)) == 0.30000000000000004);
  CHECK(fbin(BinaryOp::add, F(Prim::f32, 16777216), F(Prim::f32, 1)) == 16777216);
  CHECK(std::isinf(fbin(BinaryOp::mul, F(Prim::f32, 1e30), F(Prim::f32, 1e30))));
  CHECK(std::isinf(fbin(BinaryOp::div, F(Prim::f32, 1), F(Prim::f32, 0))));  // no trap
  CHECK(fbin(BinaryOp::add, F(Prim::f16, 1), F(Prim::f16, 0.0009765625)) == 1.0009765625);
  CHECK(fbin(BinaryOp::add, F(Prim::f16, 1), F(Prim::f16, 0.000244140625)) == 1);
  CHECK(std::isinf(fbin(BinaryOp::add, F(Prim::f16, 65504), F(Prim::f16, 16))));  // tie to even: overflow
  CHECK(fbin(BinaryOp::add, F(Prim::bf16, 1), F(Prim::bf16, 0.00390625)) == 1);   // tie to even
  CHECK(fbin(BinaryOp::add, F(Prim::bf16, 1), F(Prim::bf16, 0.0078125)) == 1.0078125);
  CHECK(fbin(BinaryOp::pow, F(Prim::f64, 2), F(Prim::f64, 0.5)) == std::sqrt(2.0));
  CHECK(fbin(BinaryOp::atan2, F(Prim::f64, 1), F(Prim::f64, 1)) == std::atan2(1.0, 1.0));
  CHECK(fbin(BinaryOp::atan2, F(Prim::f32, 1), F(Prim::f32, 2)) == (double)std::atan2(1.0f, 2.0f));
  CHECK_FALSE(bin(BinaryOp::atan2, I(Prim::i32, 1), I(Prim::i32, 1)));
}

TEST_CASE("float floordiv and mod follow Python") {
  for (Prim p : {Prim::f32, Prim::f64}) {
    CHECK(fbin(BinaryOp::floordiv, F(p, -7), F(p, 2)) == -4);
    CHECK(fbin(BinaryOp::floordiv, F(p, 7), F(p, 2)) == 3);
    CHECK(fbin(BinaryOp::mod, F(p, -7), F(p, 2)) == 1);
    CHECK(fbin(BinaryOp::mod, F(p, 7), F(p, -2)) == -1);
    CHECK(fbin(BinaryOp::mod, F(p, 5.5), F(p, 2)) == 1.5);
    CHECK(fbin(BinaryOp::raw_mod, F(p, -7), F(p, 2)) == -1);
    CHECK(std::signbit(fbin(BinaryOp::mod, F(p, 4), F(p, -2))));  // zero takes the divisor's sign
    CHECK(std::isnan(fbin(BinaryOp::mod, F(p, 1), F(p, 0))));
  }
  CHECK(fbin(BinaryOp::mod, F(Prim::f64, -0.1), F(Prim::f64, 1)) == -0.1 + 1.0);
}

TEST_CASE("unary ops") {
  CHECK(un(UnaryOp::neg, I(Prim::i32, INT32_MIN), Prim::i32).i == INT32_MIN);
  CHECK(un(UnaryOp::abs, I(Prim::i8, -128), Prim::i8).i == -128);
  CHECK(un(UnaryOp::abs, I(Prim::i16, -5), Prim::i16).i == 5);
  CHECK(un(UnaryOp::neg, U(Prim::u8, 1), Prim::u8).u == 255);
  CHECK(un(UnaryOp::logic_not, I(Prim::i64, 0), Prim::i32).i == 1);
  CHECK(un(UnaryOp::logic_not, F(Prim::f32, 0.5), Prim::i32).i == 0);
  CHECK(un(UnaryOp::sqrt, F(Prim::f32, 2), Prim::f32).f == (double)std::sqrt(2.0f));
  CHECK(un(UnaryOp::sqrt, F(Prim::f64, 2), Prim::f64).f == std::sqrt(2.0));
  CHECK(un(UnaryOp::rsqrt, F(Prim::f32, 4), Prim::f32).f == 0.5);
  CHECK(un(UnaryOp::sin, F(Prim::f32, 1), Prim::f32).f == (double)std::sin(1.0f));
  CHECK(un(UnaryOp::exp, F(Prim::f64, 1), Prim::f64).f == std::exp(1.0));
  CHECK(un(UnaryOp::floor, F(Prim::f64, -1.5), Prim::f64).f == -2);
  CHECK(un(UnaryOp::ceil, F(Prim::f32, -1.5), Prim::f32).f == -1);
  CHECK(un(UnaryOp::round, F(Prim::f64, 2.5), Prim::f64).f == 3);
  CHECK(un(UnaryOp::round, F(Prim::f64, -2.5), Prim::f64).f == -3);
  CHECK(un(UnaryOp::floor, I(Prim::i32, 7), Prim::i32).i == 7);
  CHECK(un(UnaryOp::abs, F(Prim::f16, -0.5), Prim::f16).f == 0.5);
  CHECK(un(UnaryOp::sqrt, F(Prim::f16, 2), Prim::f16).f == 1.4140625);  // f32 sqrt, rounded to f16
  CHECK_FALSE(eval_unary(UnaryOp::sqrt, I(Prim::i32, 4), T(Prim::i32)));
  CHECK_FALSE(eval_unary(UnaryOp::bit_not, F(Prim::f32, 1), T(Prim::f32)));
  CHECK_FALSE(eval_unary(UnaryOp::neg, I(Prim::i32, 1), T(Prim::i64)));
}

TEST_CASE("casts") {
  CHECK(un(UnaryOp::cast_value, F(Prim::f32, 3.7), Prim::i32).i == 3);
  CHECK(un(UnaryOp::cast_value, F(Prim::f32, -3.7), Prim::i32).i == -3);
  CHECK(un(UnaryOp::cast_value, F(Prim::f64, 1e10), Prim::i32).i == INT32_MAX);  // saturates
  CHECK(un(UnaryOp::cast_value, F(Prim::f64, std::nan("")), Prim::i64).i == 0);
  CHECK(un(UnaryOp::cast_value, I(Prim::i32, -1), Prim::u8).u == 255);
  CHECK(un(UnaryOp::cast_value, I(Prim::i32, 300), Prim::i8).i == 44);
  CHECK(un(UnaryOp::cast_value, I(Prim::i32, 16777217), Prim::f32).f == 16777216);
  CHECK(un(UnaryOp::cast_value, F(Prim::f64, 0.1), Prim::f32).f == (double)0.1f);
  CHECK(un(UnaryOp::cast_value, F(Prim::f64, 0.1), Prim::f16).f == 0.0999755859375);
  CHECK(un(UnaryOp::cast_value, U(Prim::u32, 0xFFFFFFFF), Prim::i64).i == 0xFFFFFFFFll);
  CHECK(un(UnaryOp::cast_bits, F(Prim::f32, 1), Prim::i32).i == 0x3f800000);
  CHECK(un(UnaryOp::cast_bits, F(Prim::f16, 1), Prim::u16).u == 0x3c00);
  CHECK(un(UnaryOp::cast_bits, I(Prim::i32, 0x40490fdb), Prim::f32).f == (double)3.14159274101257324f);
  CHECK(un(UnaryOp::cast_bits, I(Prim::i64, -1), Prim::u64).u == UINT64_MAX);
  CHECK_FALSE(eval_unary(UnaryOp::cast_bits, I(Prim::i64, 1), T(Prim::f32)));
}

// ---- the passes -------------------------------------------------------------

namespace {
const Type i32 = Type::scalar(Prim::i32);
PrintPart val(int op) { return PrintPart{true, op, ""}; }
}  // namespace

TEST_CASE("constant_fold folds chains and casts, DCE removes what is left") {
  Kernel k;
  Builder b(k.root);
  Stmt* two = b.const_int(Prim::i32, 2);
  Stmt* three = b.const_int(Prim::i32, 3);
  Stmt* prod = b.binary(BinaryOp::mul, two, three);
  Stmt* sum = b.binary(BinaryOp::add, prod, two);
  Stmt* f = b.unary(UnaryOp::cast_value, sum, Type::scalar(Prim::f32));
  Stmt* half = b.const_float(Prim::f32, 0.5);
  Stmt* g = b.binary(BinaryOp::add, f, half);
  b.print({val(0)}, {g});
  CHECK(constant_fold(k));
  verify(k);
  CHECK_FALSE(constant_fold(k));
  CHECK(eliminate_dead_code(k));
  verify(k);
  CHECK_FALSE(eliminate_dead_code(k));
  CHECK(print_kernel(k) ==
        "kernel {\n"
        "  <f32> $0 = const [8.5]\n"
        "  print $0\n"
        "}\n");
}

TEST_CASE("constant_fold leaves traps and non-constants alone") {
  Kernel k;
  k.args.push_back({"x", i32});
  Builder b(k.root);
  Stmt* one = b.const_int(Prim::i32, 1);
  Stmt* zero = b.const_int(Prim::i32, 0);
  Stmt* d = b.binary(BinaryOp::div, one, zero);
  Stmt* x = b.arg(0, i32);
  Stmt* s = b.binary(BinaryOp::add, x, one);
  b.print({val(0), val(1)}, {d, s});
  CHECK_FALSE(constant_fold(k));
  CHECK(d->kind == StmtKind::binary);
  CHECK(s->kind == StmtKind::binary);
}

TEST_CASE("select with a constant condition") {
  Kernel k;
  k.args.push_back({"x", i32});
  k.args.push_back({"y", i32});
  Builder b(k.root);
  Stmt* c = b.const_int(Prim::i32, 0);
  Stmt* x = b.arg(0, i32);
  Stmt* y = b.arg(1, i32);
  Stmt* sel = b.select(c, x, y);
  Stmt* p = b.print({val(0)}, {sel});
  CHECK(constant_fold(k));
  CHECK(p->ops[0] == y);
  CHECK(k.root.stmts.size() == 4);  // the select is gone
  verify(k);
}

TEST_CASE("if with a constant condition splices the live branch") {
  Kernel k;
  k.args.push_back({"x", i32});
  Builder b(k.root);
  Stmt* x = b.arg(0, i32);
  Stmt* w = b.while_();
  b.in(*w->body);
  Stmt* t = b.const_int(Prim::i32, 5);
  Stmt* iff = b.if_(t, true);
  b.in(*iff->body);
  Stmt* inner = b.const_int(Prim::i32, 7);
  Stmt* nested = b.if_(b.binary(BinaryOp::cmp_eq, inner, x));
  b.in(*nested->body).break_(w);  // the loop link must survive the splice
  b.in(*iff->else_body).print({val(0)}, {t});
  Stmt* z = b.in(*w->body).const_int(Prim::i32, 0);
  Stmt* dead_if = b.if_(z);       // false, no else: disappears
  b.in(*dead_if->body).print({val(0)}, {z});
  b.in(*w->body).continue_(w);

  CHECK(constant_fold(k));
  verify(k);
  CHECK(inner->parent == w->body.get());
  CHECK(nested->parent == w->body.get());
  CHECK(nested->body->owner == nested);
  CHECK_FALSE(constant_fold(k));
  CHECK(eliminate_dead_code(k));
  verify(k);
  CHECK(print_kernel(k) ==
        "kernel {\n"
        "  <i32> $0 = arg[0]\n"
        "  $1 : while true {\n"
        "    <i32> $2 = const [7]\n"
        "    <i32> $3 = cmp_eq $2 $0\n"
        "    $4 : if $3 {\n"
        "      $5 : break\n"
        "    }\n"
        "    $6 : continue\n"
        "  }\n"
        "}\n");
}

TEST_CASE("a folded condition removes a nested if in the same sweep") {
  Kernel k;
  Builder b(k.root);
  Stmt* c = b.binary(BinaryOp::cmp_eq, b.const_int(Prim::i8, 7), b.const_int(Prim::i8, 5));
  Stmt* iff = b.if_(c, true);
  b.in(*iff->body).print({val(0)}, {c});
  b.in(*iff->else_body).print({val(0)}, {c});
  CHECK(constant_fold(k));
  verify(k);
  CHECK(eliminate_dead_code(k));
  CHECK(print_kernel(k) ==
        "kernel {\n"
        "  <i32> $0 = const [0]\n"
        "  print $0\n"
        "}\n");
}

TEST_CASE("DCE: unused pure statements, dead locals, unreachable code, empty ifs") {
  Kernel k;
  k.args.push_back({"x", i32});
  Builder b(k.root);
  Stmt* x = b.arg(0, i32);
  b.binary(BinaryOp::add, x, x);  // unused
  Stmt* kept = b.alloca(i32);     // read: stays with its stores
  b.local_store(kept, x);
  Stmt* gone = b.alloca(i32);     // never read: goes with its stores and their values
  b.local_store(gone, b.binary(BinaryOp::mul, x, x));
  Stmt* f = b.range_for(x, x);
  b.in(*f->body).local_store(gone, x);
  b.in(k.root);
  Stmt* iff = b.if_(b.binary(BinaryOp::cmp_lt, x, x), true);  // both branches empty
  (void)iff;
  Stmt* empty_for = b.range_for(x, x);  // does nothing
  (void)empty_for;
  Access acc;
  acc.snode = "S1place<i32>";
  Stmt* p = b.global_ptr(acc, Prim::i32, {x});
  b.global_load(p);              // unused load goes
  b.atomic(AtomicOp::add, p, x); // side effect stays
  Stmt* w = b.while_();          // may not terminate: stays
  b.in(*w->body).break_(w);
  b.print({val(0)}, {x});        // unreachable
  b.in(k.root).print({val(0)}, {b.local_load(kept)});
  b.return_({x});
  b.print({val(0)}, {x});        // unreachable

  CHECK(eliminate_dead_code(k));
  verify(k);
  CHECK(print_kernel(k) ==
        "kernel {\n"
        "  <i32> $0 = arg[0]\n"
        "  <i32> $1 = alloca\n"
        "  $2 : local store [$1 <- $0]\n"
        "  <*i32> $3 = global ptr [S1place<i32>], index [$0] checked\n"
        "  <i32> $4 = atomic add($3, $0)\n"
        "  $5 : while true {\n"
        "    $6 : break\n"
        "  }\n"
        "  <i32> $7 = local load [$1]\n"
        "  print $7\n"
        "  $9 : return $0\n"
        "}\n");
  CHECK_FALSE(eliminate_dead_code(k));
}

TEST_CASE("DCE keeps an if with an else branch and a loop that stores") {
  Kernel k;
  k.args.push_back({"x", i32});
  Builder b(k.root);
  Stmt* x = b.arg(0, i32);
  Stmt* iff = b.if_(x, true);
  b.in(*iff->else_body).print({val(0)}, {x});
  Stmt* f = b.in(k.root).range_for(x, x);
  Access acc;
  acc.snode = "S1place<i32>";
  b.in(*f->body).global_store(b.global_ptr(acc, Prim::i32, {b.loop_index(f)}), x);
  CHECK_FALSE(eliminate_dead_code(k));
  CHECK(k.root.stmts.size() == 3);
}

TEST_CASE("constant_fold: selects resolved inside a spliced branch rename every later use") {
  Kernel k;
  k.args.push_back({"x", i32});
  k.args.push_back({"y", i32});
  Builder b(k.root);
  Stmt* x = b.arg(0, i32);
  Stmt* y = b.arg(1, i32);
  Stmt* one = b.const_int(Prim::i32, 1);
  Stmt* zero = b.const_int(Prim::i32, 0);
  Stmt* iff = b.if_(one, true);
  b.in(*iff->body);
  Stmt* s1 = b.select(one, x, y);   // -> x
  Stmt* s2 = b.select(zero, y, s1); // -> s1 -> x
  Stmt* inner = b.if_(zero, true);  // the else branch is spliced in too
  b.in(*inner->else_body).print({val(0)}, {s2});
  b.in(*iff->else_body).print({val(0)}, {y});
  b.in(k.root);
  Stmt* sum = b.binary(BinaryOp::add, x, y);
  b.print({val(0)}, {sum});
  CHECK(constant_fold(k));
  verify(k);
  CHECK(print_kernel(k) ==
        "kernel {\n"
        "  <i32> $0 = arg[0]\n"
        "  <i32> $1 = arg[1]\n"
        "  <i32> $2 = const [1]\n"
        "  <i32> $3 = const [0]\n"
        "  print $0\n"
        "  <i32> $5 = add $0 $1\n"
        "  print $5\n"
        "}\n");
}

TEST_CASE("DCE: a store whose local loses its last read later in the sweep goes in another round") {
  // x = 1; v = x (unused); x = 2: the sweep meets `x = 2` while the load
  // still reads x, then removes the load; a second round removes the rest.
  Kernel k;
  Builder b(k.root);
  Stmt* x = b.alloca(i32);
  b.local_store(x, b.const_int(Prim::i32, 1));
  b.local_load(x);
  b.local_store(x, b.const_int(Prim::i32, 2));
  // A local read by a print keeps its stores, nested ones included.
  Stmt* y = b.alloca(i32);
  Stmt* c = b.const_int(Prim::i32, 3);
  Stmt* iff = b.if_(c);
  b.in(*iff->body).local_store(y, c);
  b.in(k.root).print({val(0)}, {b.local_load(y)});
  CHECK(eliminate_dead_code(k));
  verify(k);
  CHECK_FALSE(eliminate_dead_code(k));
  CHECK(print_kernel(k) ==
        "kernel {\n"
        "  <i32> $0 = alloca\n"
        "  <i32> $1 = const [3]\n"
        "  $2 : if $1 {\n"
        "    $3 : local store [$0 <- $1]\n"
        "  }\n"
        "  <i32> $4 = local load [$0]\n"
        "  print $4\n"
        "}\n");
}

TEST_CASE("DCE on a long block removes every dead statement and keeps the others in order") {
  Kernel k;
  Builder b(k.root);
  std::vector<Stmt*> kept;
  for (int i = 0; i < 2000; i++) {
    Stmt* c = b.const_int(Prim::i32, i);
    b.binary(BinaryOp::add, c, c);  // unused
    if (i % 3 == 0) kept.push_back(b.print({val(0)}, {c}));
  }
  CHECK(eliminate_dead_code(k));
  verify(k);
  std::vector<Stmt*> prints;
  for (auto& s : k.root.stmts)
    if (s->kind == StmtKind::print) prints.push_back(s.get());
  CHECK(prints == kept);
  CHECK(k.root.stmts.size() == 2 * kept.size());  // each print and its constant
}
