// verify: each rule has a kernel that breaks it, and the message names the statement.
#include <doctest/doctest.h>

#include "vm/ir/builder.h"
#include "vm/ir/ir.h"

using namespace kiln;
using namespace kiln::ir;

namespace {
const Type i32 = Type::scalar(Prim::i32);
const Type f32 = Type::scalar(Prim::f32);

// The verifier's message for k, or "" when it passes. Renumbers first so that
// messages can be checked by $id.
std::string problem(Kernel& k) {
  k.renumber();
  try {
    verify(k);
    return "";
  } catch (const Error& e) {
    CHECK(e.kind == "InternalError");
    return e.message;
  }
}
}  // namespace

TEST_CASE("a well-formed kernel passes") {
  Kernel k;
  k.args.push_back({"n", i32});
  Builder b(k.root);
  Stmt* n = b.arg(0, i32);
  Stmt* zero = b.const_int(Prim::i32, 0);
  Stmt* var = b.alloca(i32);
  b.local_store(var, zero);
  Stmt* f = b.range_for(zero, n);
  b.in(*f->body);
  Stmt* i = b.loop_index(f);
  Stmt* sh = b.binary(BinaryOp::bit_shl, i, b.const_int(Prim::u8, 1));  // shifts may mix types
  Stmt* iff = b.if_(b.binary(BinaryOp::cmp_gt, sh, n), true);
  b.in(*iff->body).break_(f);
  b.in(*iff->else_body).local_store(var, b.binary(BinaryOp::add, b.local_load(var), i));
  Stmt* w = b.in(*f->body).while_();
  b.in(*w->body).continue_(w);
  CHECK(problem(k) == "");
}

TEST_CASE("operands must be defined earlier in the block or an enclosing one") {
  SUBCASE("use before definition") {
    Kernel k;
    Builder b(k.root);
    Stmt* c = b.const_int(Prim::i32, 1);
    Stmt* add = b.binary(BinaryOp::add, c, c);
    std::swap(k.root.stmts[0], k.root.stmts[1]);
    (void)add;
    CHECK(problem(k) == "operand $1 is not defined before its use at $0");
  }
  SUBCASE("a value does not leak out of an if") {
    Kernel k;
    Builder b(k.root);
    Stmt* c = b.const_int(Prim::i32, 1);
    Stmt* iff = b.if_(c);
    Stmt* inner = b.in(*iff->body).const_int(Prim::i32, 2);
    b.in(k.root).binary(BinaryOp::add, inner, c);
    CHECK(problem(k) == "operand $2 is not defined before its use at $3");
  }
  SUBCASE("nor from one task into the next") {
    Kernel k;
    Builder b(k.root);
    Stmt* t0 = b.offloaded(Task::serial);
    Stmt* c = b.in(*t0->body).const_int(Prim::i32, 1);
    Stmt* t1 = b.in(k.root).offloaded(Task::serial);
    b.in(*t1->body).print({PrintPart{true, 0, ""}}, {c});
    CHECK(problem(k) == "operand $1 is not defined before its use at $3");
  }
  SUBCASE("a statement without a value is no operand") {
    Kernel k;
    Builder b(k.root);
    Stmt* c = b.const_int(Prim::i32, 1);
    Stmt* var = b.alloca(i32);
    Stmt* st = b.local_store(var, c);
    b.print({PrintPart{true, 0, ""}}, {st});
    CHECK(problem(k) == "operand $2 has no value at $3");
  }
}

