// Dead code elimination, repeated to a fixpoint:
//   * code after break/continue/return in the same block never runs;
//   * pure statements whose values nobody uses go;
//   * an alloca that is never read goes together with all its stores;
//   * an if with nothing in either branch, and a serial range_for with an
//     empty body, do nothing.
// Global pointers and loads count as pure, as in Taichi: an access nobody
// uses is dropped together with its bounds check.
#include "vm/ir/passes/passes.h"
#include "vm/ir/simt.h"

namespace kiln::ir {

namespace {

bool is_pure(const Stmt* s) {
  switch (s->kind) {
    case StmtKind::const_:
    case StmtKind::arg_load:
    case StmtKind::unary:
    case StmtKind::binary:
    case StmtKind::select:
    case StmtKind::fma:
    case StmtKind::matrix_init:
    case StmtKind::matrix_extract:
    case StmtKind::alloca:
    case StmtKind::local_load:
    case StmtKind::global_ptr:
    case StmtKind::global_temp:
    case StmtKind::global_load:
    case StmtKind::loop_index:
    case StmtKind::stop_grad:
    case StmtKind::ad_stack:
    case StmtKind::ad_top:
    case StmtKind::call_ret:  // the call itself stays
      return true;
    case StmtKind::shared_array:
    case StmtKind::shared_ptr:
      return true;
    case StmtKind::simt:  // barriers stay; a subgroup value nobody reads goes
      return !simt_is_barrier((SimtOp)s->index);  // vm/ir/simt.h
    default:
      return false;
  }
}

bool ends_block(const Stmt* s) {
  return s->kind == StmtKind::break_ || s->kind == StmtKind::continue_ || s->kind == StmtKind::return_;
}

bool empty(const std::unique_ptr<Block>& b) { return !b || b->stmts.empty(); }

struct Dce {
  bool changed = false;
  // Uses as an operand, and for allocas the uses other than being stored to.
  struct Count {
    int uses = 0, reads = 0;
  };
  // By id: scan() numbers the kernel first (the pass adds no statements).
  std::vector<Count> counts;
  // Stores kept by the sweep: one whose local loses its last read later in
  // the sweep (a load before it goes) needs another round.
  std::vector<const Stmt*> kept_stores;

  // One pre-order walk: cuts each block after its first break/continue/
  // return, numbers what is left and counts each value's uses (definitions
  // precede uses in pre-order, so an operand has its id when a user is
  // reached). One walk instead of three: each is a cache miss per statement
  // on a large kernel (issue 16).
  void scan(Block& b) {
    for (size_t i = 0; i < b.stmts.size(); ++i) {
      Stmt* s = b.stmts[i].get();
      s->id = (int)counts.size();
      counts.emplace_back();
      for (size_t j = 0; j < s->ops.size(); ++j) {
        size_t id = (size_t)s->ops[j]->id;
        if (id >= counts.size()) continue;  // not a value of this kernel (the verifier reports it)
        Count& c = counts[id];
        ++c.uses;
        bool store_target = s->kind == StmtKind::local_store && j == 0;
        if (!store_target) ++c.reads;
      }
      if (s->tls_prologue()) scan(*s->tls_prologue());
      if (s->body) scan(*s->body);
      if (s->else_body) scan(*s->else_body);
      if (s->tls_epilogue()) scan(*s->tls_epilogue());
      if (ends_block(s) && i + 1 < b.stmts.size()) {
        b.stmts.resize(i + 1);
        changed = true;
        return;
      }
    }
  }
  int uses(const Stmt* s) { return counts[(size_t)s->id].uses; }
  int reads(const Stmt* s) { return counts[(size_t)s->id].reads; }

  void forget(Stmt* s) {
    // A removed statement no longer uses its operands; nested statements go
    // with it, and their uses too.
    walk_one(s, [&](Stmt* x) {
      for (size_t i = 0; i < x->ops.size(); ++i) {
        if ((size_t)x->ops[i]->id >= counts.size()) continue;  // as scan() skipped it
        Count& c = counts[(size_t)x->ops[i]->id];
        --c.uses;
        if (!(x->kind == StmtKind::local_store && i == 0)) --c.reads;
      }
    });
  }

  template <class F> void walk_one(Stmt* s, F&& fn) {
    fn(s);
    if (s->body) walk(*s->body, fn);
    if (s->else_body) walk(*s->else_body, fn);
  }

  bool keep_names = false;  // under the debugger: a named value stays to be printed

  bool dead(const Stmt* s) {
    if (keep_names && !s->name.empty()) return false;
    if (s->kind == StmtKind::local_store)
      return s->ops[0]->kind == StmtKind::alloca && reads(s->ops[0]) == 0 &&
             !(keep_names && !s->ops[0]->name.empty());
    if (s->kind == StmtKind::alloca) return uses(s) == 0;
    if (is_pure(s)) return uses(s) == 0;
    if (s->kind == StmtKind::if_) return empty(s->body) && empty(s->else_body);
    if (s->kind == StmtKind::range_for) return empty(s->body);
    return false;
  }

  // Backwards, and into a statement's blocks before the statement itself, so
  // that users are removed before the values they use are looked at: that is
  // reverse pre-order, and uses follow definitions in pre-order, so one sweep
  // removes every dead value, alloca and empty if or loop. Only a store can
  // die after its visit (a read of its local that precedes it went). A dead
  // statement is destroyed at once (nothing uses it) and its slot compacted
  // away after the sweep: erasing in place would make the pass quadratic in
  // the block's length (issue 16).
  void sweep(Block& b) {
    bool removed = false;
    for (size_t i = b.stmts.size(); i-- > 0;) {
      Stmt* s = b.stmts[i].get();
      if (s->body) sweep(*s->body);
      if (s->else_body) sweep(*s->else_body);
      if (dead(s)) {
        forget(s);
        b.stmts[i].reset();
        removed = changed = true;
      } else if (s->kind == StmtKind::local_store) {
        kept_stores.push_back(s);
      }
    }
    if (removed) std::erase_if(b.stmts, [](const std::unique_ptr<Stmt>& s) { return !s; });
  }
};

}  // namespace

// Rounds repeat while a kept store has lost its local's last read (the
// round that would find nothing else to remove is skipped: each round walks
// the whole kernel).
bool eliminate_dead_code(Kernel& k) {
  bool any = false;
  for (;;) {
    Dce d;
    d.keep_names = k.keep_names;
    d.scan(k.root);
    d.sweep(k.root);
    any |= d.changed;
    bool again = false;
    for (const Stmt* s : d.kept_stores) again |= d.dead(s);
    if (!again) break;
  }
  return any;
}

}  // namespace kiln::ir
