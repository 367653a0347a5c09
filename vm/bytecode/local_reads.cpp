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

#include "vm/bytecode/builder.h"

namespace kiln::bc {

namespace {

// Each statement's readers, by position (CSR: users of position p are
// list[start[p] .. start[p + 1])).
struct Users {
  std::vector<uint32_t> start;
  std::vector<const ir::Stmt*> list;

  Users(const std::vector<ir::Block*>& blocks, const TaskIndex& ix) {
    start.assign(ix.size + 1, 0);
    for (ir::Block* blk : blocks)
      ir::walk(*blk, [&](ir::Stmt* s) {
        for (ir::Stmt* o : s->ops)
          if (ix.in(o)) start[ix.at(o) + 1]++;
      });
    for (size_t p = 0; p < ix.size; p++) start[p + 1] += start[p];
    list.resize(start[ix.size]);
    std::vector<uint32_t> fill(start.begin(), start.end() - 1);
    for (ir::Block* blk : blocks)
      ir::walk(*blk, [&](ir::Stmt* s) {
        for (ir::Stmt* o : s->ops)
          if (ix.in(o)) list[fill[ix.at(o)]++] = s;
      });
  }
};

struct Index {
  const TaskIndex& ix;
  std::vector<uint32_t> pos;  // by position in the task: position in its own block
  // (block, local) -> positions in the block of statements that may write
  // the local; key() packs the pair exactly.
  std::unordered_map<uint64_t, std::vector<size_t>> writes;
  std::vector<std::pair<const ir::Block*, size_t>> open;  // enclosing (block, position) while walking

  explicit Index(const TaskIndex& t) : ix(t), pos(t.size, 0) {}

  // A block is its owner's body (2p) or else_body (2p + 1) for an owner at
  // position p; the task's own blocks (TLS prologue, body, epilogue) come after.
  uint64_t key(const ir::Block* b, const ir::Stmt* local) const {
    const ir::Stmt* o = b->owner;
    uint64_t code;
    if (o && ix.in(o)) code = 2ull * ix.at(o) + (b == o->else_body.get());
    else code = 2ull * ix.size + (o && b == o->tls_prologue() ? 0 : o && b == o->tls_epilogue() ? 2 : 1);
    return code << 32 | ix.at(local);
  }

  // By bytecode lowering only local_store writes a local, but any statement
  // other than a load that names it counts too (as a statement containing it).
  void walk(const ir::Block& blk) {
    for (size_t i = 0; i < blk.stmts.size(); i++) {
      const ir::Stmt& s = *blk.stmts[i];
      if (ix.in(&s)) pos[ix.at(&s)] = (uint32_t)i;
      open.push_back({&blk, i});
      if (s.kind != ir::StmtKind::local_load)
        for (const ir::Stmt* o : s.ops)
          if (o->kind == ir::StmtKind::alloca && ix.in(o))
            for (auto [b, p] : open) {
              auto& w = writes[key(b, o)];
              if (w.empty() || w.back() != p) w.push_back(p);  // walked in order: stays sorted
            }
      if (s.body) walk(*s.body);
      if (s.else_body) walk(*s.else_body);
      open.pop_back();
    }
  }

  // Whether a statement strictly between positions `from` and `to` of `blk` may write `local`.
  bool written_between(const ir::Block& blk, const ir::Stmt* local, size_t from, size_t to) const {
    auto w = writes.find(key(&blk, local));
    if (w == writes.end()) return false;
    auto it = std::upper_bound(w->second.begin(), w->second.end(), from);
    return it != w->second.end() && *it < to;
  }
};

struct Finder {
  const TaskIndex& ix;
  const Users& users;
  const Index& index;
  std::vector<uint8_t>& out;
  std::vector<const ir::Stmt*> todo;  // qualifies' work list, kept between loads

  bool qualifies(const ir::Block& blk, size_t at) {
    const ir::Stmt* load = blk.stmts[at].get();
    const ir::Stmt* local = load->ops[0];
    if (!load->name.empty() || !load->type.is_scalar() || local->kind != ir::StmtKind::alloca || !ix.in(local))
      return false;
    // The values in the local's register: the load and identity casts of them.
    todo.assign(1, load);
    size_t last = at;
    while (!todo.empty()) {
      const ir::Stmt* v = todo.back();
      todo.pop_back();
      if (!v->name.empty()) return false;  // a named value stays readable (debugger)
      uint32_t p = ix.at(v);
      for (uint32_t k = users.start[p]; k < users.start[p + 1]; k++) {
        const ir::Stmt* user = users.list[k];
        if (user->parent != &blk) return false;
        size_t up = index.pos[ix.at(user)];
        if (up <= at) return false;
        last = std::max(last, up);
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
      if (s.kind == ir::StmtKind::local_load && !s.ops.empty() && ix.in(&s) && qualifies(blk, i)) out[ix.at(&s)] = 1;
      if (s.body) scan(*s.body);
      if (s.else_body) scan(*s.else_body);
    }
  }
};

}  // namespace

std::vector<uint8_t> loads_in_place(const std::vector<ir::Block*>& blocks, const TaskIndex& ix) {
  Users users(blocks, ix);
  Index index(ix);
  for (const ir::Block* blk : blocks) index.walk(*blk);
  std::vector<uint8_t> out(ix.size, 0);
  Finder f{ix, users, index, out, {}};
  for (const ir::Block* blk : blocks) f.scan(*blk);
  return out;
}

}  // namespace kiln::bc
