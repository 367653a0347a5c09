// print_kernel: the exact seed-001 text of every statement form.
#include <doctest/doctest.h>

#include "vm/ir/builder.h"
#include "vm/ir/ir.h"

using namespace kiln;
using namespace kiln::ir;

namespace {
const Type i32 = Type::scalar(Prim::i32);
const Type f32 = Type::scalar(Prim::f32);
PrintPart val(int op, std::string spec = "") { return PrintPart{true, op, std::move(spec)}; }
PrintPart str(std::string s) { return PrintPart{false, -1, std::move(s)}; }
}  // namespace

TEST_CASE("seed 001's example kernel prints exactly") {
  Kernel k;
  Builder b(k.root);
  Stmt* task = b.offloaded(Task::range_for);
  task->begin = 0;
  task->end = 10;
  task->rare_mut().block_dim = 32;
  b.in(*task->body);
  Stmt* i = b.loop_index(task);
  Stmt* four = b.const_int(Prim::i32, 4);
  Stmt* lt = b.binary(BinaryOp::cmp_lt, i, four);
  Stmt* one = b.const_int(Prim::i32, 1);
  Stmt* cond = b.binary(BinaryOp::bit_and, lt, one);
  Stmt* iff = b.if_(cond, true);  // an empty else is not shown
  b.in(*iff->body).print({val(0), str("\n")}, {i});
  CHECK(print_kernel(k) ==
        "kernel {\n"
        "  $0 = offloaded range_for(0, 10) grid_dim=0 block_dim=32\n"
        "  body {\n"
        "    <i32> $1 = loop $0 index 0\n"
        "    <i32> $2 = const [4]\n"
        "    <i32> $3 = cmp_lt $1 $2\n"
        "    <i32> $4 = const [1]\n"
        "    <i32> $5 = bit_and $3 $4\n"
        "    $6 : if $5 {\n"
        "      print $1, \"\\n\"\n"
        "    }\n"
        "  }\n"
        "}\n");
}

TEST_CASE("every statement form") {
  Kernel k;
  k.args.push_back({"a", f32});
  k.num_global_temps = 1;
  Builder b(k.root);
  Stmt* task = b.offloaded(Task::serial);
  b.in(*task->body);
  Stmt* c0 = b.const_int(Prim::i32, 0);          // $1
  Stmt* c4 = b.const_int(Prim::i32, 4);          // $2
  Stmt* lt = b.binary(BinaryOp::cmp_lt, c0, c4); // $3
  Stmt* a = b.arg(0, f32);                       // $4
  Stmt* cast = b.unary(UnaryOp::cast_value, c4, f32);  // $5
  Stmt* sq = b.unary(UnaryOp::sqrt, cast);       // $6
  b.select(lt, c0, c4);                          // $7
  Stmt* var = b.alloca(i32);                     // $8
  Stmt* ld = b.local_load(var);                  // $9
  b.local_store(var, ld);                        // $10
  Access acc;
  acc.snode = "S2place<f32>";
  acc.terms = {{0, 1, 0, 4}, {1, 1, 0, 40}};
  Stmt* p = b.global_ptr(acc, Prim::f32, {c0, c4});  // $11
  Stmt* tmp = b.global_temp(0, Prim::i32);       // $12
  Stmt* gl = b.global_load(p);                   // $13
  b.global_store(p, gl);                         // $14
  b.atomic(AtomicOp::add, p, gl);                // $15
  Stmt* iff = b.if_(lt, true);                   // $16
  b.in(*iff->body).print({val(0, ".2f"), str("x=\"q\"\\"), val(1)}, {a, sq});  // no id shown: $17
  b.in(*iff->else_body).assert_(lt, "bad %d", {c4});  // $18
  b.in(*task->body);
  Stmt* w = b.while_();                          // $19
  b.in(*w->body).break_(w);                      // $20
  b.in(*task->body);
  Stmt* f = b.range_for(c0, c4);                 // $21
  b.in(*f->body);
  b.loop_index(f);                               // $22
  b.continue_(f);                                // $23
  b.in(*task->body).return_({a});                // $24
  Stmt* r = b.in(k.root).offloaded(Task::range_for);  // $25
  r->rare_mut().begin_const = false;
  r->begin = 0;
  r->end = 7;
  r->rare_mut().block_dim = 128;
  (void)tmp;
  verify(k);  // ids are stale until printing; the form is what matters here
  std::string want =
      "kernel {\n"
      "  $0 = offloaded serial\n"
      "  body {\n"
      "    <i32> $1 = const [0]\n"
      "    <i32> $2 = const [4]\n"
      "    <i32> $3 = cmp_lt $1 $2\n"
      "    <f32> $4 = arg[0]\n"
      "    <f32> $5 = cast_value<f32> $2\n"
      "    <f32> $6 = sqrt $5\n"
      "    <i32> $7 = select $3 $1 $2\n"
      "    <i32> $8 = alloca\n"
      "    <i32> $9 = local load [$8]\n"
      "    $10 : local store [$8 <- $9]\n"
      "    <*f32> $11 = global ptr [S2place<f32>], index [$1, $2] checked\n"
      "    <*i32> $12 = global tmp var (offset = 0 B)\n"
      "    <f32> $13 = global load $11\n"
      "    $14 : global store [$11 <- $13]\n"
      "    <f32> $15 = atomic add($11, $13)\n"
      "    $16 : if $3 {\n"
      "      print $4:.2f, \"x=\\\"q\\\"\\\\\", $6\n"
      "    } else {\n"
      "      $18 : assert $3, \"bad %d\", $2\n"
      "    }\n"
      "    $19 : while true {\n"
      "      $20 : break\n"
      "    }\n"
      "    $21 : for in range($1, $2) block_dim=adaptive {\n"
      "      <i32> $22 = loop $21 index 0\n"
      "      $23 : continue\n"
      "    }\n"
      "    $24 : return $4\n"
      "  }\n"
      "  $25 = offloaded range_for(tmp(offset=0B), 7) grid_dim=0 block_dim=128\n"
      "  body {\n"
      "  }\n"
      "}\n";
  CHECK(print_kernel(k) == want);
  // Unchecked access, a numeric block_dim, and a second global temp slot.
  p->access->checked = false;
  f->rare_mut().block_dim = 64;
  tmp->index = 3;
  std::string out = print_kernel(k);
  CHECK(out.find("index [$1, $2]\n") != std::string::npos);
  CHECK(out.find("for in range($1, $2) block_dim=64 {") != std::string::npos);
  CHECK(out.find("global tmp var (offset = 24 B)") != std::string::npos);
}

