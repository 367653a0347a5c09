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
#include <unordered_map>
#include <unordered_set>

#include "vm/autodiff/autodiff.h"
#include "vm/autodiff/derivatives.h"

namespace kiln::autodiff {

using ir::Block;
using ir::Stmt;
using ir::StmtKind;

namespace {

struct Ib;
struct Val {  // a forward value of the adjoint kernel, and the IB it lives in
  Ib* ib = nullptr;
  Stmt* v = nullptr;
};

struct Ib {
  Ib* parent = nullptr;
  Block* top = nullptr;                                // FWD, then REV
  ir::StmtList front;  // adjoint allocas and tapes (prepended)
  std::unordered_map<const Stmt*, Val> fwd;            // source statement -> its forward value
  std::unordered_map<const Stmt*, const Stmt*> origin; // forward clone -> source (for pops)
  std::unordered_map<const Stmt*, Val> outer_alloca;   // local declared outside -> its value here
  std::unordered_map<const Stmt*, Stmt*> adj;          // source value/local -> adjoint alloca
  std::unordered_map<const Stmt*, Stmt*> tape;         // forward clone -> ad_stack
  std::vector<Stmt*> pushes;                           // forward clones to push after
  std::unordered_map<const Stmt*, Stmt*> loops;        // source loop -> loop in the output
  std::unordered_map<const Stmt*, Val> count;          // carried loop -> its trip count
  std::unordered_map<const Stmt*, std::unordered_map<const Stmt*, Val>> snapshots;  // skipped loop -> locals
  std::unordered_map<const Stmt*, std::vector<Stmt*>> own_snapshots;  // the loads this IB made for them
  bool root = false;
  // The independent loop whose body this IB is, when it runs backwards (a
  // serial inner loop: iteration i may read what i - 1 wrote to global data,
  // so the adjoints go last iteration first, as in Taichi).
  const Stmt* reversed = nullptr;
  Stmt* rev_begin = nullptr;
  Stmt* rev_end = nullptr;
};

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

struct Reverse {
  const CompanionFn& grad_of;
  int default_cap;
  Ib* ib = nullptr;   // the IB being generated
  Block* cur = nullptr;  // where code goes now

  Stmt* add(std::unique_ptr<Stmt> s) { return cur->add(std::move(s)); }
  Stmt* make(StmtKind kind, Type t, std::vector<Stmt*> ops, SourceLoc loc) {
    auto s = std::make_unique<Stmt>(kind);
    s->type = t;
    s->ops = std::move(ops);
    s->loc = loc;
    return add(std::move(s));
  }
  Emit emit(SourceLoc loc) { return Emit(*cur, loc); }

  // ---- forward values --------------------------------------------------

  Val lookup(const Stmt* s) {
    for (Ib* b = ib; b; b = b->parent)
      if (auto it = b->fwd.find(s); it != b->fwd.end()) return it->second;
    raise("InternalError", std::string("autodiff: no forward value for ") + ir::stmt_kind_name(s->kind), s->loc);
  }

  int64_t trip(const Stmt* loop) const {
    if (loop->kind == StmtKind::range_for && loop->ops.size() == 2 && loop->ops[0]->kind == StmtKind::const_ &&
        loop->ops[1]->kind == StmtKind::const_)
      return std::max<int64_t>(1, loop->ops[1]->value.i - loop->ops[0]->value.i);
    return default_cap;
  }

