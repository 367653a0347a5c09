// Reverse-mode autodiff: a kernel becomes its adjoint (kernel.grad()).
//
// Design. The adjoint kernel recomputes the forward values it needs and then
// walks the statements backwards, accumulating adjoints. It is built per
// independent block (IB): a block whose every execution can be differentiated
// on its own. The kernel body is one; so is the body of every loop that writes
// no local declared outside it (a parallel loop, `for j in range(n): y[j] +=
// ...`): its iterations do not depend on each other, so its adjoint is a loop
// over the same range whose body recomputes that iteration (FWD) and then
// reverses it (REV). For an IB, the output is
//
//     FWD(body)   the forward code again, minus stores to global data that has
//                 a gradient (as in Taichi: the adjoint must not change the
//                 primal data); independent inner loops are skipped (they have
//                 no effect that the rest can see)
//     REV(body)   the statements last to first, each adding its operands'
//                 adjoints (vm/autodiff/derivatives.cpp): a read of x[i] adds
//                 to x.grad[i]; a write of y[i] reads y.grad[i].
//
// Loops that carry locals from iteration to iteration are not independent:
// FWD counts their iterations, REV runs their body's reverse that many times.
// The values REV needs from inside such a loop (or from inside an if, out of
// scope at the REV point) are taped: FWD pushes each on its own ad_stack after
// computing it, REV reads the top where it needs it and pops it where the
// value was defined — the last iteration is reversed first, so the tops line
// up. Values at the IB's top level are simply in scope. Only what REV asks for
// is taped (a sum's adjoint needs no primal value), and an independent loop
// recomputes instead of taping, which is what keeps 10^7-iteration loops
// within small tapes.
//
// Adjoints of values and locals are locals (adjoint allocas) at the top of the
// IB that owns the value, reset to 0 where the value is defined (so that each
// iteration of a carried loop starts clean). An inner IB adds into an outer
// IB's adjoint with an atomic (the parallel loop's iterations run at once).
// Locals declared outside an independent loop and read in it keep one value
// during the loop: FWD of the outer IB snapshots them where the loop was.
#include "vm/autodiff/reverse_state.h"

