// contract_fma (fast_math's contraction, docs/fast_math.md): which sums fuse.
#include <doctest/doctest.h>

#include "vm/ir/builder.h"
#include "vm/ir/passes/passes.h"

using namespace kiln;
using namespace kiln::ir;

namespace {

PrintPart val(int op) { return PrintPart{true, op, ""}; }

// A kernel of arguments x, y, z of type p printing what `body` computes from them.
std::string contracted(Prim p, Stmt* (*body)(Builder&, Stmt*, Stmt*, Stmt*)) {
  Kernel k;
  Type t = Type::scalar(p);
  for (const char* n : {"x", "y", "z"}) k.args.push_back({n, t});
  Builder b(k.root);
  Stmt *x = b.arg(0, t), *y = b.arg(1, t), *z = b.arg(2, t);
  Stmt* r = body(b, x, y, z);
  b.print({val(0)}, {r});
  contract_fma(k);
  eliminate_dead_code(k);
  verify(k);
  std::string text = print_kernel(k);
  return text.substr(text.find("  <", text.find("arg[2]")));
}

}  // namespace

TEST_CASE("contract_fma fuses a product whose only use is a sum") {
  using B = BinaryOp;
  CHECK(contracted(Prim::f32, [](Builder& b, Stmt* x, Stmt* y, Stmt* z) {
          return b.binary(B::add, b.binary(B::mul, x, y), z);
        }) == "  <f32> $3 = fma $0 $1 $2\n  print $3\n}\n");
  CHECK(contracted(Prim::f64, [](Builder& b, Stmt* x, Stmt* y, Stmt* z) {
          return b.binary(B::add, z, b.binary(B::mul, x, y));
        }) == "  <f64> $3 = fma $0 $1 $2\n  print $3\n}\n");
  // a * b - c is fma(a, b, -c); c - a * b is fma(-a, b, c): negation is exact
  CHECK(contracted(Prim::f32, [](Builder& b, Stmt* x, Stmt* y, Stmt* z) {
          return b.binary(B::sub, b.binary(B::mul, x, y), z);
        }) == "  <f32> $3 = neg $2\n  <f32> $4 = fma $0 $1 $3\n  print $4\n}\n");
  CHECK(contracted(Prim::f32, [](Builder& b, Stmt* x, Stmt* y, Stmt* z) {
          return b.binary(B::sub, z, b.binary(B::mul, x, y));
        }) == "  <f32> $3 = neg $0\n  <f32> $4 = fma $3 $1 $2\n  print $4\n}\n");
  // two products: the left one fuses
  CHECK(contracted(Prim::f32, [](Builder& b, Stmt* x, Stmt* y, Stmt* z) {
          return b.binary(B::add, b.binary(B::mul, x, y), b.binary(B::mul, z, z));
        }) == "  <f32> $3 = mul $2 $2\n  <f32> $4 = fma $0 $1 $3\n  print $4\n}\n");
}

TEST_CASE("contract_fma leaves products with other uses, ints and f16 alone") {
  using B = BinaryOp;
  auto reused = [](Builder& b, Stmt* x, Stmt* y, Stmt* z) {
    Stmt* p = b.binary(B::mul, x, y);
    return b.binary(B::add, b.binary(B::add, p, z), p);
  };
  CHECK(contracted(Prim::f32, reused) ==
        "  <f32> $3 = mul $0 $1\n  <f32> $4 = add $3 $2\n  <f32> $5 = add $4 $3\n  print $5\n}\n");
  auto plain = [](Builder& b, Stmt* x, Stmt* y, Stmt* z) { return b.binary(B::add, b.binary(B::mul, x, y), z); };
  CHECK(contracted(Prim::i32, plain) == "  <i32> $3 = mul $0 $1\n  <i32> $4 = add $3 $2\n  print $4\n}\n");
  CHECK(contracted(Prim::f16, plain) == "  <f16> $3 = mul $0 $1\n  <f16> $4 = add $3 $2\n  print $4\n}\n");
}
