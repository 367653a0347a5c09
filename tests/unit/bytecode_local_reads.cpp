// Loads of a local read the local's register directly when nothing writes
// the local before the load's last read (vm/bytecode/local_reads.cpp), and
// keep their copy otherwise.
#include <doctest/doctest.h>

#include "vm/bytecode/function.h"
#include "vm/ir/builder.h"

using namespace kiln;
using ir::BinaryOp;
using ir::Stmt;

namespace {

// The pc of the first instruction with op `op`, or -1.
int find_op(const bc::Function& fn, bc::Op op) {
  for (size_t pc = 0; pc < fn.code.size(); pc++)
    if (fn.code[pc].op == op) return (int)pc;
  return -1;
}

}  // namespace

TEST_CASE("local reads: an accumulation loop reads its local without a copy") {
  // s = 0; for i in range(8): s += i64(i) * i64(i); return s
  ir::Kernel k;
  k.name = "k";
  k.rets = {Type::scalar(Prim::i64)};
  ir::Builder b(k.root);
  Stmt* t = b.offloaded(ir::Task::serial);
  b.in(*t->body);
  Stmt* s = b.alloca(Type::scalar(Prim::i64));
  Stmt* loop = b.range_for(b.const_int(Prim::i32, 0), b.const_int(Prim::i32, 8));
  Stmt* ret_load = nullptr;
  {
    ir::Builder body(*loop->body);
    Stmt* i = body.loop_index(loop);
    Stmt* wide = body.unary(ir::UnaryOp::cast_value, i, Type::scalar(Prim::i64));
    Stmt* cur = body.local_load(s);
    Stmt* sum = body.binary(BinaryOp::add, cur, body.binary(BinaryOp::mul, wide, wide));
    body.local_store(s, sum);
  }
  ret_load = b.local_load(s);
  b.return_({ret_load});
  bc::Kernel code = bc::lower_kernel(k);
  const bc::Function& fn = code.tasks[0].fn;
  INFO(bc::disassemble(fn));
  // Inside the loop (between fori and forl): mul, add, and no mov.
  int fori = find_op(fn, bc::Op::fori_i32), forl = find_op(fn, bc::Op::forl_i32);
  REQUIRE(fori >= 0);
  REQUIRE(forl > fori);
  for (int pc = fori + 1; pc < forl; pc++) CHECK(fn.code[pc].op != bc::Op::mov);
  // The add reads and writes the local's register.
  bool found = false;
  for (int pc = fori + 1; pc < forl; pc++)
    if (fn.code[pc].op == bc::Op::add_i64) {
      found = true;
      CHECK(fn.code[pc].a == fn.code[pc].b);
    }
  CHECK(found);
}

TEST_CASE("local reads: a load read after a store to its local keeps its copy") {
  // v = x; x = 5; print(v)
  ir::Kernel k;
  k.name = "k";
  ir::Builder b(k.root);
  Stmt* t = b.offloaded(ir::Task::serial);
  b.in(*t->body);
  Stmt* x = b.alloca(Type::scalar(Prim::i32));
  b.local_store(x, b.const_int(Prim::i32, 3));
  Stmt* v = b.local_load(x);
  b.local_store(x, b.const_int(Prim::i32, 5));
  b.print({ir::PrintPart{true, 0, ""}}, {v});
  bc::Kernel code = bc::lower_kernel(k);
  const bc::Function& fn = code.tasks[0].fn;
  INFO(bc::disassemble(fn));
  int pr = find_op(fn, bc::Op::pr_val);
  REQUIRE(pr >= 0);
  int five = -1;  // x = 5 (the constant written straight into x's register)
  for (int pc = 0; pc < pr; pc++)
    if (fn.code[pc].op == bc::Op::kimm && fn.code[pc].d() == 5) five = pc;
  REQUIRE(five >= 0);
  uint16_t xr = fn.code[five].a;
  CHECK(fn.code[pr].a != xr);
  // ... so v was copied out of x before the store.
  bool copied = false;
  for (int pc = 0; pc < five; pc++)
    copied |= fn.code[pc].op == bc::Op::mov && fn.code[pc].a == fn.code[pr].a && fn.code[pc].b == xr;
  CHECK(copied);
}

TEST_CASE("local reads: x = select(c, x, y) is not fused into x's register") {
  // x = 1; x = select(c, x, 7)  -> `mov d, c; sel d, x, y` must not write x before sel reads it
  ir::Kernel k;
  k.name = "k";
  k.args = {{"c", Type::scalar(Prim::i32)}};
  ir::Builder b(k.root);
  Stmt* t = b.offloaded(ir::Task::serial);
  b.in(*t->body);
  Stmt* x = b.alloca(Type::scalar(Prim::i32));
  b.local_store(x, b.const_int(Prim::i32, 1));
  Stmt* c = b.arg(0, Type::scalar(Prim::i32));
  Stmt* y = b.const_int(Prim::i32, 7);
  Stmt* cur = b.local_load(x);
  b.local_store(x, b.select(c, cur, y));
  b.print({ir::PrintPart{true, 0, ""}}, {b.local_load(x)});
  bc::Kernel code = bc::lower_kernel(k);
  const bc::Function& fn = code.tasks[0].fn;
  INFO(bc::disassemble(fn));
  int sel = find_op(fn, bc::Op::sel);
  REQUIRE(sel >= 1);
  // The select's destination is never the register it reads as its true value.
  CHECK(fn.code[sel].a != fn.code[sel].b);
  CHECK(fn.code[sel].a != fn.code[sel].c);
}
