// fast_math's second rewrite (docs/fast_math.md): a float sum carried around
// a loop adds into W interleaved partial sums (W = 16 for f32, 8 for f64: the
// lanes of one 512-bit register), combined in a fixed order after the loop.
//
//   s = ...                        s = ...
//   loop {                         p0..pW-1 = -0.0
//     x = s                        loop {
//     s = x + e          ->          x = p0
//   }                                y = x + e
//                                    p0 = p1; ...; pW-2 = pW-1; pW-1 = y
//                                  }
//                                  s = s + (pairwise: (p0 + p1) + (p2 + p3), ...)
//
// The partials rotate: each add reads p0 and the result moves to the back,
// so the n-th add of a loop instance (or of a parallel loop's chunk) goes
// into partial n % W, and after N adds p_j holds partial (N + j) % W. That
// is plain IR every engine runs as written (the interpreter pays W moves per
// add), and W consecutive adds touch W different partials: the JIT runs
// them as one packed add on lanes p0..pW-1 (a rotation by W is the
// identity), whatever iteration its vector loop starts at. W is the lanes
// of a 512-bit register: one zmm on an AVX-512 host, two independent ymm
// chains on an AVX2 one (more latency hidden, not less).
//
// A sum qualifies when, inside the innermost loop holding it, the only
// accesses to its local are one load and one store of `load + e`,
// `load - e` or `fma(a, b, load)` (fast_math's contraction of
// `s += a * b`), in one block with no nested block between them, the load
// used by that sum only. A loop that also reads the running value (a prefix
// sum) or updates it twice keeps program order. Loops are range_for, while
// and the parallel range_for/struct_for tasks, whose per-chunk accumulators
// (make_thread_local) get their partials in the TLS prologue and combine at
// the start of the TLS epilogue, before the fold into the global.
#include <unordered_map>
#include <unordered_set>

#include "vm/ir/passes/passes.h"

namespace kiln::ir {

namespace {

bool is_loop(const Stmt* s) {
  return s->kind == StmtKind::range_for || s->kind == StmtKind::while_ ||
         (s->kind == StmtKind::offloaded && (s->task == Task::range_for || s->task == Task::struct_for));
}

// Calls fn(L) for every loop L whose body holds `s` (innermost first).
template <class F> void enclosing_loops(const Stmt* s, F&& fn) {
  for (const Block* b = s->parent; b && b->owner; b = b->owner->parent)
    if (is_loop(b->owner) && b == b->owner->body.get()) fn(b->owner);
}

struct Split {
  // By id (split_sums numbers the kernel first; the statements it makes are
  // never looked up): operand uses, index in their block, and for float
  // allocas 1 + their index in `allocas`.
  std::vector<int> uses;
  std::vector<uint32_t> pos;
  std::vector<uint32_t> alloca_no;
  std::vector<std::vector<Stmt*>> accs;                      // per float alloca: its loads and stores
  std::vector<Stmt*> allocas;                                // in program order
  std::unordered_set<const Stmt*> other;                     // float allocas with other uses

  // Statements placed around loops and replacing stores.
  std::unordered_map<const Stmt*, StmtList> before, after, rotate;

  void scan(Block& b) {
    for (size_t i = 0; i < b.stmts.size(); i++) {
      Stmt* s = b.stmts[i].get();
      pos[(size_t)s->id] = (uint32_t)i;
      for (Stmt* o : s->ops) uses[(size_t)o->id]++;
      if (s->kind == StmtKind::alloca && s->type.is_scalar() && (s->type.prim == Prim::f32 || s->type.prim == Prim::f64)) {
        allocas.push_back(s);
        accs.emplace_back();
        alloca_no[(size_t)s->id] = (uint32_t)allocas.size();
      }
      bool access = s->kind == StmtKind::local_load || s->kind == StmtKind::local_store;
      if (access)
        if (uint32_t a = alloca_no[(size_t)s->ops[0]->id]) accs[a - 1].push_back(s);
      // A local some other statement takes (an atomic that demotion left)
      // is not a sum this pass can see whole.
      for (size_t k = access ? 1 : 0; k < s->ops.size(); k++)
        if (alloca_no[(size_t)s->ops[k]->id]) other.insert(s->ops[k]);
      if (s->tls_prologue()) scan(*s->tls_prologue());
      if (s->body) scan(*s->body);
      if (s->else_body) scan(*s->else_body);
      if (s->tls_epilogue()) scan(*s->tls_epilogue());
    }
  }