namespace kiln::autodiff::rev {

// Locals declared inside `loop` (its subtree).
void declared_in(const Block& b, std::unordered_set<const Stmt*>& out) {
  for (auto& s : b.stmts) {
    if (s->kind == StmtKind::alloca) out.insert(s.get());
    if (s->body) declared_in(*s->body, out);
    if (s->else_body) declared_in(*s->else_body, out);
  }
}

bool writes_outside(const Block& b, const std::unordered_set<const Stmt*>& inside, const Stmt* loop) {
  for (auto& s : b.stmts) {
    if ((s->kind == StmtKind::local_store || s->kind == StmtKind::atomic) && s->ops[0]->kind == StmtKind::alloca &&
        !inside.count(s->ops[0]))
      return true;
    if ((s->kind == StmtKind::break_ || s->kind == StmtKind::continue_) && s->loop == loop) return true;
    if (s->body && writes_outside(*s->body, inside, loop)) return true;
    if (s->else_body && writes_outside(*s->else_body, inside, loop)) return true;
  }
  return false;
}

void reads_outside(const Block& b, const std::unordered_set<const Stmt*>& inside, std::vector<const Stmt*>& out,
                   std::unordered_set<const Stmt*>& seen) {
  for (auto& s : b.stmts) {
    if (s->kind == StmtKind::local_load && !inside.count(s->ops[0]) && seen.insert(s->ops[0]).second)
      out.push_back(s->ops[0]);
    if (s->body) reads_outside(*s->body, inside, out, seen);
    if (s->else_body) reads_outside(*s->else_body, inside, out, seen);
  }
}

void Reverse::walk_if(const Stmt* s, Stmt* cond, void (Reverse::*walk)(const Block&)) {
  auto n = ir::clone_stmt(*s);
  n->ops = {cond};
  Stmt* iff = add(std::move(n));
  Block* saved = cur;
  ir::Builder::new_block(iff->body, iff);
  cur = iff->body.get();
  (this->*walk)(*s->body);
  if (s->else_body) {
    ir::Builder::new_block(iff->else_body, iff);
    cur = iff->else_body.get();
    (this->*walk)(*s->else_body);
  }
  cur = saved;
}

// ---- forward values --------------------------------------------------

Val Reverse::lookup(const Stmt* s) {
  for (Ib* b = ib; b; b = b->parent)
    if (auto it = b->fwd.find(s); it != b->fwd.end()) return it->second;
  raise("InternalError", std::string("autodiff: no forward value for ") + ir::stmt_kind_name(s->kind), s->loc);
}

int64_t Reverse::trip(const Stmt* loop) const {
  if (loop->kind == StmtKind::range_for && loop->ops.size() == 2 && loop->ops[0]->kind == StmtKind::const_ &&
      loop->ops[1]->kind == StmtKind::const_)
    return std::max<int64_t>(1, loop->ops[1]->value.i - loop->ops[0]->value.i);
  return default_cap;
}

Stmt* Reverse::tape_of(Val v) {
  Ib* owner = v.ib;
  if (auto it = owner->tape.find(v.v); it != owner->tape.end()) return it->second;
  int64_t cap = 1;
  for (Block* b = v.v->parent; b && b != owner->top; b = b->owner ? b->owner->parent : nullptr)
    if (b->owner && (b->owner->kind == StmtKind::range_for || b->owner->kind == StmtKind::while_))
      cap = std::min<int64_t>(cap * trip(b->owner), (int64_t)1 << 26);
  auto st = std::make_unique<Stmt>(StmtKind::ad_stack);
  st->type = v.v->type;
  st->index = (int)cap;
  st->loc = v.v->loc;
  Stmt* s = st.get();
  owner->front.push_back(std::move(st));
  owner->tape[v.v] = s;
  owner->pushes.push_back(v.v);
  return s;
}

// A forward value where the code now goes. A constant is made again
// rather than taped.
Stmt* Reverse::resolve(Val v) {
  if (v.v->parent == v.ib->top) return v.v;
  if (v.v->kind == StmtKind::const_) return add(ir::clone_stmt(*v.v));
  return make(StmtKind::ad_top, v.v->type, {tape_of(v)}, v.v->loc);
}

// An operand while cloning forward code: this IB's clones are in scope.
Stmt* Reverse::fwd_op(const Stmt* s) {
  Val v = lookup(s);
  return v.ib == ib ? v.v : resolve(v);
}

// ---- adjoints ------------------------------------------------------

Ib* Reverse::owner_of(const Stmt* s) {
  for (Ib* b = ib; b; b = b->parent)
    if (b->fwd.count(s)) return b;
  return nullptr;
}
Stmt* Reverse::adj_of(const Stmt* s) {
  Ib* o = owner_of(s);
  if (!o) return nullptr;
  if (auto it = o->adj.find(s); it != o->adj.end()) return it->second;
  auto a = std::make_unique<Stmt>(StmtKind::alloca);
  a->type = Type::scalar(s->type.prim);
  a->loc = s->loc;
  Stmt* r = a.get();
  o->front.push_back(std::move(a));
  o->adj[s] = r;
  return r;
}
// A value's adjoint, null while nothing has added to it. A local's adjoint
// always exists: in a loop, a later iteration's reads (emitted after this
// point) may have added to it already.
Stmt* Reverse::read_adj(const Stmt* s) {
  Ib* o = owner_of(s);
  if (!o) return nullptr;
  auto it = o->adj.find(s);
  Stmt* a = it != o->adj.end() ? it->second : s->kind == StmtKind::alloca ? adj_of(s) : nullptr;
  if (!a) return nullptr;
  return make(StmtKind::local_load, a->type, {a}, s->loc);
}
void Reverse::reset_adj(const Stmt* s) {
  Ib* o = owner_of(s);
  if (!o) return;
  auto it = o->adj.find(s);
  if (it == o->adj.end()) return;
  Emit e = emit(s->loc);
  make(StmtKind::local_store, Type::none(), {it->second, e.k(it->second->type.prim, 0.0)}, s->loc);
}
bool Reverse::real_target(const Stmt* s) {
  return s && !s->type.is_ptr && s->type.is_scalar() && prim_is_float(s->type.prim);
}
// Can an adjoint flowing into `s` reach data with a gradient? Constants,
// loads of data without one and what is computed from those only cannot:
// their adjoints are never built, nor the primal values (often taped) that
// their partials would need. Locals and the rest count as varying.
bool Reverse::varies(const Stmt* s) {
  if (auto it = varying.find(s); it != varying.end()) return it->second;
  bool v = true;
  switch (s->kind) {
    case StmtKind::const_: v = false; break;
    case StmtKind::global_load: v = companion(s->ops[0]).has_value(); break;
    case StmtKind::unary:
    case StmtKind::binary:
    case StmtKind::select: {
      v = false;
      for (size_t i = s->kind == StmtKind::select ? 1 : 0; i < s->ops.size(); i++)
        if (real_target(s->ops[i]) && varies(s->ops[i])) v = true;
      break;
    }
    default: break;
  }
  varying[s] = v;
  return v;
}
void Reverse::accumulate(const Stmt* s, Stmt* g) {
  if (!g || !real_target(s) || !varies(s)) return;
  Stmt* a = adj_of(s);
  if (!a) return;
  if (g->type.prim != a->type.prim) {
    auto c = std::make_unique<Stmt>(StmtKind::unary);
    c->uop = ir::UnaryOp::cast_value;
    c->type = a->type;
    c->ops = {g};
    c->loc = g->loc;
    g = add(std::move(c));
  }
  if (owner_of(s) != ib) {
    Stmt* at = make(StmtKind::atomic, a->type, {a, g}, s->loc);
    at->aop = ir::AtomicOp::add;
    return;
  }
  Stmt* old = make(StmtKind::local_load, a->type, {a}, s->loc);
  Emit e = emit(s->loc);
  make(StmtKind::local_store, Type::none(), {a, e.add(old, g)}, s->loc);
}

// ---- companions of global data -------------------------------------

std::optional<ir::Access> Reverse::companion(const Stmt* ptr) {
  if (ptr->kind != StmtKind::global_ptr) return std::nullopt;
  return grad_of(ptr->access);
}
Stmt* Reverse::grad_ptr(const Stmt* ptr, const ir::Access& acc) {
  std::vector<Stmt*> idx;
  for (Stmt* i : ptr->ops) idx.push_back(primal(i));
  auto p = std::make_unique<Stmt>(StmtKind::global_ptr);
  p->type = ptr->type;
  p->access = acc;
  p->ops = std::move(idx);
  p->loc = ptr->loc;
  return add(std::move(p));
}

// ---- one IB --------------------------------------------------------

void Reverse::run_ib(const Block& src, Ib& me) {
  Ib* saved_ib = ib;
  ib = &me;
  cur = me.top;
  fwd_block(src);
  cur = me.top;
  rev_block(src);
  finish(me);
  ib = saved_ib;
}

// Pushes after their values, adjoints and tapes first in the IB.
void Reverse::finish(Ib& me) {
  std::unordered_map<Block*, std::unordered_set<const Stmt*>> after;
  for (Stmt* v : me.pushes) after[v->parent].insert(v);
  for (auto& [blk, vals] : after) {
    ir::StmtList in = ir::take_all(*blk);
    for (auto& s : in) {
      Stmt* v = s.get();
      blk->add(std::move(s));
      if (vals.count(v)) {
        auto p = std::make_unique<Stmt>(StmtKind::ad_push);
        p->type = Type::none();
        p->ops = {me.tape[v], v};
        p->loc = v->loc;
        blk->add(std::move(p));
      }
    }
  }
  ir::StmtList body = ir::take_all(*me.top);
  for (auto& f : me.front) me.top->add(std::move(f));
  me.front.clear();
  for (auto& s : body) me.top->add(std::move(s));
}

}  // namespace kiln::autodiff::rev

namespace kiln::autodiff {

using namespace rev;

void make_adjoint(ir::Kernel& k, const CompanionFn& grad, int stack_size) {
  structure_exits(k);
  ir::StmtList src_stmts = ir::take_all(k.root);
  Block src;
  for (auto& s : src_stmts) src.add(std::move(s));
  Reverse r{grad, stack_size > 0 ? stack_size : 32};
  Ib root;
  root.root = true;
  root.top = &k.root;
  r.run_ib(src, root);
  // Tapes at the kernel's top level live in one task's frame: keep every
  // top-level loop in that task (serial) when there are any.
  bool tapes_at_top = false;
  for (auto& s : k.root.stmts) tapes_at_top |= s->kind == StmtKind::ad_stack;
  if (tapes_at_top)
    for (auto& s : k.root.stmts)
      if (s->kind == StmtKind::range_for) s->serialize = true;
  // src (the forward kernel's statements) dies here; nothing refers to it.
}

}  // namespace kiln::autodiff
