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

TEST_CASE("split_sums gives an f32 loop sum eight rotating partials") {
  std::string ir = split(Prim::f32, false);
  CHECK(ir.rfind("split\n", 0) == 0);
  // eight partials start at -0.0 before the loop
  size_t loop = ir.find("for in range");
  CHECK(ir.find("<f32> $6 = const [-0]") < loop);
  CHECK(ir.find("$22 : local store [$21 <- $6]") < loop);
  // the add reads p0, p1..p7 move down one, the sum goes to p7
  CHECK(ir.find("<f32> $24 = local load [$7]\n    <f32> $25 = add $24 $1\n    <f32> $26 = local load [$9]\n"
                "    $27 : local store [$7 <- $26]") != std::string::npos);
  CHECK(ir.find("$40 : local store [$21 <- $25]\n  }") != std::string::npos);
  // after the loop: ((p0 + p1) + (p2 + p3)) + ((p4 + p5) + (p6 + p7)) into s
  CHECK(ir.find("<f32> $53 = add $49 $50\n  <f32> $54 = add $51 $52\n  <f32> $55 = add $53 $54\n"
                "  <f32> $56 = local load [$2]\n  <f32> $57 = add $56 $55") != std::string::npos);
  // after the loop: 7 adds of partials, one into s
  size_t close = ir.rfind("  }\n");
  size_t adds = 0;
  for (size_t at = ir.find("= add", close); at != std::string::npos; at = ir.find("= add", at + 1)) adds++;
  CHECK(adds == 8);
}

TEST_CASE("split_sums gives f64 four partials") {
  std::string ir = split(Prim::f64, false);
  size_t close = ir.rfind("  }\n");
  size_t adds = 0;
  for (size_t at = ir.find("= add", close); at != std::string::npos; at = ir.find("= add", at + 1)) adds++;
  CHECK(adds == 4);
}

TEST_CASE("split_sums keeps prefix sums, two updates and ints in order") {
  CHECK(split(Prim::f32, true).rfind("kept\n", 0) == 0);
  CHECK(split(Prim::f32, false, true).rfind("kept\n", 0) == 0);
  CHECK(split(Prim::f16, false).rfind("kept\n", 0) == 0);
}
