// fast_math's first rewrite (docs/fast_math.md): a float product whose only
// use is a sum becomes a fused multiply-add, the exact a * b + c rounded once.
//
//   a * b + c, c + a * b  ->  fma(a, b, c)
//   a * b - c             ->  fma(a, b, -c)
//   c - a * b             ->  fma(-a, b, c)
//
// Only f32 and f64 (f16/bf16 compute in f32 and round again: a fused f32
// result rounded to f16 is not one rounding of the exact value). The product
// must be in the sum's block and have no other use, so nothing a program
// stores, prints or reuses changes; negation is exact, so the subtractions
// are still one rounding of the written expression. When both operands are
// products the left one is fused (a * b + c * d -> fma(a, b, c * d)), so
// the rewrite is a function of the IR alone and every engine runs the same
// fmas. Blocks are rebuilt in one sweep (linear in the kernel's size).
#include "vm/ir/passes/passes.h"

namespace kiln::ir {

namespace {

struct Contract {
  std::vector<int> uses;  // by id (numbered first); new negations are never looked up
  bool changed = false;

  bool fusable(const Stmt* sum, const Stmt* p) {
    if (p->kind != StmtKind::binary || p->bop != BinaryOp::mul || p->type != sum->type || p->parent != sum->parent)
      return false;
    return p->id >= 0 && uses[(size_t)p->id] == 1;
  }

  void block(Block& b) {
    auto stmts = take_all(b);
    for (auto& owned : stmts) {
      Stmt* s = owned.get();
      if (s->tls_prologue()) block(*s->tls_prologue());
      if (s->body) block(*s->body);
      if (s->else_body) block(*s->else_body);
      if (s->tls_epilogue()) block(*s->tls_epilogue());
      bool is_sum = s->kind == StmtKind::binary && (s->bop == BinaryOp::add || s->bop == BinaryOp::sub) &&
                    s->type.is_scalar() && (s->type.prim == Prim::f32 || s->type.prim == Prim::f64);
      if (is_sum) fuse(b, s);
      b.add(std::move(owned));
    }
  }

  Stmt* negate(Block& b, Stmt* x, const Stmt* at) {
    auto n = make_stmt(StmtKind::unary, x->type, at->loc, {x});
    n->uop = UnaryOp::neg;
    n->frame = at->frame;  // the debugger's inlined ti.func (a kernel frame would end `finish` there)
    return b.add(std::move(n));
  }

  // Rewrites sum `s` (not yet back in `b`) into an fma when an operand is a
  // product it may fuse; a negation it needs goes into `b` first.
  void fuse(Block& b, Stmt* s) {
    Stmt* x = s->ops[0];
    Stmt* y = s->ops[1];
    Stmt *pa, *pb, *c;
    if (fusable(s, x)) {  // x * ... + y, x * ... - y
      pa = x->ops[0];
      pb = x->ops[1];
      c = s->bop == BinaryOp::add ? y : negate(b, y, s);
    } else if (fusable(s, y)) {  // x + y * ..., x - y * ...
      pa = s->bop == BinaryOp::add ? y->ops[0] : negate(b, y->ops[0], s);
      pb = y->ops[1];
      c = x;
    } else {
      return;
    }
    s->kind = StmtKind::fma;
    s->ops = {pa, pb, c};
    changed = true;
  }
};

}  // namespace

bool contract_fma(Kernel& k) {
  Contract c;
  c.uses.assign(number_stmts(k), 0);
  walk(k.root, [&](Stmt* s) {
    for (Stmt* o : s->ops) c.uses[(size_t)o->id]++;
  });
  c.block(k.root);
  return c.changed;
}

}  // namespace kiln::ir
