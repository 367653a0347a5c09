// Loads of a local that may read the local's own register instead of a copy.
//
// `s += i * i % 7` loads s into a temporary, which costs the interpreter a
// `mov` per iteration although nothing writes s before the add reads it. A
// load qualifies when every read of its value (and of the identity casts
// sharing its register, lower_expr.cpp) is a later statement of the same
// block, and no statement from the load up to the last such read (nested
// blocks included) writes the local. Anything else keeps its copy.
//
// Linear in the task's size (kernels of 10^5 statements come from ti.static
// unrolling, issue 16): one walk records each statement's position in its
// block and, per (block, local), the sorted positions of the block's
// statements that may write the local (a write nested in an if or a loop
// counts at every enclosing statement's position); each load then checks its
// readers' positions and asks for a write between with one binary search.
#include <algorithm>
#include <map>

#include "vm/bytecode/builder.h"

namespace kiln::bc {

namespace {

struct Index {
  std::unordered_map<const ir::Stmt*, size_t> pos;  // position in its own block
  // (block, local) -> positions in the block of statements that may write the local
  std::map<std::pair<const ir::Block*, const ir::Stmt*>, std::vector<size_t>> writes;
  std::vector<std::pair<const ir::Block*, size_t>> open;  // enclosing (block, position) while walking

  // By bytecode lowering only local_store writes a local, but any statement
  // other than a load that names it counts too (as a statement containing it).
  void walk(const ir::Block& blk) {
    for (size_t i = 0; i < blk.stmts.size(); i++) {
      const ir::Stmt& s = *blk.stmts[i];
      pos[&s] = i;
      open.push_back({&blk, i});
      if (s.kind != ir::StmtKind::local_load)
        for (const ir::Stmt* o : s.ops)
          if (o->kind == ir::StmtKind::alloca)
            for (auto [b, p] : open) {
              auto& w = writes[{b, o}];
              if (w.empty() || w.back() != p) w.push_back(p);  // walked in order: stays sorted
            }
      if (s.body) walk(*s.body);
      if (s.else_body) walk(*s.else_body);
      open.pop_back();
    }
  }

  // Whether a statement strictly between positions `from` and `to` of `blk` may write `local`.
  bool written_between(const ir::Block& blk, const ir::Stmt* local, size_t from, size_t to) const {
    auto w = writes.find({&blk, local});
    if (w == writes.end()) return false;
    auto it = std::upper_bound(w->second.begin(), w->second.end(), from);
    return it != w->second.end() && *it < to;
  }
};

struct Finder {
  const std::unordered_map<const ir::Stmt*, std::vector<const ir::Stmt*>>& users;
  const Index& index;
  std::unordered_set<const ir::Stmt*>& out;

  bool qualifies(const ir::Block& blk, size_t at) {
    const ir::Stmt* load = blk.stmts[at].get();
    const ir::Stmt* local = load->ops[0];
    if (!load->name.empty() || !load->type.is_scalar() || local->kind != ir::StmtKind::alloca) return false;
    // The values in the local's register: the load and identity casts of them.
    std::vector<const ir::Stmt*> todo{load};
    size_t last = at;
    while (!todo.empty()) {
      const ir::Stmt* v = todo.back();
      todo.pop_back();
      if (!v->name.empty()) return false;  // a named value stays readable (debugger)
      auto u = users.find(v);
      if (u == users.end()) continue;
      for (const ir::Stmt* user : u->second) {
        if (user->parent != &blk) return false;
        size_t p = index.pos.at(user);
        if (p <= at) return false;
        last = std::max(last, p);
        if (unary_shares_operand(*user)) todo.push_back(user);
      }
    }
    // The last reader reads before it writes (a store of the value itself
    // moves the register onto itself; an if's branches run after its test).
    return !index.written_between(blk, local, at, last);
  }

  void scan(const ir::Block& blk) {
    for (size_t i = 0; i < blk.stmts.size(); i++) {
      const ir::Stmt& s = *blk.stmts[i];
      if (s.kind == ir::StmtKind::local_load && !s.ops.empty() && qualifies(blk, i)) out.insert(&s);
      if (s.body) scan(*s.body);
      if (s.else_body) scan(*s.else_body);
    }
  }
};

}  // namespace

std::unordered_set<const ir::Stmt*> loads_in_place(const std::vector<ir::Block*>& blocks) {
  std::unordered_map<const ir::Stmt*, std::vector<const ir::Stmt*>> users;
  for (ir::Block* blk : blocks)
    ir::walk(*blk, [&](ir::Stmt* s) {
      for (ir::Stmt* o : s->ops) users[o].push_back(s);
    });
  Index index;
  for (const ir::Block* blk : blocks) index.walk(*blk);
  std::unordered_set<const ir::Stmt*> out;
  Finder f{users, index, out};
  for (const ir::Block* blk : blocks) f.scan(*blk);
  return out;
}

}  // namespace kiln::bc