TEST_CASE("operand counts and types") {
  Kernel k;
  k.args.push_back({"x", f32});
  Builder b(k.root);
  Stmt* ci = b.const_int(Prim::i32, 1);    // $0
  Stmt* cf = b.const_float(Prim::f32, 1);  // $1
  SUBCASE("arity") {
    Stmt* s = b.binary(BinaryOp::add, ci, ci);
    s->ops.pop_back();
    CHECK(problem(k) == "binary takes 2 operands, has 1 at $2");
  }
  SUBCASE("binary operands of one type") {
    b.binary(BinaryOp::add, ci, cf);
    CHECK(problem(k) == "add operand types differ (i32 vs f32) at $2");
  }
  SUBCASE("arithmetic result type") {
    b.binary(BinaryOp::mul, ci, ci)->type = f32;
    CHECK(problem(k) == "mul result f32 differs from operands i32 at $2");
  }
  SUBCASE("comparisons give i32") {
    b.binary(BinaryOp::cmp_eq, cf, cf)->type = Type::scalar(Prim::i64);
    CHECK(problem(k) == "comparison result is not i32 at $2");
  }
  SUBCASE("shift of a float") {
    b.binary(BinaryOp::bit_sar, cf, ci);
    CHECK(problem(k) == "shift of a non-integer at $2");
  }
  SUBCASE("bitwise on floats") {
    b.binary(BinaryOp::bit_and, cf, cf);
    CHECK(problem(k) == "bitwise op on floats at $2");
  }
  SUBCASE("unary result") {
    b.unary(UnaryOp::sqrt, cf)->type = Type::scalar(Prim::f64);
    CHECK(problem(k) == "sqrt result f64 differs from operand f32 at $2");
  }
  SUBCASE("cast_bits keeps the width") {
    b.unary(UnaryOp::cast_bits, cf, Type::scalar(Prim::i64));
    CHECK(problem(k) == "cast_bits between types of different widths at $2");
  }
  SUBCASE("if condition is an integer scalar") {
    b.if_(cf);
    CHECK(problem(k) == "if condition is not an integer scalar at $2");
  }
  SUBCASE("stored value matches the local") {
    Stmt* var = b.alloca(i32);
    b.local_store(var, cf);
    CHECK(problem(k) == "stored f32 into a local of i32 at $3");
  }
  SUBCASE("local load of an alloca") {
    b.add(StmtKind::local_load, i32, {ci});
    CHECK(problem(k) == "local load of a non-alloca at $2");
  }
  SUBCASE("global store value matches the pointee") {
    Access a;
    Stmt* p = b.global_ptr(a, Prim::i32, {ci});
    b.global_store(p, cf);
    CHECK(problem(k) == "stored f32 through *i32 at $3");
  }
  SUBCASE("global load type") {
    Access a;
    Stmt* p = b.global_ptr(a, Prim::i32, {});
    b.global_load(p)->type = f32;
    CHECK(problem(k) == "global load type differs from the pointee's at $3");
  }
  SUBCASE("const type") {
    ci->type = Type::scalar(Prim::i64);
    CHECK(problem(k) == "const type differs from its value's at $0");
  }
  SUBCASE("statements without a value have no type") {
    b.break_(nullptr)->type = i32;
    CHECK(problem(k).find("break") != std::string::npos);
  }
  SUBCASE("argument and temp numbers") {
    b.arg(1, f32);
    CHECK(problem(k) == "argument number out of range at $2");
  }
  SUBCASE("global temp slot") {
    b.global_temp(0, Prim::i32);
    CHECK(problem(k) == "global tmp slot out of range at $2");
  }
}

TEST_CASE("loops referenced by loop_index, break and continue enclose them") {
  Kernel k;
  Builder b(k.root);
  Stmt* c = b.const_int(Prim::i32, 3);  // $0
  Stmt* f = b.range_for(c, c);          // $1
  SUBCASE("loop index outside its loop") {
    b.in(k.root).loop_index(f);
    CHECK(problem(k) == "loop index of a loop that does not enclose it at $2");
  }
  SUBCASE("break names the innermost loop") {
    Stmt* w = b.in(*f->body).while_();
    b.in(*w->body).break_(f);
    CHECK(problem(k) == "break does not name the innermost loop at $3");
  }
  SUBCASE("continue outside any loop") {
    b.in(k.root).continue_(f);
    CHECK(problem(k) == "continue does not name the innermost loop at $2");
  }
  SUBCASE("the loop index of an enclosing loop from an inner while is fine") {
    Stmt* w = b.in(*f->body).while_();
    b.in(*w->body).loop_index(f);
    b.break_(w);
    CHECK(problem(k) == "");
  }
  SUBCASE("only one index on a range_for") {
    b.in(*f->body).loop_index(f, 1);
    CHECK(problem(k) == "loop index number out of range at $2");
  }
}

TEST_CASE("offloaded tasks") {
  Kernel k;
  Builder b(k.root);
  Stmt* t = b.offloaded(Task::range_for);
  t->end = 8;
  b.in(*t->body).loop_index(t);
  b.continue_(t);
  CHECK(problem(k) == "");
  SUBCASE("only at the root") {
    b.in(*t->body).offloaded(Task::serial);
    CHECK(problem(k) == "offloaded task below the kernel's top level at $3");
  }
  SUBCASE("break cannot leave a task") {
    b.in(*t->body).break_(t);
    CHECK(problem(k) == "break out of an offloaded task at $3");
  }
  SUBCASE("bounds from temps name existing slots") {
    t->rare_mut().end_const = false;
    t->end = 2;
    k.num_global_temps = 2;
    CHECK(problem(k) == "range_for end slot out of range at $0");
    k.num_global_temps = 3;
    CHECK(problem(k) == "");
  }
}

TEST_CASE("parent and owner links") {
  Kernel k;
  Builder b(k.root);
  Stmt* c = b.const_int(Prim::i32, 1);
  Stmt* iff = b.if_(c);
  Stmt* inner = b.in(*iff->body).const_int(Prim::i32, 2);
  CHECK(problem(k) == "");
  inner->parent = &k.root;
  CHECK(problem(k) == "statement's parent is not its block at $2");
  inner->parent = iff->body.get();
  iff->body->owner = c;
  CHECK(problem(k) == "block owner link is wrong at $1");
}