  // The operand of sum `y` that is its running value `x`, or false.
  static bool sum_of(const Stmt* y, const Stmt* x) {
    if (y->kind == StmtKind::binary && y->bop == BinaryOp::add) return (y->ops[0] == x) != (y->ops[1] == x);
    if (y->kind == StmtKind::binary && y->bop == BinaryOp::sub) return y->ops[0] == x && y->ops[1] != x;
    if (y->kind == StmtKind::fma) return y->ops[2] == x && y->ops[0] != x && y->ops[1] != x;
    return false;
  }

  // Whether load `x` and store `st` of alloca `a` are `a = a + e`.
  bool pattern(const Stmt* a, const Stmt* x, const Stmt* st) {
    if (x->kind != StmtKind::local_load || st->kind != StmtKind::local_store || x->parent != st->parent) return false;
    const Stmt* y = st->ops[1];
    if (y->parent != x->parent || y->type != a->type || !sum_of(y, x) || uses[(size_t)x->id] != 1 ||
        uses[(size_t)y->id] != 1)
      return false;
    size_t px = pos[(size_t)x->id], ps = pos[(size_t)st->id];
    if (px > ps || ps - px > 64) return false;
    const Block& b = *x->parent;
    bool seen_y = false;
    for (size_t i = px + 1; i < ps; i++) {
      const Stmt* s = b.stmts[i].get();
      if (s->body || s->else_body) return false;  // a continue or break between them
      seen_y |= s == y;
    }
    return seen_y;
  }

  std::unique_ptr<Stmt> at(StmtKind k, Type t, const Stmt* where, std::vector<Stmt*> ops = {}) {
    auto s = make_stmt(k, t, where->loc, std::move(ops));
    s->frame = where->frame;  // the debugger's inlined ti.func
    return s;
  }

  void split(Stmt* a, Stmt* loop, Stmt* x, Stmt* st) {
    Type t = a->type;
    const int w = t.prim == Prim::f32 ? 16 : 8;
    bool task = loop->kind == StmtKind::offloaded;
    // -0.0: the exact identity (-0.0 + v == v for every v, +0.0 included).
    StmtList pre;
    std::vector<Stmt*> p;
    auto zero = at(StmtKind::const_, t, loop);
    zero->value = Const::of_float(t.prim, -0.0);
    Stmt* z = zero.get();
    pre.push_back(std::move(zero));
    for (int j = 0; j < w; j++) {
      pre.push_back(at(StmtKind::alloca, t, loop));
      p.push_back(pre.back().get());
      pre.push_back(at(StmtKind::local_store, Type{}, loop, {p[j], z}));
    }
    // The add reads p0; the partials move down one and the sum goes last.
    x->ops[0] = p[0];
    auto& rot = rotate[st];
    for (int j = 1; j < w; j++) {
      rot.push_back(at(StmtKind::local_load, t, st, {p[j]}));
      Stmt* v = rot.back().get();
      rot.push_back(at(StmtKind::local_store, Type{}, st, {p[j - 1], v}));
    }
    rot.push_back(at(StmtKind::local_store, Type{}, st, {p[w - 1], st->ops[1]}));
    // After the loop: s = s + the fixed-order combination, pairwise: with
    // 16, (((p0 + p1) + (p2 + p3)) + ((p4 + p5) + (p6 + p7))) +
    // (((p8 + p9) + (p10 + p11)) + ((p12 + p13) + (p14 + p15))).
    StmtList post;
    auto add = [&](Stmt* l, Stmt* r) {
      auto s = at(StmtKind::binary, t, loop, {l, r});
      s->bop = BinaryOp::add;
      post.push_back(std::move(s));
      return post.back().get();
    };
    std::vector<Stmt*> v;
    for (int j = 0; j < w; j++) {
      post.push_back(at(StmtKind::local_load, t, loop, {p[j]}));
      v.push_back(post.back().get());
    }
    while (v.size() > 1) {
      std::vector<Stmt*> half;
      for (size_t j = 0; j < v.size(); j += 2) half.push_back(add(v[j], v[j + 1]));
      v = half;
    }
    post.push_back(at(StmtKind::local_load, t, loop, {a}));
    Stmt* old = post.back().get();
    Stmt* sum = add(old, v[0]);
    post.push_back(at(StmtKind::local_store, Type{}, loop, {a, sum}));
    // A task's partials start in its TLS prologue (per chunk); a loop's before it.
    for (auto& s : pre) task ? (void)loop->tls_prologue()->add(std::move(s)) : before[loop].push_back(std::move(s));
    auto& e = after[loop];
    for (auto& s : post) e.push_back(std::move(s));
  }

