// Constant folding with the exact run-time semantics of vm/ir/eval.h.
//
// unary/binary statements whose operands are constants become constants in
// place (the Stmt object stays, so its users need no rewriting); a select or
// an if with a constant condition is resolved. One pre-order sweep folds whole
// chains, since an operand is always folded before its users are visited.
#include <unordered_map>

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

// Each block is rebuilt in one pass (a resolved if's live branch joins its
// block in its place, a resolved select leaves it) and operands are renamed
// as they are reached, so the pass stays linear in the kernel's size: erasing
// and inserting in place, with a kernel-wide replace_uses per select, made
// ti.static-unrolled kernels quadratic (issue 16). Uses follow their
// definitions in this pre-order, so every use is renamed.
struct Folder {
  bool changed = false;
  std::unordered_map<const Stmt*, Stmt*> chosen;  // resolved selects -> the operand each chose

  void block(Block& b) {
    StmtList in = take_all(b);
    append(b, in);
    // `in` now holds only the resolved ifs and selects, destroyed here.
  }

  void append(Block& b, StmtList& in) {
    for (auto& owned : in) {
      Stmt* s = owned.get();
      rename_operands(*s, chosen);
      if (s->kind == StmtKind::if_ && is_const(s->ops[0])) {
        // The live branch's statements take the if's place. They keep their
        // identity, so uses and break/continue `loop` links stay valid (an if
        // is not a loop); blocks nested under them keep their owners.
        // Conditions are integer scalars: any nonzero pattern is true.
        std::unique_ptr<Block>& live = s->ops[0]->value.u != 0 ? s->body : s->else_body;
        if (live) append(b, live->stmts);
        changed = true;
        continue;
      }
      if (s->kind == StmtKind::select && is_const(s->ops[0])) {
        chosen[s] = s->ops[0]->value.u != 0 ? s->ops[1] : s->ops[2];
        changed = true;
        continue;
      }
      fold(s);
      if (s->body) block(*s->body);
      if (s->else_body) block(*s->else_body);
      s->parent = &b;
      b.stmts.push_back(std::move(owned));
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
};

}  // namespace

bool constant_fold(Kernel& k) {
  Folder f;
  f.block(k.root);
  return f.changed;
}

}  // namespace kiln::ir
