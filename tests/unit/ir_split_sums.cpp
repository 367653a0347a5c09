// split_sums (fast_math's split reductions, docs/fast_math.md): which sums
// split, and the rotating partials they get.
#include <doctest/doctest.h>

#include "vm/ir/builder.h"
#include "vm/ir/passes/passes.h"

using namespace kiln;
using namespace kiln::ir;

namespace {

// for i in range(n): s = s <op> x (x: argument 1), then print s; `prefix`
// also prints the running value inside the loop.
std::string split(Prim p, bool prefix, bool twice = false) {
  Kernel k;
  Type t = Type::scalar(p);
  k.args = {{"n", Type::scalar(Prim::i32)}, {"x", t}};
  Builder b(k.root);
  Stmt* n = b.arg(0, Type::scalar(Prim::i32));
  Stmt* x = b.arg(1, t);
  Stmt* s = b.alloca(t);
  b.local_store(s, b.const_float(p, 1.0));
  Stmt* loop = b.range_for(b.const_int(Prim::i32, 0), n);
  Builder in(*loop->body);
  for (int r = 0; r < (twice ? 2 : 1); r++) {
    Stmt* v = in.binary(BinaryOp::add, in.local_load(s), x);
    in.local_store(s, v);
    if (prefix) in.print({PrintPart{true, 0, ""}}, {v});
  }
  b.print({PrintPart{true, 0, ""}}, {b.local_load(s)});
  bool changed = split_sums(k);
  verify(k);
  return (changed ? "split\n" : "kept\n") + print_kernel(k);
}

}  // namespace

TEST_CASE("split_sums gives an f32 loop sum sixteen rotating partials") {
  std::string ir = split(Prim::f32, false);
  CHECK(ir.rfind("split\n", 0) == 0);
  // sixteen partials start at -0.0 before the loop
  size_t loop = ir.find("for in range");
  CHECK(ir.find("<f32> $6 = const [-0]") < loop);
  CHECK(ir.find("$38 : local store [$37 <- $6]") < loop);
  // the add reads p0, p1..p15 move down one, the sum goes to p15
  CHECK(ir.find("<f32> $40 = local load [$7]\n    <f32> $41 = add $40 $1\n    <f32> $42 = local load [$9]\n"
                "    $43 : local store [$7 <- $42]") != std::string::npos);
  CHECK(ir.find("$72 : local store [$37 <- $41]\n  }") != std::string::npos);
  // after the loop, pairwise: (((p0 + p1) + (p2 + p3)) + ((p4 + p5) + (p6 + p7))) +
  // (((p8 + p9) + (p10 + p11)) + ((p12 + p13) + (p14 + p15))) into s
  CHECK(ir.find("<f32> $89 = add $73 $74\n  <f32> $90 = add $75 $76\n") != std::string::npos);
  CHECK(ir.find("<f32> $96 = add $87 $88\n  <f32> $97 = add $89 $90\n  <f32> $98 = add $91 $92\n"
                "  <f32> $99 = add $93 $94\n  <f32> $100 = add $95 $96\n  <f32> $101 = add $97 $98\n"
                "  <f32> $102 = add $99 $100\n  <f32> $103 = add $101 $102\n"
                "  <f32> $104 = local load [$2]\n  <f32> $105 = add $104 $103") != std::string::npos);
  // after the loop: 15 adds of partials, one into s
  size_t close = ir.rfind("  }\n");
  size_t adds = 0;
  for (size_t at = ir.find("= add", close); at != std::string::npos; at = ir.find("= add", at + 1)) adds++;
  CHECK(adds == 16);
}

TEST_CASE("split_sums gives f64 eight partials") {
  std::string ir = split(Prim::f64, false);
  size_t close = ir.rfind("  }\n");
  size_t adds = 0;
  for (size_t at = ir.find("= add", close); at != std::string::npos; at = ir.find("= add", at + 1)) adds++;
  CHECK(adds == 8);
}

TEST_CASE("split_sums keeps prefix sums, two updates and ints in order") {
  CHECK(split(Prim::f32, true).rfind("kept\n", 0) == 0);
  CHECK(split(Prim::f32, false, true).rfind("kept\n", 0) == 0);
  CHECK(split(Prim::f16, false).rfind("kept\n", 0) == 0);
}
