// Scalar promotion of field elements across inner loops (LLVM's LICM
// promotion, done once in the IR so that every engine runs it):
//
//   for i in range(N):                     for i in range(N):
//     for j in range(N):                     if 0 <= i < N:           (x's bounds)
//       if i != j:                             t = x[i]               (unchecked)
//         x[i] += f(i, j)          ->          for j in range(N):
//                                                if i != j: t += f(i, j)
//                                              x[i] = t               (unchecked)
//                                            else:
//                                              <the loop as it was>
//
// Taichi's own n-body example accumulates `force[i] += f` in its inner loop;
// left in memory, every iteration loads and stores the element (a chain
// through store-to-load forwarding, ~9 cycles an iteration); promoted, the
// sum is one register.
//
// An element x[I] of a dense field qualifies in loop L (a serial range_for or
// while inside a task) when
//  - I's operands are defined before L (the same statements in every access);
//  - inside L every access to x is a plain load or store of that x[I], at
//    least one a store: no other index of x (which could be I), no atomic on
//    x, and L holds no ti.real_func call, SNode op or return (a call could
//    touch x; a return would skip the store after L);
//  - no other thread can touch x[I] while L runs: the task is serial, or a
//    parallel range_for whose iterations own x[I] (own_elements.h). Then the
//    store after L writes the value L left, or the one it loaded back when L
//    stored nothing, and no other thread's write is lost.
// The result is exactly what the loop computed through memory: no float
// operation changes. Where an access is bounds-checked (and its index is not
// a range_for task's own, within the field over the task's constant range), L is versioned on the
// check (the loop as written runs when an index is out of bounds, so the
// error is raised by the same access as before and never by a load L would
// not have made). Loops of more than kMaxCopy statements are not versioned.
// What differs is only a field's value while L runs (a kernel stopped by an
// error inside L leaves x[I] as it was before L). fast_math's split_sums
// leaves the local's sums in program order (ir::kInOrder), so every program
// prints what it printed before: splitting them would let a loop that also
// has a guard (the example's `if i != j`) pay the partials' rotation in the
// JIT's scalar code, which costs more than the memory round trip saved (the
// n-body example's force loop: 31 ms in memory, 22 kept in order, 59 split;
// docs/perf/nbody.md). Not under the debugger, which shows fields as each
// statement leaves them.
#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "vm/ir/clone.h"
#include "vm/ir/passes/own_elements.h"
#include "vm/ir/passes/passes.h"

namespace kiln::ir {

namespace {

constexpr size_t kMaxCopy = 2000;

using Place = std::pair<int, int64_t>;  // (tree, byte offset of element 0)

bool is_inner_loop(const Stmt* s) { return s->kind == StmtKind::range_for || s->kind == StmtKind::while_; }

struct Candidate {
  const Stmt* ptr = nullptr;  // the first pointer to x[I]: its access and indices
  bool ok = true;
  std::vector<Stmt*> loads, stores;
};

struct Promoter {
  Stmt* task = nullptr;
  bool changed = false;
  // Who owns what in a parallel task, scanned when a loop first asks (most
  // tasks have no inner loop, and the scan walks the whole task).
  std::optional<own::OwnElements> owner;

  bool owned(const Stmt* p) {
    if (task->task == Task::serial) return true;  // one thread
    if (!owner) {
      owner.emplace(own::OwnElements{task});
      owner->scan(*task->body);
    }
    if (owner->opaque) return false;
    auto it = owner->places.find({p->access->tree, p->access->offset});
    return it != owner->places.end() && it->second.unique;
  }

  Candidate& note(std::map<Place, Candidate>& cands, const Stmt* p, const Stmt* loop) {
    auto [it, first] = cands.try_emplace({p->access->tree, p->access->offset});
    Candidate& c = it->second;
    if (first) c.ptr = p;
    else if (p->ops != c.ptr->ops) c.ok = false;
    bool quant = false;  // a quant_array packs neighbours into one word
    for (const IndexTerm& t : p->access->terms) quant |= t.div != 1;
    if (quant || !word_prim(p->type.prim) || !owned(p)) c.ok = false;
    for (const Stmt* o : p->ops)
      if (inside_loop(o, loop)) c.ok = false;
    return c;
  }

