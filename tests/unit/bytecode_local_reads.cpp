// Loads of a local read the local's register directly when nothing writes
// the local before the load's last read (vm/bytecode/local_reads.cpp), and
// keep their copy otherwise.
#include <doctest/doctest.h>

#include "vm/bytecode/builder.h"
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

// loads_in_place itself, on the shapes its index must get right: writes
// nested in ifs and loops count at their enclosing statement's position, a
// write must lie strictly between the load and its last reader, and identity
// casts extend the load's reach.
namespace {

struct OneTask {
  ir::Kernel k;
  ir::Builder b{k.root};
  Stmt* task;
  OneTask() {
    k.name = "k";
    task = b.offloaded(ir::Task::serial);
    b.in(*task->body);
  }
  // loads_in_place reads positions from the ids (bc::TaskIndex): number first.
  bc::TaskIndex index() {
    k.renumber();
    return bc::TaskIndex{task->id + 1, (uint32_t)ir::count_stmts(*task->body)};
  }
  bool in_place(const Stmt* load) {
    bc::TaskIndex ix = index();
    return bc::loads_in_place({task->body.get()}, ix)[ix.at(load)] != 0;
  }
};

Type i32t() { return Type::scalar(Prim::i32); }

}  // namespace

TEST_CASE("local reads: a write nested in an if or a loop between the load and its read keeps the copy") {
  for (bool in_loop : {false, true}) {
    OneTask t;
    Stmt* x = t.b.alloca(i32t());
    t.b.local_store(x, t.b.const_int(Prim::i32, 1));
    Stmt* v = t.b.local_load(x);
    Stmt* other = t.b.alloca(i32t());
    t.b.local_store(other, v);  // a write to another local does not count
    Stmt* c = t.b.const_int(Prim::i32, 1);
    Stmt* outer = in_loop ? t.b.range_for(c, t.b.const_int(Prim::i32, 4)) : t.b.if_(c);
    ir::Builder inner(*outer->body);
    Stmt* deeper = inner.if_(c);
    ir::Builder(*deeper->body).local_store(x, c);  // two levels down
    t.b.in(*t.task->body).print({ir::PrintPart{true, 0, ""}}, {t.b.binary(BinaryOp::add, v, c)});
    CHECK_FALSE(t.in_place(v));
  }
}

TEST_CASE("local reads: writes before the load, after the last read, or by the last read itself do not count") {
  OneTask t;
  Stmt* x = t.b.alloca(i32t());
  Stmt* c = t.b.const_int(Prim::i32, 2);
  Stmt* early = t.b.if_(c);
  ir::Builder(*early->body).local_store(x, c);
  Stmt* v = t.b.local_load(x);
  Stmt* sum = t.b.binary(BinaryOp::add, v, c);
  t.b.local_store(x, sum);  // x = x + 2: the add reads before the store writes
  Stmt* late = t.b.if_(c);
  ir::Builder(*late->body).local_store(x, c);
  Stmt* w = t.b.local_load(x);
  t.b.local_store(x, w);  // the last reader is the store itself
  CHECK(t.in_place(v));
  CHECK(t.in_place(w));
}

TEST_CASE("local reads: identity casts extend the load's reach; reads in nested blocks disqualify it") {
  OneTask t;
  Stmt* x = t.b.alloca(i32t());
  Stmt* c = t.b.const_int(Prim::i32, 3);
  Stmt* v = t.b.local_load(x);
  Stmt* same = t.b.unary(ir::UnaryOp::cast_value, v, i32t());  // shares v's register
  t.b.local_store(x, c);                                        // after v's own reader...
  t.b.print({ir::PrintPart{true, 0, ""}}, {t.b.binary(BinaryOp::add, same, c)});  // ... before the cast's
  CHECK_FALSE(t.in_place(v));

  Stmt* u = t.b.local_load(x);
  Stmt* iff = t.b.if_(c);
  ir::Builder(*iff->body).print({ir::PrintPart{true, 0, ""}}, {u});
  CHECK_FALSE(t.in_place(u));

  // Many loads of one local in a long block, each read by the next statement:
  // every one qualifies, however far the block goes on.
  std::vector<Stmt*> loads;
  for (int i = 0; i < 500; i++) {
    Stmt* l = t.b.local_load(x);
    loads.push_back(l);
    t.b.local_store(x, t.b.binary(BinaryOp::add, l, c));
  }
  bc::TaskIndex ix = t.index();
  auto flags = bc::loads_in_place({t.task->body.get()}, ix);
  for (Stmt* l : loads) CHECK(flags[ix.at(l)] == 1);
}
