// Constant folding with the exact run-time semantics of vm/ir/eval.h.
//
// unary/binary statements whose operands are constants become constants in
// place (the Stmt object stays, so its users need no rewriting); a select or
// an if with a constant condition is resolved. One pre-order sweep folds whole
// chains, since an operand is always folded before its users are visited.
#include "vm/ir/eval.h"
#include "vm/ir/passes/passes.h"

namespace kiln::ir {

namespace {

bool is_const(const Stmt* s) { return s->kind == StmtKind::const_; }

void make_const(Stmt* s, const Const& c) {
  s->kind = StmtKind::const_;
  s->value = c;
  s->ops.clear();
}

struct Folder {
  Kernel& k;
  bool changed = false;

  void block(Block& b) {
    for (size_t i = 0; i < b.stmts.size();) {
      Stmt* s = b.stmts[i].get();
      if (s->kind == StmtKind::if_ && is_const(s->ops[0])) {
        splice_if(b, i);  // the live branch now starts at i: visit it next
        changed = true;
        continue;
      }
      if (s->kind == StmtKind::select && is_const(s->ops[0])) {
        Stmt* chosen = s->ops[0]->value.u != 0 ? s->ops[1] : s->ops[2];
        replace_uses(k.root, s, chosen);
        b.stmts.erase(b.stmts.begin() + (std::ptrdiff_t)i);
        changed = true;
        continue;
      }
      fold(s);
      if (s->body) block(*s->body);
      if (s->else_body) block(*s->else_body);
      ++i;
    }
  }

  void fold(Stmt* s) {
    std::optional<Const> c;
    if (s->kind == StmtKind::unary && is_const(s->ops[0]))
      c = eval_unary(s->uop, s->ops[0]->value, s->type);
    else if (s->kind == StmtKind::binary && is_const(s->ops[0]) && is_const(s->ops[1]))
      c = eval_binary(s->bop, s->ops[0]->value, s->ops[1]->value, s->type);
    if (c) {
      make_const(s, *c);
      changed = true;
    }
  }

  // Replaces the if at b.stmts[i] by the statements of its live branch. They
  // keep their identity, so uses and break/continue `loop` links stay valid
  // (an if is not a loop, so the loops enclosing them do not change); only
  // their parent moves to b. Blocks nested under them keep their owners.
  void splice_if(Block& b, size_t i) {
    std::unique_ptr<Stmt> s = b.take(i);
    // Conditions are integer scalars: any nonzero pattern is true.
    std::unique_ptr<Block>& live = s->ops[0]->value.u != 0 ? s->body : s->else_body;
    if (!live) return;
    size_t at = i;
    for (auto& inner : live->stmts) b.insert(at++, std::move(inner));
    live->stmts.clear();
  }
};

}  // namespace

bool constant_fold(Kernel& k) {
  Folder f{k};
  f.block(k.root);
  return f.changed;
}

}  // namespace kiln::ir