  // The elements loop L may keep in locals, in order of first access.
  std::vector<Candidate> candidates(Stmt* loop, size_t& size) {
    std::map<Place, Candidate> cands;
    std::vector<Place> order;
    bool opaque = false;
    size = 0;
    walk(*loop->body, [&](Stmt* s) {
      size++;
      opaque |= s->kind == StmtKind::call || s->kind == StmtKind::snode_op || s->kind == StmtKind::return_;
      for (size_t k = 0; k < s->ops.size(); k++) {
        Stmt* p = s->ops[k];
        if (!dense_field_ptr(p)) continue;
        size_t before = cands.size();
        Candidate& c = note(cands, p, loop);
        if (cands.size() != before) order.push_back({p->access->tree, p->access->offset});
        if (k == 0 && s->kind == StmtKind::global_load) c.loads.push_back(s);
        else if (k == 0 && s->kind == StmtKind::global_store) c.stores.push_back(s);
        else c.ok = false;  // an atomic, or the pointer as a value
      }
    });
    std::vector<Candidate> out;
    if (opaque) return out;
    for (const Place& pl : order)
      if (Candidate& c = cands[pl]; c.ok && !c.stores.empty()) out.push_back(std::move(c));
    return out;
  }

  // Whether idx is the index of a range_for task whose constant range lies
  // in [0, n): in bounds without a test (the n-body example's force[i]), so
  // the loop needs no second copy, and the task's body stays one loop that
  // jam_outer can take.
  static bool in_task_range(const Stmt* idx, int64_t n) {
    if (idx->kind != StmtKind::loop_index || idx->index != 0 || !idx->loop) return false;
    const Stmt* t = idx->loop;
    return t->kind == StmtKind::offloaded && t->task == Task::range_for && t->rare().begin_const &&
           t->rare().end_const && t->rare().num_loop_indices == 1 && t->begin >= 0 && t->end <= n;
  }

  static Stmt* put(Block& b, StmtKind k, Type t, const Stmt* where, Operands ops = {}) {
    auto s = make_stmt(k, t, where->loc, std::move(ops));
    s->frame = where->frame;
    return b.add(std::move(s));
  }

