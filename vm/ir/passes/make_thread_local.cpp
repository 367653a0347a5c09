// Thread-local reductions (Taichi's make_thread_local).
//
//   s = 0.0
//   for i in x: s += x[i]
//
// offloads to a range_for task whose body does `atomic add` on the global
// temporary holding `s`, once per element: a locked read-modify-write that
// every thread fights over. Each chunk of iterations a thread runs can instead
// sum into its own accumulator and add that into the global once:
//
//   tls prologue { acc = alloca; acc <- identity }
//   body         { acc <- acc + x[i] }            (no atomic)
//   tls epilogue { atomic add(s, acc) }
//
// The accumulator is an alloca, so bytecode keeps it in a register across the
// loop (the JIT's trace keeps it in a machine register) and the prologue and
// epilogue run once per chunk, around the loop, in the same function.
//
// A destination qualifies when every access the task makes to it is an atomic
// whose result is unused, all of one kind (add and sub count as one), on a
// 32/64-bit type. Destinations are global temporaries (a kernel's scalar
// locals live there across tasks) and 0-d fields, `total[None]` (a global_ptr
// without indices; nothing else can reach that address). Any load, store,
// used result or second kind of op leaves the destination atomic.
//
// Identities are exact, so a chunk whose iterations never update the
// accumulator leaves the global bit-for-bit as it was: -0.0 for float add
// (-0.0 + x == x for every x, +0.0 included); NaN for float min/max, since
// they are IEEE minimumNumber/maximumNumber, which ignore a NaN operand.
// Float sums are now added per chunk, then chunk sums into the global: a
// different order than one atomic per element, as in Taichi.
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "vm/ir/passes/passes.h"

namespace kiln::ir {

namespace {

// Where an atomic writes: a temp slot, or a 0-d field's (tree, offset).
using Dest = std::tuple<int, int, int64_t>;  // (0, slot, 0) or (1, tree, offset)

bool dest_of(const Stmt* p, Dest& d) {
  if (p->kind == StmtKind::global_temp) {
    d = {0, p->index, 0};
    return true;
  }
  if (dense_field_ptr(p)) {
    d = {1, p->access->tree, p->access->offset};
    return true;
  }
  return false;
}

// add and sub fold into one accumulator (the epilogue adds it).
AtomicOp kind_of(AtomicOp op) { return op == AtomicOp::sub ? AtomicOp::add : op; }

struct Candidate {
  bool ok = true;
  AtomicOp kind{};
  bool have_kind = false;
  Prim prim{};
  std::vector<Stmt*> ptrs;     // the pointer statements naming it
  std::vector<Stmt*> atomics;  // the updates to rewrite
  Stmt* first_ptr = nullptr;   // copied into the epilogue
};

Const identity(AtomicOp kind, Prim p) {
  bool f = prim_is_float(p);
  bool u = p == Prim::u32 || p == Prim::u64;
  bool wide = prim_bits(p) == 64;
  switch (kind) {
    case AtomicOp::add:
    case AtomicOp::sub:
      return f ? Const::of_float(p, -0.0) : Const::of_int(p, 0);
    case AtomicOp::min:
      if (f) return Const::of_float(p, std::numeric_limits<double>::quiet_NaN());
      if (u) return Const::of_int(p, wide ? -1 : (int64_t)UINT32_MAX);  // all ones, zero-extended
      return Const::of_int(p, wide ? INT64_MAX : INT32_MAX);
    case AtomicOp::max:
      if (f) return Const::of_float(p, std::numeric_limits<double>::quiet_NaN());
      return Const::of_int(p, u ? 0 : (wide ? INT64_MIN : INT32_MIN));
    case AtomicOp::bit_and: return Const::of_int(p, u && !wide ? (int64_t)UINT32_MAX : -1);
    case AtomicOp::bit_or:
    case AtomicOp::bit_xor: return Const::of_int(p, 0);
    case AtomicOp::mul: return f ? Const::of_float(p, 1.0) : Const::of_int(p, 1);
  }
  return Const::of_int(p, 0);
}

// The destinations of `task` that qualify, in order of first appearance (so
// that accumulators and the printed IR come out the same every run).
std::vector<Candidate> find_candidates(Stmt* task) {
  std::map<Dest, size_t> which;
  std::vector<Candidate> cands;
  std::unordered_set<const Stmt*> used_atomics;  // atomics whose result something reads
  bool snode_ops = false;
  walk(*task->body, [&](Stmt* s) {
    for (Stmt* o : s->ops)
      if (o->kind == StmtKind::atomic) used_atomics.insert(o);
    snode_ops |= s->kind == StmtKind::snode_op;
    Dest d;
    if (s->kind == StmtKind::atomic && dest_of(s->ops[0], d) && !which.count(d)) {
      which[d] = cands.size();
      cands.emplace_back();
    }
  });
  if (cands.empty()) return cands;  // most tasks: no second walk
  // Every statement that addresses a candidate must be a pointer used only as
  // the target of unused atomics of one kind.
  walk(*task->body, [&](Stmt* s) {
    Dest d;
    if (s->kind == StmtKind::global_ptr || s->kind == StmtKind::global_temp) {
      if (!dest_of(s, d)) return;
      auto it = which.find(d);
      if (it == which.end()) return;
      Candidate& c = cands[it->second];
      // A field element with indices at this address, or a sparse lookup
      // (activation is a side effect): not ours to touch.
      if (s->kind == StmtKind::global_ptr && (!s->ops.empty() || snode_ops)) c.ok = false;
      if (!c.first_ptr) c.first_ptr = s;
      c.ptrs.push_back(s);
      c.prim = s->type.prim;
      if (!word_prim(c.prim)) c.ok = false;
      return;
    }
    for (size_t i = 0; i < s->ops.size(); i++) {
      if (!dest_of(s->ops[i], d)) continue;
      auto it = which.find(d);
      if (it == which.end()) continue;
      Candidate& c = cands[it->second];
      bool update = s->kind == StmtKind::atomic && i == 0 && !used_atomics.count(s) && s->ops[1]->type.prim == s->ops[0]->type.prim;
      if (!update) {
        c.ok = false;
        continue;
      }
      AtomicOp k = kind_of(s->aop);
      if (c.have_kind && c.kind != k) c.ok = false;
      c.kind = k;
      c.have_kind = true;
      c.atomics.push_back(s);
    }
  });
  return cands;
}

// What localize does to the body, applied in one rebuild of each block (in
// place, each rewrite would scan and shift its block: quadratic in a body
// that unrolls many updates, issue 16).
struct BodyEdits {
  struct Update {
    Stmt* acc;
    Type t;
  };
  std::unordered_map<const Stmt*, Update> updates;  // atomic -> its accumulator
  std::unordered_set<const Stmt*> dropped;          // the candidates' pointers

