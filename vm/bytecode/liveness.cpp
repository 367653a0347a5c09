// When each value's register may be reused, so that a task needs about as
// many registers as it has values alive at once, not one per statement
// (kernels unrolled by ti.static easily have more than 65535 statements).
//
// Lowering emits code in the IR's pre-order, so "after the last use in
// pre-order" is the death point, with one correction: a use inside a loop
// that does not contain the definition keeps the value alive to the end of
// that loop, since the next iteration reads it again.
#include "vm/bytecode/builder.h"

namespace kiln::bc {

namespace {

// The body's statements in pre-order, and for each (by position) the last
// position inside it: the statement itself and everything in its blocks.
struct Spans {
  std::vector<const ir::Stmt*> order;
  std::vector<uint32_t> last;

  uint32_t number(const ir::Block& b, const TaskIndex& ix) {
    uint32_t end = 0;
    for (auto& s : b.stmts) {
      uint32_t at = ix.at(s.get());
      order.push_back(s.get());
      end = at;
      if (s->body && !s->body->stmts.empty()) end = std::max(end, number(*s->body, ix));
      if (s->else_body && !s->else_body->stmts.empty()) end = std::max(end, number(*s->else_body, ix));
      last[at] = end;
    }
    return end;
  }
};

bool is_loop(const ir::Stmt* s) {
  return s && (s->kind == ir::StmtKind::while_ || s->kind == ir::StmtKind::range_for);
}

}  // namespace

Deaths dying_after(const ir::Block& body, const TaskIndex& ix) {
  Spans n;
  n.last.assign(ix.size, 0);
  n.order.reserve(ix.size);
  n.number(body, ix);
  // Each value's death point (a position); -1 for statements without a value
  // and those outside `body` (the TLS prologue's keep their registers).
  std::vector<int32_t> death(ix.size, -1);
  for (const ir::Stmt* s : n.order)
    if (s->has_value() || s->kind == ir::StmtKind::alloca) death[ix.at(s)] = (int32_t)ix.at(s);
  // Whether block `b` encloses the definition at position `at`: blocks above
  // `body` do (their owner is the task, or outside it); a nested one does when
  // its owner's span (the owner and everything in its blocks) covers `at`.
  auto encloses = [&](const ir::Block* b, uint32_t at) {
    if (!b->owner || !ix.in(b->owner)) return true;
    uint32_t o = ix.at(b->owner);
    return o < at && at <= n.last[o];
  };
  for (const ir::Stmt* u : n.order) {
    for (const ir::Stmt* v : u->ops) {
      if (!ix.in(v) || death[ix.at(v)] < 0) continue;
      uint32_t at = ix.at(v);
      uint32_t point = ix.at(u);
      // The loops around the use that do not also enclose the definition.
      for (const ir::Block* b = u->parent; b && !encloses(b, at); b = b->owner ? b->owner->parent : nullptr)
        if (is_loop(b->owner)) point = std::max(point, n.last[ix.at(b->owner)]);
      death[at] = std::max(death[at], (int32_t)point);
    }
  }
  // Values dying at one point are listed in definition order, so that
  // registers come out the same for the same program (a counting sort).
  Deaths out;
  out.start.assign(ix.size + 1, 0);
  for (const ir::Stmt* v : n.order)
    if (int32_t d = death[ix.at(v)]; d >= 0) out.start[(size_t)d + 1]++;
  for (size_t p = 0; p < ix.size; p++) out.start[p + 1] += out.start[p];
  out.values.resize(out.start[ix.size]);
  std::vector<uint32_t> fill(out.start.begin(), out.start.end() - 1);
  for (const ir::Stmt* v : n.order)
    if (int32_t d = death[ix.at(v)]; d >= 0) out.values[fill[(size_t)d]++] = v;
  return out;
}

}  // namespace kiln::bc
