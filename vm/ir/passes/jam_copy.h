// What jam_outer.cpp and jam_while.cpp share: copies of a task's statements
// for one of the two iterations a jammed pass runs, and the question whether
// a statement may stop the launch with an error.
#pragma once

#include <unordered_map>
#include <vector>

#include "vm/ir/ir.h"

namespace kiln::ir {

using JamMap = std::unordered_map<const Stmt*, Stmt*>;

// jam_while.cpp: jams `task` when its body is pure statements, one while
// loop of pure statements and breaks, then any statements; the iterations a
// pass runs (1: not jammed). `lanes`: one copy per vector lane (JamKind
// kJamWhileLanes).
int jam_while_loops(Stmt* task, bool lanes = false);

// A task whose iterations may be jammed: a parallel range_for of constant
// bounds over one index, at least 2 iterations, no TLS blocks (a shared
// accumulator's adds would change order).
inline bool jammable_task(const Stmt* t) {
  if (t->task != Task::range_for || t->serialize || t->tls_prologue() || t->tls_epilogue()) return false;
  if (!t->rare().begin_const || !t->rare().end_const || t->rare().num_loop_indices != 1) return false;
  return t->end - t->begin >= 2;
}

inline bool is_task_index(const Stmt* s, const Stmt* task) {
  return s->kind == StmtKind::loop_index && s->loop == task && s->index == 0;
}

// A statement that may stop the launch with an error: a checked access, an
// integer division by a value that may be 0.
inline bool jam_may_fail(const Stmt* s) {
  if (s->kind == StmtKind::global_ptr) return s->access->checked;
  if (s->kind != StmtKind::binary || s->type.prim == Prim::f32 || s->type.prim == Prim::f64 ||
      s->type.prim == Prim::f16)
    return false;
  switch (s->bop) {
    case BinaryOp::div: case BinaryOp::floordiv: case BinaryOp::mod: case BinaryOp::raw_mod: case BinaryOp::pow:
      return !(s->ops[1]->kind == StmtKind::const_ && s->ops[1]->value.i > 0);
    default: return false;
  }
}

// Copies of statements for one jammed iteration: each copy is recorded in a
// map, the task's index maps to m[nullptr] (the i of this copy), and once a
// run of statements is copied their operands and loop references point at
// the copies (uses follow definitions in pre-order: m has every value they
// read by then).
struct JamCopier {
  const Stmt* task;

