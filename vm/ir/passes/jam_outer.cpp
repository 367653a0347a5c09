// Unroll-and-jam of a parallel loop's reduction nest: two outer iterations a
// pass of one inner loop.
//
//   for i in range(N):                for k in range((N + 1) // 2):
//     p = pos[i]; a = 0                  i0 = 2k; i1 = i0 + 1
//     for j in range(M):        ->       if i1 < N:   (only when N is odd)
//       a += f(pos[j], p)                  p0 = pos[i0]; a0 = 0; p1 = pos[i1]; a1 = 0
//     vel[i] += a * dt                     for j in range(M):
//                                            a0 += f(pos[j], p0); a1 += f(pos[j], p1)
//                                          vel[i0] += a0 * dt; vel[i1] += a1 * dt
//                                        else: the body for i0 alone
//
// Why: in the JIT, each outer iteration's work around its inner loop (the
// inner trace's exit, the stitched side trace that adds a split sum's 16
// partials, the link back, the vector loop's setup) cost ~68 ns an i in
// nbody (docs/perf/nbody.md), and a pass for two i halves it; the two copies'
// loads of pos[j] are one load after the JIT's CSE, so the vec3
// deinterleave is shared too.
//
// It changes no value any engine computes: each i's statements run in their
// own order with their own locals, so each i's float sums round exactly as
// before; only the interleaving of different i changes, and the task's
// iterations qualify only when no iteration can see another's effects:
//   - a range_for task with constant bounds, no TLS blocks (make_thread_local
//     ran: a shared accumulator's adds would change order), not serialized;
//   - its body: statements before one inner range_for, the loop, statements
//     after it; the loop's bounds computed from constants and arguments (both
//     i run the same j), no break/continue of the task or of that loop (one
//     copy's would skip the other's work);
//   - nothing whose order across iterations shows: print, assert, ti.random,
//     returns, calls, SNode ops, sparse accesses, autodiff stacks, writes to
//     global temporaries;
//   - every field (or ndarray) the body writes is accessed, each time, with
//     the task's own index i as the same index position: iterations touch
//     disjoint elements of it;
//   - the inner loop only reads memory and updates a float local declared
//     before it, and (the nests that gain, JamKind) divides or takes square
//     roots in f32 without compares or selects (kJamDividers: the JIT's
//     16-lane loops; bound_by_divider), or keeps every float sum it updates
//     in program order (kJamOrdered: a promoted field element's, or any
//     without fast_math; the LLVM tier's blocks and the JIT's lanes fold
//     each sum one lane at a time, a chain of dependent adds that two i's
//     chains overlap);
//   - a launch that stops at an error (a bounds check, an integer division
//     by 0) stops at the same one with the same writes done (fails_alike).
// Which engines jam which nests is theirs to say (Engine::jams_outer_loops:
// the JIT's dividers and ordered sums on hosts whose vector loops have
// zmm0-23 or ymm0-31 for two copies, the LLVM tier's ordered sums and,
// jam_while.cpp, its tasks around a pure while loop); KILN_JAM=1 or 0 forces every kind or none on every
// engine (tests run the interpreter with it).
#include <unordered_map>

#include "vm/ir/passes/jam_copy.h"
#include "vm/ir/passes/passes.h"

namespace kiln::ir {

namespace {

using Map = JamMap;

constexpr size_t kMaxInner = 160;  // statements in the inner body: two copies must fit the vector registers
constexpr size_t kMaxBody = 600;

bool is_index_of(const Stmt* s, const Stmt* task) { return is_task_index(s, task); }

// Built from constants and kernel arguments only (the same for every i).
bool invariant(const Stmt* s, int depth = 0) {
  if (depth > 16) return false;
  switch (s->kind) {
    case StmtKind::const_: case StmtKind::arg_load: return true;
    case StmtKind::unary: case StmtKind::binary: case StmtKind::select:
      for (const Stmt* o : s->ops)
        if (!invariant(o, depth + 1)) return false;
      return true;
    default: return false;
  }
}

class Jam {
 public:
  Jam(Stmt* task, int kinds, bool fast_math) : task_(task), kinds_(kinds), fast_math_(fast_math), cp_{task} {}