  bool run() {
    bool changed = false;
    for (size_t n = 0; n < allocas.size(); n++) {
      Stmt* a = allocas[n];
      if (other.count(a) || a->index == kInOrder) continue;
      auto& list = accs[n];
      // How many of a's accesses each loop holds; a loop that holds exactly a
      // load and a store as its own (innermost) accesses is a candidate.
      std::unordered_map<const Stmt*, int> inside;
      std::unordered_map<const Stmt*, std::vector<Stmt*>> own;
      for (Stmt* s : list) {
        bool first = true;
        enclosing_loops(s, [&](const Stmt* l) {
          inside[l]++;
          if (first) own[l].push_back(s);
          first = false;
        });
      }
      for (Stmt* s : list) {  // in program order, so the output is the same every run
        if (s->kind != StmtKind::local_load) continue;
        Stmt* loop = nullptr;
        enclosing_loops(s, [&](const Stmt* l) {
          if (!loop) loop = const_cast<Stmt*>(l);
        });
        if (!loop || inside[loop] != 2 || own[loop].size() != 2 || own[loop][0] != s) continue;
        bool a_inside = false;
        enclosing_loops(a, [&](const Stmt* l) { a_inside |= l == loop; });
        if (a_inside) continue;
        if (loop->kind == StmtKind::offloaded && (!loop->tls_prologue() || a->parent != loop->tls_prologue()))
          continue;
        if (!pattern(a, s, own[loop][1])) continue;
        split(a, loop, s, own[loop][1]);
        changed = true;
      }
    }
    return changed;
  }

  // One rebuild of every block: partials before their loops, rotations for
  // the stores, combinations after the loops (the start of a task's epilogue).
  void apply(Block& b) {
    auto in = take_all(b);
    for (auto& owned : in) {
      Stmt* s = owned.get();
      if (s->body) apply(*s->body);
      if (s->else_body) apply(*s->else_body);
      if (s->tls_epilogue()) apply(*s->tls_epilogue());
      if (auto r = rotate.find(s); r != rotate.end()) {
        for (auto& x : r->second) b.add(std::move(x));
        continue;  // the store is replaced
      }
      if (auto p = before.find(s); p != before.end())
        for (auto& x : p->second) b.add(std::move(x));
      auto e = after.find(s);
      if (e != after.end() && s->kind == StmtKind::offloaded) {
        auto rest = take_all(*s->tls_epilogue());
        for (auto& x : e->second) s->tls_epilogue()->add(std::move(x));
        for (auto& x : rest) s->tls_epilogue()->add(std::move(x));
      }
      b.add(std::move(owned));
      if (e != after.end() && s->kind != StmtKind::offloaded)
        for (auto& x : e->second) b.add(std::move(x));
    }
  }
};

}  // namespace

bool split_sums(Kernel& k) {
  Split sp;
  size_t n = number_stmts(k);
  sp.uses.assign(n, 0);
  sp.pos.assign(n, 0);
  sp.alloca_no.assign(n, 0);
  sp.scan(k.root);
  if (!sp.run()) return false;
  sp.apply(k.root);
  return true;
}

}  // namespace kiln::ir