  Stmt* tape_of(Val v) {
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
  Stmt* resolve(Val v) {
    if (v.v->parent == v.ib->top) return v.v;
    if (v.v->kind == StmtKind::const_) return add(ir::clone_stmt(*v.v));
    return make(StmtKind::ad_top, v.v->type, {tape_of(v)}, v.v->loc);
  }
  Stmt* primal(const Stmt* s) { return resolve(lookup(s)); }

  // An operand while cloning forward code: this IB's clones are in scope.
  Stmt* fwd_op(const Stmt* s) {
    Val v = lookup(s);
    return v.ib == ib ? v.v : resolve(v);
  }

  // ---- adjoints ------------------------------------------------------

  Ib* owner_of(const Stmt* s) {
    for (Ib* b = ib; b; b = b->parent)
      if (b->fwd.count(s)) return b;
    return nullptr;
  }
  Stmt* adj_of(const Stmt* s) {
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
  Stmt* read_adj(const Stmt* s) {
    Ib* o = owner_of(s);
    if (!o) return nullptr;
    auto it = o->adj.find(s);
    Stmt* a = it != o->adj.end() ? it->second : s->kind == StmtKind::alloca ? adj_of(s) : nullptr;
    if (!a) return nullptr;
    return make(StmtKind::local_load, a->type, {a}, s->loc);
  }
  void reset_adj(const Stmt* s) {
    Ib* o = owner_of(s);
    if (!o) return;
    auto it = o->adj.find(s);
    if (it == o->adj.end()) return;
    Emit e = emit(s->loc);
    make(StmtKind::local_store, Type::none(), {it->second, e.k(it->second->type.prim, 0.0)}, s->loc);
  }
  bool real_target(const Stmt* s) {
    return s && !s->type.is_ptr && s->type.is_scalar() && prim_is_float(s->type.prim);
  }
  // Can an adjoint flowing into `s` reach data with a gradient? Constants,
  // loads of data without one and what is computed from those only cannot:
  // their adjoints are never built, nor the primal values (often taped) that
  // their partials would need. Locals and the rest count as varying.
  std::unordered_map<const Stmt*, bool> varying;
  bool varies(const Stmt* s) {
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
  void accumulate(const Stmt* s, Stmt* g) {
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

  std::optional<ir::Access> companion(const Stmt* ptr) {
    if (ptr->kind != StmtKind::global_ptr) return std::nullopt;
    return grad_of(ptr->access);
  }
  Stmt* grad_ptr(const Stmt* ptr, const ir::Access& acc) {
    std::vector<Stmt*> idx;
    for (Stmt* i : ptr->ops) idx.push_back(primal(i));
    auto p = std::make_unique<Stmt>(StmtKind::global_ptr);
    p->type = ptr->type;
    p->access = acc;
    p->ops = std::move(idx);
    p->loc = ptr->loc;
    return add(std::move(p));
  }

  // ---- FWD -----------------------------------------------------------

  bool independent(const Stmt* s) {
    if (s->kind != StmtKind::range_for) return false;
    std::unordered_set<const Stmt*> inside;
    declared_in(*s->body, inside);
    return !writes_outside(*s->body, inside, s);
  }

  void fwd_block(const Block& src) {
    for (auto& owned : src.stmts) fwd_stmt(owned.get());
  }

  void set(const Stmt* s, Stmt* clone) {
    ib->fwd[s] = Val{ib, clone};
    ib->origin[clone] = s;
  }

  void fwd_stmt(const Stmt* s) {
    switch (s->kind) {
      case StmtKind::range_for:
      case StmtKind::while_:
        if (independent(s)) return skip_independent(s);
        return fwd_carried(s);
      case StmtKind::if_: {
        auto n = ir::clone_stmt(*s);
        n->ops = {fwd_op(s->ops[0])};
        Stmt* iff = add(std::move(n));
        Block* saved = cur;
        ir::Builder::new_block(iff->body, iff);
        cur = iff->body.get();
        fwd_block(*s->body);
        if (s->else_body) {
          ir::Builder::new_block(iff->else_body, iff);
          cur = iff->else_body.get();
          fwd_block(*s->else_body);
        }
        cur = saved;
        return;
      }
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

  void skip_independent(const Stmt* s) {
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

  void fwd_carried(const Stmt* s) {
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

  // ---- REV -----------------------------------------------------------

  void rev_block(const Block& src) {
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

  void rev_value(const Stmt* s) {
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

  void rev_stmt(const Stmt* s) {
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
      case StmtKind::if_: {
        auto n = ir::clone_stmt(*s);
        n->ops = {primal(s->ops[0])};
        Stmt* iff = add(std::move(n));
        Block* saved = cur;
        ir::Builder::new_block(iff->body, iff);
        cur = iff->body.get();
        rev_block(*s->body);
        if (s->else_body) {
          ir::Builder::new_block(iff->else_body, iff);
          cur = iff->else_body.get();
          rev_block(*s->else_body);
        }
        cur = saved;
        return;
      }
      case StmtKind::range_for:
      case StmtKind::while_:
        if (ib->count.count(s)) return rev_carried(s);
        return rev_independent(s);
      default: return;  // no derivative flows through the rest
    }
  }

  void rev_atomic(const Stmt* s) {
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

  void rev_carried(const Stmt* s) {
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

  void rev_independent(const Stmt* s) {
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

  // ---- one IB --------------------------------------------------------

  void run_ib(const Block& src, Ib& me) {
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
  void finish(Ib& me) {
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
};

}  // namespace

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