TEST_CASE("renumber is pre-order from 0") {
  Kernel k;
  Builder b(k.root);
  Stmt* w = b.while_();
  Stmt* c = b.in(*w->body).const_int(Prim::i32, 1);
  b.break_(w);
  Stmt* after = b.in(k.root).const_int(Prim::i32, 2);
  k.renumber();
  CHECK(w->id == 0);
  CHECK(c->id == 1);
  CHECK(after->id == 3);
  CHECK(c->parent == w->body.get());
  CHECK(w->body->owner == w);
}

TEST_CASE("constants print as Taichi shows them") {
  CHECK(const_text(Const::of_int(Prim::i32, -7)) == "-7");
  CHECK(const_text(Const::of_int(Prim::i64, INT64_MIN)) == "-9223372036854775808");
  Const u;
  u.prim = Prim::u64;
  u.u = UINT64_MAX;
  CHECK(const_text(u) == "18446744073709551615");
  CHECK(const_text(Const::of_float(Prim::f32, 1.5)) == "1.5");
  CHECK(const_text(Const::of_float(Prim::f32, (double)0.1f)) == "0.1");
  CHECK(const_text(Const::of_float(Prim::f64, 0.1)) == "0.1");
  CHECK(const_text(Const::of_float(Prim::f64, (double)0.1f)) == "0.10000000149011612");
  CHECK(const_text(Const::of_float(Prim::f32, 1e30 * 1e30)) == "inf");
  CHECK(const_text(Const::of_float(Prim::f32, -0.0)) == "-0");
  // 0.0999755859375 is the f16 nearest 0.1: the shortest text reading back to it is 0.1.
  CHECK(const_text(Const::of_float(Prim::f16, 0.0999755859375)) == "0.1");
  CHECK(const_text(Const::of_float(Prim::f16, 65504)) == "65500");
  CHECK(const_text(Const::of_float(Prim::bf16, 0.10009765625)) == "0.1");
}

TEST_CASE("names") {
  CHECK(std::string(stmt_kind_name(StmtKind::global_temp)) == "global tmp var");
  CHECK(std::string(unary_op_name(UnaryOp::cast_bits)) == "cast_bits");
  CHECK(std::string(binary_op_name(BinaryOp::floordiv)) == "floordiv");
  CHECK(std::string(atomic_op_name(AtomicOp::bit_xor)) == "bit_xor");
  CHECK(std::string(task_name(Task::listgen)) == "listgen");
}

TEST_CASE("block take clears the parent and insert sets it") {
  Block blk;
  Builder b(blk);
  Stmt* x = b.const_int(Prim::i32, 1);
  b.const_int(Prim::i32, 2);
  auto owned = blk.take(0);
  CHECK(owned->parent == nullptr);
  CHECK(blk.stmts.size() == 1);
  Block other;
  other.insert(0, std::move(owned));
  CHECK(x->parent == &other);
  Kernel k;
  Builder kb(k.root);
  Stmt* c = kb.const_int(Prim::i32, 1);
  Stmt* d = kb.const_int(Prim::i32, 2);
  Stmt* s = kb.binary(BinaryOp::add, c, c);
  replace_uses(k.root, c, d);
  CHECK(s->ops[0] == d);
  CHECK(s->ops[1] == d);
}
