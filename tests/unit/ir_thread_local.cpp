// make_thread_local: which reductions get a per-chunk accumulator, the exact
// rewrite (prologue / body / epilogue), and the cases left atomic.
#include <doctest/doctest.h>

#include <cmath>

#include "vm/ir/builder.h"
#include "vm/ir/passes/passes.h"

using namespace kiln;
using namespace kiln::ir;

namespace {

int count(Block* b, StmtKind kind) {
  int n = 0;
  if (b) walk(*b, [&](Stmt* s) { n += s->kind == kind; });
  return n;
}

Stmt* first(Block* b, StmtKind kind) {
  Stmt* found = nullptr;
  if (b) walk(*b, [&](Stmt* s) {
    if (!found && s->kind == kind) found = s;
  });
  return found;
}

// A range_for task over [0, 100) whose body computes x = f(i) of type p and
// hands x to `body` (which adds the updates under test).
template <class F> Stmt* reduction_task(Kernel& k, Prim p, F&& body) {
  k.num_global_temps = 2;
  Builder b(k.root);
  Stmt* task = b.offloaded(Task::range_for);
  task->begin = 0;
  task->end = 100;
  b.in(*task->body);
  Stmt* i = b.loop_index(task);
  Stmt* x = prim_is_float(p) ? b.unary(UnaryOp::cast_value, i, Type::scalar(p))
                             : (p == Prim::i32 ? i : b.unary(UnaryOp::cast_value, i, Type::scalar(p)));
  body(b, x);
  return task;
}

Access zero_d_field() {
  Access a;
  a.tree = 0;
  a.offset = 64;
  a.field = "total";
  a.snode = "S1place<f32>";
  return a;
}

void check_unchanged(Kernel& k, Stmt* task, int atomics) {
  CHECK_FALSE(make_thread_local(k));
  CHECK(task->tls_prologue() == nullptr);
  CHECK(task->tls_epilogue() == nullptr);
  CHECK(count(task->body.get(), StmtKind::atomic) == atomics);
  verify(k);
}

}  // namespace

TEST_CASE("a sum into a global temporary gets a thread-local accumulator") {
  Kernel k;
  Stmt* task = reduction_task(k, Prim::f32, [](Builder& b, Stmt* x) {
    Stmt* t = b.global_temp(1, Prim::f32);
    b.atomic(AtomicOp::add, t, x);
  });
  verify(k);
  CHECK(make_thread_local(k));
  verify(k);
  // Body: no atomic and no pointer left; acc <- load acc + x.
  CHECK(count(task->body.get(), StmtKind::atomic) == 0);
  CHECK(count(task->body.get(), StmtKind::global_temp) == 0);
  Stmt* add = first(task->body.get(), StmtKind::binary);
  REQUIRE(add);
  CHECK(add->bop == BinaryOp::add);
  CHECK(add->ops[0]->kind == StmtKind::local_load);
  // Prologue: alloca, identity (-0.0 leaves every float sum unchanged), store.
  REQUIRE(task->tls_prologue());
  Stmt* acc = first(task->tls_prologue(), StmtKind::alloca);
  REQUIRE(acc);
  CHECK(add->ops[0]->ops[0] == acc);
  Stmt* init = first(task->tls_prologue(), StmtKind::const_);
  REQUIRE(init);
  CHECK(init->value.f == 0.0);
  CHECK(std::signbit(init->value.f));
  // Epilogue: one atomic add of the accumulator into slot 1.
  REQUIRE(task->tls_epilogue());
  Stmt* fold = first(task->tls_epilogue(), StmtKind::atomic);
  REQUIRE(fold);
  CHECK(fold->aop == AtomicOp::add);
  CHECK(fold->ops[0]->kind == StmtKind::global_temp);
  CHECK(fold->ops[0]->index == 1);
  CHECK(fold->ops[1]->kind == StmtKind::local_load);
  CHECK(fold->ops[1]->ops[0] == acc);
  std::string text = print_kernel(k);
  CHECK(text.find("tls prologue {") != std::string::npos);
  CHECK(text.find("tls epilogue {") != std::string::npos);
  CHECK(text.find("const [-0]") != std::string::npos);
  // Running it again finds nothing more to do.
  CHECK_FALSE(make_thread_local(k));
}