  void apply(Block& b) {
    StmtList in = take_all(b);
    for (auto& owned : in) {
      Stmt* a = owned.get();
      if (dropped.count(a)) continue;  // dead now
      if (a->body) apply(*a->body);
      if (a->else_body) apply(*a->else_body);
      auto u = updates.find(a);
      if (u == updates.end()) {
        b.stmts.push_back(std::move(owned));
        continue;
      }
      // acc = acc op value; the atomic goes (its result had no users).
      auto [acc, t] = u->second;
      Stmt* old = b.add(make_stmt(StmtKind::local_load, t, a->loc, {acc}));
      auto op = make_stmt(StmtKind::binary, t, a->loc, {old, a->ops[1]});
      op->bop = binary_of(a->aop);
      Stmt* v = b.add(std::move(op));
      b.add(make_stmt(StmtKind::local_store, Type{}, a->loc, {acc, v}));
    }
  }
};

bool localize(Stmt* task) {
  // A ti.real_func may read or write any field: nothing the task updates can
  // be deferred to its end.
  bool calls = false;
  walk(*task->body, [&](Stmt* s) { calls |= s->kind == StmtKind::call; });
  if (calls) return false;
  std::vector<Candidate> cands = find_candidates(task);
  BodyEdits edits;
  for (Candidate& c : cands) {
    if (!c.ok || c.atomics.empty() || !c.first_ptr) continue;
    if (prim_is_float(c.prim) && (c.kind == AtomicOp::bit_and || c.kind == AtomicOp::bit_or || c.kind == AtomicOp::bit_xor))
      continue;
    if (!task->tls_prologue()) {
      StmtRare& r = task->rare_mut();
      r.tls_prologue = std::make_unique<Block>();
      r.tls_prologue->owner = task;
      r.tls_epilogue = std::make_unique<Block>();
      r.tls_epilogue->owner = task;
    }
    Type t = Type::scalar(c.prim);
    // Prologue and epilogue belong to the loop's own line, like its back
    // edge: a breakpoint on the reduction's line stops in the iterations.
    SourceLoc loc = task->loc;
    // Prologue: acc = identity.
    Block& pro = *task->tls_prologue();
    Stmt* acc = pro.add(make_stmt(StmtKind::alloca, t, loc));
    Stmt* init = pro.add(make_stmt(StmtKind::const_, t, loc));
    init->value = identity(c.kind, c.prim);
    pro.add(make_stmt(StmtKind::local_store, Type{}, loc, {acc, init}));
    // Body: each atomic becomes acc = acc op value.
    for (Stmt* a : c.atomics) edits.updates[a] = {acc, t};
    // Epilogue: one atomic of the chunk's result into the global.
    Block& epi = *task->tls_epilogue();
    auto ptr = make_stmt(c.first_ptr->kind, c.first_ptr->type, loc);
    ptr->index = c.first_ptr->index;
    ptr->access = c.first_ptr->access;
    Stmt* p = epi.add(std::move(ptr));
    Stmt* sum = epi.add(make_stmt(StmtKind::local_load, t, loc, {acc}));
    auto fold = make_stmt(StmtKind::atomic, t, loc, {p, sum});
    fold->aop = c.kind;
    epi.add(std::move(fold));
    // The body's pointers to it are dead now.
    for (Stmt* q : c.ptrs) edits.dropped.insert(q);
  }
  if (edits.updates.empty()) return false;
  edits.apply(*task->body);
  return true;
}

}  // namespace

bool make_thread_local(Kernel& k) {
  bool changed = false;
  for (auto& s : k.root.stmts)
    if (s->kind == StmtKind::offloaded && (s->task == Task::range_for || s->task == Task::struct_for) && s->body)
      changed |= localize(s.get());
  return changed;
}

}  // namespace kiln::ir
