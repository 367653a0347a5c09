// Loads of a local that may read the local's own register instead of a copy.
//
// `s += i * i % 7` loads s into a temporary, which costs the interpreter a
// `mov` per iteration although nothing writes s before the add reads it. A
// load qualifies when every read of its value (and of the identity casts
// sharing its register, lower_expr.cpp) is a later statement of the same
// block, and no statement from the load up to the last such read (nested
// blocks included) writes the local. Anything else keeps its copy.
#include <algorithm>

#include "vm/bytecode/builder.h"

namespace kiln::bc {

namespace {

// Whether `s` (or a statement nested in it) may write local `a`: by bytecode
// lowering only local_store does, but anything else naming it counts too.
bool may_write(const ir::Stmt& s, const ir::Stmt* a) {
  if (s.kind != ir::StmtKind::local_load && std::find(s.ops.begin(), s.ops.end(), a) != s.ops.end()) return true;
  for (const ir::Block* blk : {s.body.get(), s.else_body.get()})
    if (blk)
      for (auto& t : blk->stmts)
        if (may_write(*t, a)) return true;
  return false;
}

struct Finder {
  const std::unordered_map<const ir::Stmt*, std::vector<const ir::Stmt*>>& users;
  std::unordered_set<const ir::Stmt*>& out;

  bool qualifies(const ir::Block& blk, size_t at) {
    const ir::Stmt* load = blk.stmts[at].get();
    const ir::Stmt* local = load->ops[0];
    if (!load->name.empty() || !load->type.is_scalar() || local->kind != ir::StmtKind::alloca) return false;
    std::unordered_map<const ir::Stmt*, size_t> pos;
    for (size_t i = at; i < blk.stmts.size(); i++) pos[blk.stmts[i].get()] = i;
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
        auto p = pos.find(user);
        if (user->parent != &blk || p == pos.end() || p->second == at) return false;
        last = std::max(last, p->second);
        if (unary_shares_operand(*user)) todo.push_back(user);
      }
    }
    // The last reader reads before it writes (a store of the value itself
    // moves the register onto itself; an if's branches run after its test).
    for (size_t i = at + 1; i < last; i++)
      if (may_write(*blk.stmts[i], local)) return false;
    return true;
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
  std::unordered_set<const ir::Stmt*> out;
  Finder f{users, out};
  for (const ir::Block* blk : blocks) f.scan(*blk);
  return out;
}

}  // namespace kiln::bc