TEST_CASE("add and sub share one accumulator and the epilogue adds") {
  Kernel k;
  Stmt* task = reduction_task(k, Prim::i64, [](Builder& b, Stmt* x) {
    Stmt* t = b.global_temp(0, Prim::i64);
    b.atomic(AtomicOp::add, t, x);
    Stmt* c = b.binary(BinaryOp::cmp_gt, x, b.const_int(Prim::i64, 10));
    Stmt* f = b.if_(c);
    b.in(*f->body);
    b.atomic(AtomicOp::sub, b.global_temp(0, Prim::i64), x);  // a second pointer, nested
  });
  CHECK(make_thread_local(k));
  verify(k);
  CHECK(count(task->body.get(), StmtKind::atomic) == 0);
  CHECK(count(task->tls_prologue(), StmtKind::alloca) == 1);
  int subs = 0;
  walk(*task->body, [&](Stmt* s) { subs += s->kind == StmtKind::binary && s->bop == BinaryOp::sub; });
  CHECK(subs == 1);
  Stmt* fold = first(task->tls_epilogue(), StmtKind::atomic);
  REQUIRE(fold);
  CHECK(fold->aop == AtomicOp::add);
  CHECK(first(task->tls_prologue(), StmtKind::const_)->value.i == 0);
}

TEST_CASE("identities of min, max and the bitwise ops") {
  struct Case {
    AtomicOp op;
    Prim p;
    int64_t bits;  // the identity as Const::i
  };
  for (Case c : {Case{AtomicOp::min, Prim::i32, INT32_MAX}, Case{AtomicOp::max, Prim::i32, INT32_MIN},
                 Case{AtomicOp::min, Prim::i64, INT64_MAX}, Case{AtomicOp::max, Prim::i64, INT64_MIN},
                 Case{AtomicOp::min, Prim::u32, (int64_t)UINT32_MAX}, Case{AtomicOp::max, Prim::u32, 0},
                 Case{AtomicOp::bit_and, Prim::i32, -1}, Case{AtomicOp::bit_and, Prim::u32, (int64_t)UINT32_MAX},
                 Case{AtomicOp::bit_and, Prim::u64, -1}, Case{AtomicOp::bit_or, Prim::i32, 0},
                 Case{AtomicOp::bit_xor, Prim::i64, 0}}) {
    CAPTURE(atomic_op_name(c.op));
    CAPTURE(prim_name(c.p));
    Kernel k;
    Stmt* task = reduction_task(k, c.p, [&](Builder& b, Stmt* x) { b.atomic(c.op, b.global_temp(1, c.p), x); });
    CHECK(make_thread_local(k));
    verify(k);
    Stmt* init = first(task->tls_prologue(), StmtKind::const_);
    REQUIRE(init);
    CHECK(init->value.i == c.bits);
    CHECK(first(task->tls_epilogue(), StmtKind::atomic)->aop == c.op);
  }
  // Float min/max start at NaN: IEEE minimumNumber/maximumNumber ignore it.
  for (AtomicOp op : {AtomicOp::min, AtomicOp::max}) {
    Kernel k;
    Stmt* task = reduction_task(k, Prim::f64, [&](Builder& b, Stmt* x) { b.atomic(op, b.global_temp(1, Prim::f64), x); });
    CHECK(make_thread_local(k));
    CHECK(std::isnan(first(task->tls_prologue(), StmtKind::const_)->value.f));
  }
}

TEST_CASE("a 0-d field total[None] qualifies but an indexed element does not") {
  Kernel k;
  Stmt* task = reduction_task(k, Prim::f32, [](Builder& b, Stmt* x) {
    b.atomic(AtomicOp::add, b.global_ptr(zero_d_field(), Prim::f32, {}), x);
    Access elem = zero_d_field();
    elem.offset = 128;
    elem.field = "y";
    elem.terms = {IndexTerm{0, 1, 0, 4}};
    elem.shape = {100};
    b.atomic(AtomicOp::add, b.global_ptr(elem, Prim::f32, {b.const_int(Prim::i32, 3)}), x);
  });
  CHECK(make_thread_local(k));
  verify(k);
  // y[3] stays atomic; total[None] moved to the epilogue.
  REQUIRE(count(task->body.get(), StmtKind::atomic) == 1);
  CHECK(first(task->body.get(), StmtKind::atomic)->ops[0]->access->field == "y");
  Stmt* fold = first(task->tls_epilogue(), StmtKind::atomic);
  REQUIRE(fold);
  CHECK(fold->ops[0]->kind == StmtKind::global_ptr);
  CHECK(fold->ops[0]->access->field == "total");
  CHECK(fold->ops[0]->ops.empty());
}

