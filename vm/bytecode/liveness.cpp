// When each value's register may be reused, so that a task needs about as
// many registers as it has values alive at once, not one per statement
// (kernels unrolled by ti.static easily have more than 65535 statements).
//
// Lowering emits code in the IR's pre-order, so "after the last use in
// pre-order" is the death point, with one correction: a use inside a loop
// that does not contain the definition keeps the value alive to the end of
// that loop, since the next iteration reads it again.
#include <unordered_set>

#include "vm/bytecode/builder.h"

namespace kiln::bc {

namespace {

struct Numbering {
  std::unordered_map<const ir::Stmt*, int> ord;        // pre-order position
  std::unordered_map<const ir::Stmt*, int> last;       // last position inside a statement's blocks
  std::vector<const ir::Stmt*> by_ord;

  int number(const ir::Block& b) {
    int end = (int)by_ord.size() - 1;
    for (auto& s : b.stmts) {
      ord[s.get()] = (int)by_ord.size();
      by_ord.push_back(s.get());
      end = ord[s.get()];
      if (s->body) end = std::max(end, number(*s->body));
      if (s->else_body) end = std::max(end, number(*s->else_body));
      last[s.get()] = end;
    }
    return end;
  }
};

bool is_loop(const ir::Stmt* s) {
  return s && (s->kind == ir::StmtKind::while_ || s->kind == ir::StmtKind::range_for);
}

}  // namespace

std::unordered_map<const ir::Stmt*, std::vector<const ir::Stmt*>> dying_after(const ir::Block& body) {
  // The maps are sized up front: rehashing them dominated large tasks.
  size_t total = ir::count_stmts(body);
  Numbering n;
  n.ord.reserve(total);
  n.last.reserve(total);
  n.by_ord.reserve(total);
  n.number(body);
  std::unordered_map<const ir::Stmt*, int> death;
  death.reserve(total);
  for (const ir::Stmt* s : n.by_ord) {
    if (s->has_value() || s->kind == ir::StmtKind::alloca) death.emplace(s, n.ord[s]);
  }
  // Whether block `b` encloses the definition at pre-order position `at`:
  // blocks above `body` do; a nested one does when its owner's span (the
  // owner and everything in its blocks) covers `at`.
  auto encloses = [&](const ir::Block* b, int at) {
    auto o = b->owner ? n.ord.find(b->owner) : n.ord.end();
    return o == n.ord.end() || (o->second < at && at <= n.last[b->owner]);
  };
  for (const ir::Stmt* u : n.by_ord) {
    for (const ir::Stmt* v : u->ops) {
      auto d = death.find(v);
      if (d == death.end()) continue;
      int at = n.ord[v];
      int point = n.ord[u];
      // The loops around the use that do not also enclose the definition.
      for (const ir::Block* b = u->parent; b && !encloses(b, at); b = b->owner ? b->owner->parent : nullptr)
        if (is_loop(b->owner)) point = std::max(point, n.last[b->owner]);
      d->second = std::max(d->second, point);
    }
  }
  // Values dying at one point are listed in definition order (not the hash
  // map's), so that registers come out the same for the same program.
  std::unordered_map<const ir::Stmt*, std::vector<const ir::Stmt*>> out;
  for (const ir::Stmt* v : n.by_ord)
    if (auto d = death.find(v); d != death.end()) out[n.by_ord[d->second]].push_back(v);
  return out;
}

}  // namespace kiln::bc
