// `if x == 0` on an int x branches on x (jnz) without the compare and its 0
// (vm/bytecode/lower.cpp, zero_test); a compare read twice keeps its code.
#include <doctest/doctest.h>

#include <algorithm>

#include "vm/bytecode/function.h"
#include "vm/ir/builder.h"

using namespace kiln;
using ir::BinaryOp;
using ir::Stmt;

namespace {

int count_op(const bc::Function& fn, bc::Op op) {
  return (int)std::count_if(fn.code.begin(), fn.code.end(), [&](const bc::Insn& i) { return i.op == op; });
}

// if (n % 2) == 0: print(1); with `twice`, the compare is printed too.
bc::Function lower_test(bool twice) {
  ir::Kernel k;
  k.name = "k";
  k.args = {{"n", Type::scalar(Prim::i64)}};
  ir::Builder b(k.root);
  Stmt* t = b.offloaded(ir::Task::serial);
  b.in(*t->body);
  Stmt* n = b.arg(0, Type::scalar(Prim::i64));
  Stmt* m = b.binary(BinaryOp::mod, n, b.const_int(Prim::i64, 2));
  Stmt* c = b.binary(BinaryOp::cmp_eq, m, b.const_int(Prim::i64, 0));
  Stmt* i = b.if_(c);
  ir::Builder then(*i->body);
  then.print({ir::PrintPart{true, 0, ""}}, {then.const_int(Prim::i32, 1)});
  if (twice) b.print({ir::PrintPart{true, 0, ""}}, {c});
  return bc::lower_kernel(k).tasks[0].fn;
}

}  // namespace

TEST_CASE("zero test: if x == 0 branches on x") {
  bc::Function fn = lower_test(false);
  INFO(bc::disassemble(fn));
  CHECK(count_op(fn, bc::Op::cmp_eq_i64) == 0);
  CHECK(count_op(fn, bc::Op::jz) == 0);
  REQUIRE(count_op(fn, bc::Op::jnz) == 1);
  auto j = std::find_if(fn.code.begin(), fn.code.end(), [](const bc::Insn& i) { return i.op == bc::Op::jnz; });
  auto mod = std::find_if(fn.code.begin(), fn.code.end(), [](const bc::Insn& i) { return i.op == bc::Op::mod_i64; });
  REQUIRE(mod != fn.code.end());
  CHECK(j->a == mod->a);  // tests the remainder itself
  CHECK(fn.lines.size() == fn.code.size());
  CHECK(fn.frame_at.size() == fn.code.size());
}

TEST_CASE("zero test: a compare read again keeps its code and jz") {
  bc::Function fn = lower_test(true);
  INFO(bc::disassemble(fn));
  CHECK(count_op(fn, bc::Op::cmp_eq_i64) == 1);
  CHECK(count_op(fn, bc::Op::jz) == 1);
  CHECK(count_op(fn, bc::Op::jnz) == 0);
}