TEST_CASE("reductions that must stay atomic are left alone") {
  SUBCASE("the atomic's result is used") {
    Kernel k;
    Stmt* task = reduction_task(k, Prim::i32, [](Builder& b, Stmt* x) {
      Stmt* old = b.atomic(AtomicOp::add, b.global_temp(1, Prim::i32), x);
      b.print({PrintPart{true, 0, ""}}, {old});
    });
    check_unchanged(k, task, 1);
  }
  SUBCASE("the task also loads the destination") {
    Kernel k;
    Stmt* task = reduction_task(k, Prim::i32, [](Builder& b, Stmt* x) {
      Stmt* t = b.global_temp(1, Prim::i32);
      b.atomic(AtomicOp::add, t, x);
      b.print({PrintPart{true, 0, ""}}, {b.global_load(t)});
    });
    check_unchanged(k, task, 1);
  }
  SUBCASE("the task also stores to it, through another pointer") {
    Kernel k;
    Stmt* task = reduction_task(k, Prim::i32, [](Builder& b, Stmt* x) {
      b.atomic(AtomicOp::add, b.global_temp(1, Prim::i32), x);
      b.global_store(b.global_temp(1, Prim::i32), x);
    });
    check_unchanged(k, task, 1);
  }
  SUBCASE("two kinds of op on one destination") {
    Kernel k;
    Stmt* task = reduction_task(k, Prim::i32, [](Builder& b, Stmt* x) {
      b.atomic(AtomicOp::add, b.global_temp(1, Prim::i32), x);
      b.atomic(AtomicOp::max, b.global_temp(1, Prim::i32), x);
    });
    check_unchanged(k, task, 2);
  }
  SUBCASE("a narrow type") {
    Kernel k;
    Stmt* task = reduction_task(k, Prim::i16, [](Builder& b, Stmt* x) { b.atomic(AtomicOp::add, b.global_temp(1, Prim::i16), x); });
    check_unchanged(k, task, 1);
  }
  SUBCASE("an indexed field element at the 0-d field's address is not a 0-d field") {
    Kernel k;
    Stmt* task = reduction_task(k, Prim::f32, [](Builder& b, Stmt* x) {
      b.atomic(AtomicOp::add, b.global_ptr(zero_d_field(), Prim::f32, {}), x);
      Access a = zero_d_field();
      a.terms = {IndexTerm{0, 1, 0, 0}};
      a.shape = {1};
      b.global_store(b.global_ptr(a, Prim::f32, {b.const_int(Prim::i32, 0)}), x);
    });
    check_unchanged(k, task, 1);
  }
  SUBCASE("a serial task") {
    Kernel k;
    k.num_global_temps = 1;
    Builder b(k.root);
    Stmt* task = b.offloaded(Task::serial);
    b.in(*task->body);
    b.atomic(AtomicOp::add, b.global_temp(0, Prim::i32), b.const_int(Prim::i32, 1));
    check_unchanged(k, task, 1);
  }
}

TEST_CASE("the verifier keeps prologue values in scope and epilogue out of the loop") {
  Kernel k;
  Stmt* task = reduction_task(k, Prim::i32, [](Builder& b, Stmt* x) { b.atomic(AtomicOp::add, b.global_temp(1, Prim::i32), x); });
  CHECK(make_thread_local(k));
  verify(k);
  // A body value used in the epilogue is out of scope.
  Stmt* body_value = task->body->stmts.front().get();
  Stmt* fold = first(task->tls_epilogue(), StmtKind::atomic);
  Stmt* saved = fold->ops[1];
  fold->ops[1] = body_value;
  CHECK_THROWS(verify(k));
  fold->ops[1] = saved;
  // A loop index in the epilogue is outside its loop.
  Builder(*task->tls_epilogue()).loop_index(task);
  CHECK_THROWS(verify(k));
}