  // Whether the task qualifies (the checks in the file's comment).
  bool check() {
    const Stmt* t = task_;
    if (!jammable_task(t)) return false;
    const Block& b = *t->body;
    for (size_t i = 0; i < b.stmts.size(); i++) {
      const Stmt* s = b.stmts[i].get();
      if (s->kind == StmtKind::while_) return false;
      if (s->kind != StmtKind::range_for) continue;
      if (inner_) return false;  // one inner loop
      inner_ = const_cast<Stmt*>(s);
      at_ = i;
    }
    if (!inner_ || inner_->ops.size() < 2 || !invariant(inner_->ops[0]) || !invariant(inner_->ops[1])) return false;
    if (count_stmts(*inner_->body) > kMaxInner || count_stmts(b) > kMaxBody) return false;
    bool ok = true, sum = false, ordered = true;
    // Writes: by key (a field's id, or -1 for every ndarray: two arguments
    // may be one array), the index position that holds i in each access.
    std::unordered_map<int, int> written;
    std::vector<const Stmt*> ptrs;
    walk(*task_->body, [&](Stmt* s) {
      switch (s->kind) {
        case StmtKind::print: case StmtKind::assert_: case StmtKind::random: case StmtKind::return_:
        case StmtKind::snode_op: case StmtKind::offloaded: case StmtKind::ad_stack: case StmtKind::ad_push:
        case StmtKind::ad_pop: case StmtKind::ad_top: case StmtKind::call: case StmtKind::call_ret:
        case StmtKind::shared_array: case StmtKind::shared_ptr: case StmtKind::simt:
        case StmtKind::matrix_init: case StmtKind::matrix_extract:
          ok = false;
          break;
        case StmtKind::break_: case StmtKind::continue_:
          if (s->loop == task_ || s->loop == inner_) ok = false;
          break;
        case StmtKind::loop_index:
          if (s->loop == task_ && s->index != 0) ok = false;
          break;
        case StmtKind::global_ptr: {
          const Access& a = *s->access;
          if (a.sparse_place >= 0 || a.in_cell || (a.field_id < 0 && a.ext_arg < 0)) ok = false;
          ptrs.push_back(s);
          break;
        }
        case StmtKind::global_store: case StmtKind::atomic: {
          const Stmt* p = s->ops[0];
          if (p->kind != StmtKind::global_ptr || inside_loop(s, inner_)) {
            ok = false;  // a global temporary, or a write in the inner loop
            break;
          }
          written[key(p)] = -1;
          break;
        }
        case StmtKind::local_store:
          // A float local declared outside the inner loop that it updates.
          if (inside_loop(s, inner_) && !inside_loop(s->ops[0], inner_) && is_float(s->ops[1]->type.prim)) {
            sum = true;
            ordered &= !fast_math_ || s->ops[0]->index == kInOrder;  // split_sums leaves it in order
          }
          break;
        default: break;
      }
    });
    bool gains = ((kinds_ & kJamDividers) && bound_by_divider()) || ((kinds_ & kJamOrdered) && ordered);
    if (!ok || !sum || !gains || !fails_alike()) return false;
    for (const Stmt* p : ptrs) {
      auto w = written.find(key(p));
      if (w == written.end()) continue;
      int d = -1;
      for (size_t k = 0; k < p->ops.size(); k++)
        if (is_index_of(p->ops[k], task_)) d = (int)k;
      if (d < 0 || (w->second >= 0 && w->second != d)) return false;
      w->second = d;
    }
    return true;
  }

  // Rewrites the task: [0, (n + 1) / 2), two i a pass, the last i of an odd
  // count alone.
  void rewrite() {
    StmtList old = take_all(*task_->body);
    std::vector<Map> maps(2);
    Map &m0 = maps[0], &m1 = maps[1];
    Block* pair = cp_.open_group(old, maps);
    // Copy 0's statements take copy 0's values (m0), copy 1's copy 1's:
    // before the loop, copy 0 then copy 1; in it, copy 0's body then copy
    // 1's; after it, the same.
    cp_.copy(old, 0, at_, *pair, m0);
    cp_.copy(old, 0, at_, *pair, m1);
    Stmt* loop = pair->add(clone_stmt(*inner_));
    loop->body = std::make_unique<Block>();
    loop->body->owner = loop;
    m0[inner_] = m1[inner_] = loop;
    JamCopier::relink_from(*pair, pair->stmts.size() - 1, m0);  // its bounds (copy 0's; the same values)
    cp_.copy_block(*inner_->body, *loop->body, m0);
    cp_.copy_block(*inner_->body, *loop->body, m1);
    cp_.copy(old, at_ + 1, old.size(), *pair, m0);
    cp_.copy(old, at_ + 1, old.size(), *pair, m1);
    cp_.close_group(2);
  }

