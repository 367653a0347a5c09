// FWD of an independent block (see reverse.cpp): the forward code again,
// minus stores to data with a gradient; independent inner loops skipped
// (their reads of outer locals snapshotted), carried loops counted.
#include "vm/autodiff/reverse_state.h"

namespace kiln::autodiff::rev {

// ---- FWD -----------------------------------------------------------

bool Reverse::independent(const Stmt* s) {
  if (s->kind != StmtKind::range_for) return false;
  std::unordered_set<const Stmt*> inside;
  declared_in(*s->body, inside);
  return !writes_outside(*s->body, inside, s);
}

void Reverse::fwd_block(const Block& src) {
  for (auto& owned : src.stmts) fwd_stmt(owned.get());
}

void Reverse::set(const Stmt* s, Stmt* clone) {
  ib->fwd[s] = Val{ib, clone};
  ib->origin[clone] = s;
}

void Reverse::fwd_stmt(const Stmt* s) {
  switch (s->kind) {
    case StmtKind::range_for:
    case StmtKind::while_:
      if (independent(s)) return skip_independent(s);
      return fwd_carried(s);
    case StmtKind::if_: return walk_if(s, fwd_op(s->ops[0]), &Reverse::fwd_block);
    case StmtKind::global_store:
      if (companion(s->ops[0])) return;  // the adjoint leaves primal data as it is
      break;
    case StmtKind::atomic:
      if (s->ops[0]->kind != StmtKind::alloca && companion(s->ops[0])) {
        // dropped; its result (the old value), if used, reads the data
        set(s, make(StmtKind::global_load, Type::scalar(s->ops[0]->type.prim), {fwd_op(s->ops[0])}, s->loc));
        return;
      }
      break;
    case StmtKind::stop_grad:
      ib->fwd[s] = lookup(s->ops[0]);
      return;
    case StmtKind::local_load:
      if (!ib->fwd.count(s->ops[0])) {  // a local of an enclosing IB: its value during this loop
        auto it = ib->outer_alloca.find(s->ops[0]);
        if (it == ib->outer_alloca.end()) raise("InternalError", "autodiff: local without a snapshot", s->loc);
        ib->fwd[s] = it->second;
        return;
      }
      break;
    case StmtKind::return_:
      if (s->ops.empty() && ib->root) return;
      raise("NotImplementedError", "automatic differentiation of a kernel that returns a value is not supported", s->loc);
    default: break;
  }
  auto n = ir::clone_stmt(*s);
  n->ops.clear();
  for (Stmt* o : s->ops) n->ops.push_back(fwd_op(o));
  if (s->loop) {
    auto it = ib->loops.find(s->loop);
    if (it == ib->loops.end()) raise("InternalError", "autodiff: loop statement outside its loop", s->loc);
    n->loop = it->second;
  }
  Stmt* c = add(std::move(n));
  if (s->kind == StmtKind::loop_index && s->loop == ib->reversed) {
    // iteration k of the backwards loop is iteration begin + end - 1 - k
    Emit e = emit(s->loc);
    Stmt* one = e.at(e.b.const_int(c->type.prim, 1));
    c = e.sub(e.sub(e.add(ib->rev_begin, ib->rev_end), one), c);
  }
  set(s, c);
}

void Reverse::skip_independent(const Stmt* s) {
  std::unordered_set<const Stmt*> inside;
  declared_in(*s->body, inside);
  std::vector<const Stmt*> reads;
  std::unordered_set<const Stmt*> seen;
  reads_outside(*s->body, inside, reads, seen);
  auto& snap = ib->snapshots[s];
  for (const Stmt* a : reads) {
    if (owner_of(a) == ib) {
      Stmt* v = make(StmtKind::local_load, a->type, {ib->fwd[a].v}, s->loc);
      snap[a] = Val{ib, v};
      ib->own_snapshots[s].push_back(v);
    } else if (auto it = ib->outer_alloca.find(a); it != ib->outer_alloca.end()) {
      snap[a] = it->second;
    }
  }
}

void Reverse::fwd_carried(const Stmt* s) {
  SourceLoc loc = s->loc;
  Stmt* cnt = make(StmtKind::alloca, Type::scalar(Prim::i32), {}, loc);
  auto n = ir::clone_stmt(*s);
  n->ops.clear();
  for (Stmt* o : s->ops) n->ops.push_back(fwd_op(o));
  if (ib->root && s->kind == StmtKind::range_for) n->serialize = true;  // it carries locals: keep it serial
  Stmt* loop = add(std::move(n));
  ib->loops[s] = loop;
  Block* saved = cur;
  ir::Builder::new_block(loop->body, loop);
  cur = loop->body.get();
  {
    Emit e = emit(loc);
    Stmt* c = make(StmtKind::local_load, cnt->type, {cnt}, loc);
    Stmt* one = e.b.const_int(Prim::i32, 1);
    make(StmtKind::local_store, Type::none(), {cnt, e.add(c, one)}, loc);
  }
  fwd_block(*s->body);
  cur = saved;
  ib->count[s] = Val{ib, make(StmtKind::local_load, cnt->type, {cnt}, loc)};
}

}  // namespace kiln::autodiff::rev
