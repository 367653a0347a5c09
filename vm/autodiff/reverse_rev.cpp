// REV of an independent block (see reverse.cpp): its statements last to
// first, each adding its operands' adjoints; tapes popped where their
// values were defined; inner independent loops become IBs of their own.
#include "vm/autodiff/reverse_state.h"

namespace kiln::autodiff::rev {

// ---- REV -----------------------------------------------------------

void Reverse::rev_block(const Block& src) {
  for (size_t i = src.stmts.size(); i-- > 0;) {
    const Stmt* s = src.stmts[i].get();
    rev_stmt(s);
    auto it = ib->fwd.find(s);
    if (it != ib->fwd.end() && it->second.ib == ib) {
      auto o = ib->origin.find(it->second.v);
      if (o != ib->origin.end() && o->second == s && ib->tape.count(it->second.v))
        make(StmtKind::ad_pop, Type::none(), {ib->tape[it->second.v]}, s->loc);
    }
  }
}

void Reverse::rev_value(const Stmt* s) {
  Stmt* g = read_adj(s);
  if (!g) return;
  Emit e = emit(s->loc);
  std::array<bool, 3> need{};
  for (size_t i = 0; i < s->ops.size() && i < 3; i++) need[i] = real_target(s->ops[i]) && varies(s->ops[i]);
  std::array<Partial, 3> d =
      partials(e, s, [&](int i) { return primal(s->ops[(size_t)i]); }, [&] { return primal(s); }, need);
  for (size_t i = 0; i < s->ops.size() && i < 3; i++) accumulate(s->ops[i], e.scale(g, d[i]));
  reset_adj(s);
}

void Reverse::rev_stmt(const Stmt* s) {
  switch (s->kind) {
    case StmtKind::unary:
    case StmtKind::binary:
    case StmtKind::select:
      if (is_real(s)) rev_value(s);
      return;
    case StmtKind::local_load:
      if (Stmt* g = is_real(s) ? read_adj(s) : nullptr) {
        accumulate(s->ops[0], g);
        reset_adj(s);
      }
      return;
    case StmtKind::local_store:
      if (real_target(s->ops[0]) && owner_of(s->ops[0])) {
        if (Stmt* g = read_adj(s->ops[0])) {
          accumulate(s->ops[1], g);
          reset_adj(s->ops[0]);
        }
      }
      return;
    case StmtKind::alloca: reset_adj(s); return;
    case StmtKind::global_load: {
      if (!is_real(s)) return;
      auto acc = companion(s->ops[0]);
      Stmt* g = acc ? read_adj(s) : nullptr;
      if (!g) return;
      Stmt* p = grad_ptr(s->ops[0], *acc);
      make(StmtKind::atomic, g->type, {p, g}, s->loc)->aop = ir::AtomicOp::add;
      reset_adj(s);
      return;
    }
    case StmtKind::global_store: {
      if (!real_target(s->ops[1])) return;
      auto acc = companion(s->ops[0]);
      if (!acc) return;
      Stmt* p = grad_ptr(s->ops[0], *acc);
      accumulate(s->ops[1], make(StmtKind::global_load, Type::scalar(p->type.prim), {p}, s->loc));
      // the stored value replaced what was there: earlier writes get no gradient (Taichi's rule)
      Emit e = emit(s->loc);
      make(StmtKind::global_store, Type::none(), {p, e.k(p->type.prim, 0.0)}, s->loc);
      return;
    }
    case StmtKind::atomic: return rev_atomic(s);
    case StmtKind::if_: return walk_if(s, primal(s->ops[0]), &Reverse::rev_block);
    case StmtKind::range_for:
    case StmtKind::while_:
      if (ib->count.count(s)) return rev_carried(s);
      return rev_independent(s);
    default: return;  // no derivative flows through the rest
  }
}

void Reverse::rev_atomic(const Stmt* s) {
  if (!real_target(s->ops[1])) return;
  bool local = s->ops[0]->kind == StmtKind::alloca;
  if (s->aop != ir::AtomicOp::add && s->aop != ir::AtomicOp::sub) {
    if (local || companion(s->ops[0]))
      raise("NotImplementedError", std::string("automatic differentiation of atomic ") + ir::atomic_op_name(s->aop) +
                                       " is not supported (only += and -=)", s->loc);
    return;
  }
  Stmt* g = nullptr;
  if (local) {
    if (is_real(s))
      if (Stmt* r = read_adj(s)) {  // the old value's adjoint flows into the local's
        accumulate(s->ops[0], r);
        reset_adj(s);
      }
    g = read_adj(s->ops[0]);
  } else if (auto acc = companion(s->ops[0])) {
    Stmt* p = grad_ptr(s->ops[0], *acc);
    g = make(StmtKind::global_load, Type::scalar(p->type.prim), {p}, s->loc);
  }
  if (!g) return;
  if (s->aop == ir::AtomicOp::sub) g = emit(s->loc).neg(g);
  accumulate(s->ops[1], g);
}

void Reverse::rev_carried(const Stmt* s) {
  Val n = ib->count[s];
  Stmt* trips = resolve(n);
  Emit e = emit(s->loc);
  Stmt* zero = e.b.const_int(Prim::i32, 0);
  zero->loc = s->loc;
  Stmt* loop = make(StmtKind::range_for, Type::none(), {zero, trips}, s->loc);
  loop->serialize = true;
  Block* saved = cur;
  ir::Builder::new_block(loop->body, loop);
  cur = loop->body.get();
  rev_block(*s->body);
  cur = saved;
  if (n.v->parent != ib->top) make(StmtKind::ad_pop, Type::none(), {tape_of(n)}, s->loc);
}

void Reverse::rev_independent(const Stmt* s) {
  auto n = ir::clone_stmt(*s);
  n->ops.clear();
  for (Stmt* o : s->ops) n->ops.push_back(primal(o));
  Stmt* loop = add(std::move(n));
  Block* saved = cur;
  Ib inner;
  inner.parent = ib;
  ir::Builder::new_block(loop->body, loop);
  inner.top = loop->body.get();
  inner.loops[s] = loop;
  inner.outer_alloca = ib->snapshots[s];
  if ((!ib->root || s->serialize) && s->snode < 0 && loop->ops.size() == 2) {
    inner.reversed = s;
    inner.rev_begin = loop->ops[0];
    inner.rev_end = loop->ops[1];
  }
  run_ib(*s->body, inner);
  cur = saved;
  for (Stmt* v : ib->own_snapshots[s])
    if (auto t = ib->tape.find(v); t != ib->tape.end()) make(StmtKind::ad_pop, Type::none(), {t->second}, s->loc);
}

}  // namespace kiln::autodiff::rev