 private:
  // The inner loop divides or takes square roots, in f32, without compares
  // or selects: the loops the JIT runs in 16 lanes (jit/asm_wide.cpp), whose
  // pass for two i fits zmm0-23. Others keep their ymm loops, whose 16
  // registers two copies would overflow (the loop would then run scalar).
  bool bound_by_divider() {
    bool divides = false, ok = true;
    walk(*inner_->body, [&](Stmt* s) {
      if (s->type.prim == Prim::f64 || s->type.prim == Prim::f16 || s->kind == StmtKind::select) ok = false;
      if (s->kind == StmtKind::binary && is_comparison(s->bop)) ok = false;
      if (s->kind == StmtKind::binary && s->bop == BinaryOp::div && s->type.prim == Prim::f32) divides = true;
      if (s->kind == StmtKind::unary && (s->uop == UnaryOp::sqrt || s->uop == UnaryOp::rsqrt)) divides = true;
    });
    return ok && divides;
  }
  // Whether a value is the same for both copies: built from constants,
  // arguments, the inner loop's index and loads through such pointers (the
  // inner loop writes nothing), never from i, a local or the part before.
  bool same_in_copies(const Stmt* s, int depth = 0) const {
    if (depth > 32) return false;
    switch (s->kind) {
      case StmtKind::const_: case StmtKind::arg_load: return true;
      case StmtKind::loop_index: return s->loop == inner_;
      case StmtKind::unary: case StmtKind::binary: case StmtKind::select: case StmtKind::global_load:
      case StmtKind::global_ptr:
        for (const Stmt* o : s->ops)
          if (!same_in_copies(o, depth + 1)) return false;
        return true;
      default: return false;
    }
  }
  // A launch that fails stops at the same error, with the same writes done,
  // jammed or not. Jammed, copy 1's part before the loop runs before copy
  // 0's loop, and the loop runs the copies' bodies turn about: so the parts
  // before and after the loop cannot fail (their checked accesses are at i,
  // within the field's shape, or at constants within it; no division by a
  // variable) and write nothing before the loop; in the loop, what may fail
  // is the same for both copies (same_in_copies), so copy 0 reaches a failing
  // j first, as it did running alone, and nothing is written before.
  bool fails_alike() {
    const Stmt* t = task_;
    bool ok = true;
    auto in_range = [&](const Stmt* p) {
      const Access& a = *p->access;
      if (a.ext_arg >= 0 || a.shape.size() != p->ops.size()) return false;
      for (size_t d = 0; d < p->ops.size(); d++) {
        const Stmt* o = p->ops[d];
        if (is_index_of(o, t) ? t->begin >= 0 && t->end <= a.shape[d]
                              : o->kind == StmtKind::const_ && o->value.i >= 0 && o->value.i < a.shape[d])
          continue;
        return false;
      }
      return true;
    };
    const Block& b = *t->body;
    for (size_t i = 0; i < b.stmts.size(); i++) {
      if (i == at_) continue;
      auto visit = [&](Stmt* s) {
        if (jam_may_fail(s) && (s->kind != StmtKind::global_ptr || !in_range(s))) ok = false;
        if ((s->kind == StmtKind::global_store || s->kind == StmtKind::atomic) && i < at_) ok = false;
      };
      Stmt* s = b.stmts[i].get();
      visit(s);
      if (s->body) walk(*s->body, visit);
      if (s->else_body) walk(*s->else_body, visit);
    }
    walk(*inner_->body, [&](Stmt* s) {
      if (jam_may_fail(s) && !same_in_copies(s)) ok = false;
    });
    return ok;
  }
  static int key(const Stmt* p) { return p->access->field_id >= 0 ? p->access->field_id : -1; }
  static bool is_float(Prim p) { return p == Prim::f32 || p == Prim::f64 || p == Prim::f16; }
  Stmt* task_;
  int kinds_;       // JamKind flags: the nests to jam
  bool fast_math_;  // float locals' sums are split later, but kInOrder ones
  JamCopier cp_;
  Stmt* inner_ = nullptr;
  size_t at_ = 0;  // the inner loop's position in the body
};

}  // namespace

bool jam_outer(Kernel& k, int kinds, bool fast_math, std::vector<int>* factors) {
  if (factors) factors->clear();
  bool changed = false;
  for (auto& t : k.root.stmts) {
    if (t->kind != StmtKind::offloaded) continue;
    int K = 1;
    // (Under the debugger nothing is jammed: it steps through the program's own loops.)
    if (!k.keep_names) {
      Jam j(t.get(), kinds, fast_math);
      if (j.check()) {
        j.rewrite();
        K = 2;
      } else if (kinds & (kJamWhile | kJamWhileLanes)) {
        K = jam_while_loops(t.get(), (kinds & kJamWhileLanes) != 0);
      }
    }
    changed |= K > 1;
    if (factors) factors->push_back(K);
  }
  return changed;
}

}  // namespace kiln::ir