  // Rewrites loop L (statement `at` of block b) as the header says; returns
  // the statements now at `at` and after it that replace L.
  size_t promote(Block& b, size_t at, const std::vector<Candidate>& cs, size_t size) {
    Stmt* loop = b.stmts[at].get();
    // The bounds condition, in a block of its own for now.
    Block pre;
    Stmt* cond = nullptr;
    auto conj = [&](Stmt* c) {
      cond = cond ? put(pre, StmtKind::binary, Type::scalar(Prim::i32), loop, {cond, c}) : c;
      if (cond != c) cond->bop = BinaryOp::bit_and;
    };
    std::vector<std::pair<const Stmt*, int64_t>> tested;  // (index, bound): x[i] and y[i] test i once
    for (const Candidate& c : cs) {
      if (!c.ptr->access->checked) continue;
      for (size_t k = 0; k < c.ptr->ops.size(); k++) {
        Stmt* idx = c.ptr->ops[k];
        std::pair<const Stmt*, int64_t> test{idx, c.ptr->access->shape[k]};
        if (std::find(tested.begin(), tested.end(), test) != tested.end()) continue;
        tested.push_back(test);
        if (in_task_range(idx, test.second)) continue;
        Prim ip = idx->type.prim;
        Stmt* zero = put(pre, StmtKind::const_, Type::scalar(ip), loop);
        zero->value = Const::of_int(ip, 0);
        Stmt* n = put(pre, StmtKind::const_, Type::scalar(ip), loop);
        n->value = Const::of_int(ip, c.ptr->access->shape[k]);
        Stmt* ge = put(pre, StmtKind::binary, Type::scalar(Prim::i32), loop, {idx, zero});
        ge->bop = BinaryOp::cmp_ge;
        conj(ge);
        Stmt* lt = put(pre, StmtKind::binary, Type::scalar(Prim::i32), loop, {idx, n});
        lt->bop = BinaryOp::cmp_lt;
        conj(lt);
      }
    }
    if (cond && size > kMaxCopy) return 0;
    std::unique_ptr<Stmt> copy = cond ? clone_tree(*loop) : nullptr;

    // Where the promoted loop goes: an if on the bounds, or b itself.
    std::unique_ptr<Stmt> owned_loop = b.take(at);
    Block body;
    std::vector<Stmt*> locals, ptrs;
    for (const Candidate& c : cs) {
      Type t = Type::scalar(c.ptr->type.prim);
      auto p = clone_stmt(*c.ptr);
      p->access->checked = false;  // in bounds: the condition says so
      p->loc = loop->loc;
      Stmt* ptr = body.add(std::move(p));
      Stmt* var = put(body, StmtKind::alloca, t, loop);
      var->index = kInOrder;  // its sums keep program order (the header says why)
      Stmt* v = put(body, StmtKind::global_load, t, loop, {ptr});
      put(body, StmtKind::local_store, Type::none(), loop, {var, v});
      for (Stmt* s : c.loads) {
        s->kind = StmtKind::local_load;
        s->ops = {var};
      }
      for (Stmt* s : c.stores) {
        s->kind = StmtKind::local_store;
        s->ops[0] = var;
      }
      locals.push_back(var);
      ptrs.push_back(ptr);
    }
    body.add(std::move(owned_loop));
    for (size_t i = 0; i < cs.size(); i++) {
      Stmt* v = put(body, StmtKind::local_load, locals[i]->type, loop, {locals[i]});
      put(body, StmtKind::global_store, Type::none(), loop, {ptrs[i], v});
    }
    changed = true;
    StmtList out = take_all(pre);
    if (cond) {
      auto branch = make_stmt(StmtKind::if_, Type::none(), loop->loc, {cond});
      branch->frame = loop->frame;
      Stmt* f = branch.get();
      f->body = std::make_unique<Block>();
      f->body->owner = f;
      for (auto& s : take_all(body)) f->body->add(std::move(s));
      f->else_body = std::make_unique<Block>();
      f->else_body->owner = f;
      f->else_body->add(std::move(copy));
      out.push_back(std::move(branch));
    } else {
      for (auto& s : take_all(body)) out.push_back(std::move(s));
    }
    size_t n = out.size();
    for (size_t i = 0; i < n; i++) b.insert(at + i, std::move(out[i]));
    return n;
  }

  void visit(Block& b) {
    for (size_t i = 0; i < b.stmts.size(); i++) {
      Stmt* s = b.stmts[i].get();
      if (is_inner_loop(s)) {
        size_t size = 0;
        std::vector<Candidate> cs = candidates(s, size);
        if (!cs.empty())
          if (size_t n = promote(b, i, cs, size)) {
            visit(*s->body);  // inner loops, for elements indexed by this loop
            i += n - 1;       // past the copy, which keeps memory order
            continue;
          }
      }
      if (s->body) visit(*s->body);
      if (s->else_body) visit(*s->else_body);
    }
  }
};

}  // namespace

bool promote_elements(Kernel& k) {
  if (k.keep_names) return false;  // the debugger shows fields as each statement leaves them
  bool changed = false;
  for (auto& t : k.root.stmts) {
    if (t->kind != StmtKind::offloaded || !t->body) continue;
    if (t->task != Task::range_for && t->task != Task::serial) continue;
    Promoter p;
    p.task = t.get();
    p.visit(*t->body);
    changed |= p.changed;
  }
  return changed;
}

}  // namespace kiln::ir