  void copy(const StmtList& v, size_t from, size_t to, Block& out, JamMap& m) const {
    size_t first = out.stmts.size();
    for (size_t i = from; i < to; i++) copy_one(*v[i], out, m);
    relink_from(out, first, m);
  }
  void copy_block(const Block& b, Block& out, JamMap& m) const {
    size_t first = out.stmts.size();
    for (const auto& s : b.stmts) copy_one(*s, out, m);
    relink_from(out, first, m);
  }
  static void relink_from(Block& out, size_t first, const JamMap& m) {
    auto fix = [&](Stmt* s) {
      for (Stmt*& o : s->ops)
        if (auto f = m.find(o); o && f != m.end()) o = f->second;
      if (s->loop)
        if (auto f = m.find(s->loop); f != m.end()) s->loop = f->second;
    };
    for (size_t i = first; i < out.stmts.size(); i++) {
      Stmt* s = out.stmts[i].get();
      fix(s);
      if (s->body) walk(*s->body, fix);
      if (s->else_body) walk(*s->else_body, fix);
    }
  }
  // Copies `s` (and its blocks) to the end of `out`, unlinked; returns the copy
  // (nullptr for the task's index, which maps to this copy's i).
  Stmt* copy_one(const Stmt& s, Block& out, JamMap& m) const {
    if (is_task_index(&s, task)) {
      m[&s] = m.at(nullptr);
      return nullptr;
    }
    Stmt* n = out.add(clone_stmt(s));
    n->frame = s.frame;
    n->name = s.name;
    n->var_kind = s.var_kind;
    m[&s] = n;
    auto child = [&](const std::unique_ptr<Block>& b) -> std::unique_ptr<Block> {
      if (!b) return nullptr;
      auto c = std::make_unique<Block>();
      c->owner = n;
      for (const auto& x : b->stmts) copy_one(*x, *c, m);
      return c;
    };
    n->body = child(s.body);
    n->else_body = child(s.else_body);
    return n;
  }
  // Starts the jammed body of the task (its statements taken out as `old`)
  // for K = maps.size() iterations a pass: k is the new loop's index, copy c
  // runs i_c = begin + K*k + c (maps[c][nullptr]). Where K does not divide the
  // count, the last pass runs the iterations left alone, the body as it was,
  // under `if i_(K-1) < end: ... else:` (i_0 always, i_c under `if i_c < end`).
  // Returns the block the group's statements go to; close_group then gives
  // the task its range of passes.
  Block* open_group(const StmtList& old, std::vector<JamMap>& maps) const {
    Stmt* t = const_cast<Stmt*>(task);
    const int64_t b = t->begin, n = t->end - t->begin, K = (int64_t)maps.size();
    Block& body = *t->body;
    Type it = Type::scalar(Prim::i32);
    for (const auto& s : old) {
      auto see = [&](const Stmt* x) {
        if (is_task_index(x, t)) it = x->type;
      };
      see(s.get());
      if (s->body) walk(*s->body, see);
      if (s->else_body) walk(*s->else_body, see);
    }
    auto konst = [&](Block& to, int64_t v) {
      auto c = make_stmt(StmtKind::const_, it, t->loc);
      c->value = Const::of_int(it.prim, v);
      return to.add(std::move(c));
    };
    auto bin = [&](Block& to, BinaryOp op, Stmt* x, Stmt* y, Type ty) {
      auto s = make_stmt(StmtKind::binary, ty, t->loc, {x, y});
      s->bop = op;
      return to.add(std::move(s));
    };
    auto idx = make_stmt(StmtKind::loop_index, it, t->loc);
    idx->loop = t;
    Stmt* k = body.add(std::move(idx));
    Stmt* i0 = bin(body, BinaryOp::mul, k, konst(body, K), it);
    if (b) i0 = bin(body, BinaryOp::add, i0, konst(body, b), it);
    for (int64_t c = 0; c < K; c++) maps[c][nullptr] = c ? bin(body, BinaryOp::add, i0, konst(body, c), it) : i0;
    if (n % K == 0) return &body;
    Stmt* last = bin(body, BinaryOp::cmp_lt, maps[K - 1].at(nullptr), konst(body, t->end), Type::scalar(Prim::i32));
    Stmt* s = body.add(new_if(last, t->loc));
    for (int64_t c = 0; c < K - 1; c++) {
      Block* to = s->else_body.get();
      if (c) {
        Stmt* i = maps[c].at(nullptr);
        // (the compare sits in the else block, before the `if` it guards)
        auto cmp = make_stmt(StmtKind::binary, Type::scalar(Prim::i32), t->loc, {i, konst(*to, t->end)});
        cmp->bop = BinaryOp::cmp_lt;
        to = to->add(new_if(to->add(std::move(cmp)), t->loc))->body.get();
      }
      JamMap alone{{nullptr, maps[c].at(nullptr)}};
      copy(old, 0, old.size(), *to, alone);
    }
    return s->body.get();
  }
  void close_group(int64_t K) const {
    Stmt* t = const_cast<Stmt*>(task);
    const int64_t n = t->end - t->begin;
    t->begin = 0;
    t->end = (n + K - 1) / K;
  }
  // An `if cond` with empty true and false blocks, for the caller to place.
  static std::unique_ptr<Stmt> new_if(Stmt* cond, SourceLoc loc) {
    auto br = make_stmt(StmtKind::if_, Type{}, loc, {cond});
    br->body = std::make_unique<Block>();
    br->else_body = std::make_unique<Block>();
    br->body->owner = br.get();
    br->else_body->owner = br.get();
    return br;
  }
};

}  // namespace kiln::ir
