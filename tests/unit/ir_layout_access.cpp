// layout_access: in a range_for task that counts a blocked field's cells in
// layout order (i, j digits of the loop index L), which accesses become one
// index, L, with terms of L (their check dropped), and which keep theirs.
#include <doctest/doctest.h>

#include "vm/ir/builder.h"
#include "vm/ir/passes/own_elements.h"
#include "vm/ir/passes/passes.h"

using namespace kiln;
using namespace kiln::ir;

namespace {

// ti.root.dense(ti.ij, 4).dense(ti.ij, 2).place(x) with x f32 and `extra`
// bytes beside each inner block in the outer cell: the inner block is 16
// bytes, the outer cells (16 + extra) apart.
Access blocked(int64_t extra = 0) {
  Access a;
  a.field = "x";
  a.snode = "S2place<f32>";
  a.shape = {8, 8};
  int64_t outer = 16 + extra;
  a.terms = {{0, 2, 0, 4 * outer}, {1, 2, 0, outer}, {0, 1, 2, 8}, {1, 1, 2, 4}};
  return a;
}

Access flat() {
  Access a;
  a.field = "y";
  a.snode = "S1place<f32>";
  a.shape = {8, 8};
  a.terms = {{0, 1, 0, 32}, {1, 1, 0, 4}};
  return a;
}

struct Loop {
  Kernel k;
  Builder b{k.root};
  Stmt* task;
  Stmt* L;
  Loop() {
    task = b.offloaded(Task::range_for);
    task->begin = 0;
    task->end = 64;
    b.in(*task->body);
    L = b.loop_index(task);
  }
  Stmt* c(int64_t v) { return b.const_int(Prim::i32, v); }
  Stmt* op(BinaryOp o, Stmt* x, int64_t v) { return b.binary(o, x, c(v)); }
  // lower_for's layout order: i = L / 16 * 2 + L / 2 % 2, j = L / 4 % 4 * 2 + L % 2.
  std::pair<Stmt*, Stmt*> layout_ij() {
    Stmt* i = b.binary(BinaryOp::add, op(BinaryOp::mul, op(BinaryOp::div, L, 16), 2),
                       op(BinaryOp::raw_mod, op(BinaryOp::div, L, 2), 2));
    Stmt* j = b.binary(BinaryOp::add, op(BinaryOp::mul, op(BinaryOp::raw_mod, op(BinaryOp::div, L, 4), 4), 2),
                       op(BinaryOp::raw_mod, L, 2));
    return {i, j};
  }
  Stmt* load(Access a, std::vector<Stmt*> idx) {
    Stmt* p = b.global_ptr(std::move(a), Prim::f32, std::move(idx));
    b.global_load(p);
    return p;
  }
  void run() {
    layout_access(k);
    verify(k);
  }
};

bool by_counter(const Stmt* p, const Stmt* L, std::vector<IndexTerm> want) {
  if (p->ops.size() != 1 || p->ops[0] != L || p->access->checked) return false;
  const auto& ts = p->access->terms;
  if (ts.size() != want.size()) return false;
  for (size_t t = 0; t < ts.size(); t++)
    if (ts[t].axis != want[t].axis || ts[t].div != want[t].div || ts[t].mod != want[t].mod ||
        ts[t].stride != want[t].stride)
      return false;
  return p->access->shape == std::vector<int64_t>{64};
}

}  // namespace

TEST_CASE("the loop's own cell of a blocked field is L * element size") {
  Loop l;
  auto [i, j] = l.layout_ij();
  Stmt* own = l.load(blocked(), {i, j});
  // with an offset added and taken away again (a field's offset=)
  Stmt* shifted = l.load(blocked(), {l.op(BinaryOp::sub, l.op(BinaryOp::add, i, 3), 3), j});
  l.run();
  CHECK(by_counter(own, l.L, {{0, 1, 0, 4}}));
  CHECK(by_counter(shifted, l.L, {{0, 1, 0, 4}}));
}

TEST_CASE("the frontend's shifts and masks for powers of two are digits too") {
  // i = (L >> 4) * 2 + ((L >> 1) & 1), j = ((L >> 2) & 3) * 2 + (L & 1)
  Loop l;
  Stmt* i = l.b.binary(BinaryOp::add, l.op(BinaryOp::mul, l.op(BinaryOp::bit_shr, l.L, 4), 2),
                       l.op(BinaryOp::bit_and, l.op(BinaryOp::bit_shr, l.L, 1), 1));
  Stmt* j = l.b.binary(BinaryOp::add, l.op(BinaryOp::mul, l.op(BinaryOp::bit_and, l.op(BinaryOp::bit_shr, l.L, 2), 3), 2),
                       l.op(BinaryOp::bit_and, l.L, 1));
  Stmt* own = l.load(blocked(), {i, j});
  Stmt* odd = l.load(blocked(), {l.op(BinaryOp::bit_and, l.L, 5), j});  // a mask that is no remainder
  l.run();
  CHECK(by_counter(own, l.L, {{0, 1, 0, 4}}));
  CHECK(odd->ops.size() == 2);
}

TEST_CASE("blocks not back to back: the block's cells and the block, two terms") {
  Loop l;
  auto [i, j] = l.layout_ij();
  Stmt* p = l.load(blocked(8), {i, j});
  l.run();
  CHECK(by_counter(p, l.L, {{0, 1, 4, 4}, {0, 4, 0, 24}}));
}

TEST_CASE("accesses that are not whole digits keep their indices and checks") {
  Loop l;
  auto [i, j] = l.layout_ij();
  Stmt* next = l.load(blocked(), {l.op(BinaryOp::add, i, 1), j});  // may leave the shape
  Stmt* swapped = l.load(blocked(), {j, i});                          // whole digits, but as many terms
  Stmt* row = l.load(flat(), {i, j});                                 // a row-major field: as it was
  // a row-major count over a blocked field: i = L / 8 cuts the block's digit
  Stmt* cut = l.load(blocked(), {l.op(BinaryOp::div, l.L, 8), l.op(BinaryOp::raw_mod, l.L, 8)});
  l.run();
  CHECK(next->ops.size() == 2);
  CHECK(next->access->checked);
  CHECK(swapped->ops.size() == 2);
  CHECK(row->ops.size() == 2);
  CHECK(row->access->terms.size() == 2);
  CHECK(cut->ops.size() == 2);
  CHECK(cut->access->checked);
}

TEST_CASE("one axis over two levels counted in order: x[L] splits L at the block, L * 4") {
  // x over ti.root.dense(ti.i, 32).dense(ti.i, 2): terms i / 2 * 8 and i % 2 * 4
  Loop l;
  Access a = blocked();
  a.shape = {64};
  a.terms = {{0, 2, 0, 8}, {0, 1, 2, 4}};
  Stmt* p = l.load(a, {l.L});
  a.terms = {{0, 2, 0, 12}, {0, 1, 2, 4}};  // blocks 12 bytes apart: as many terms as before
  Stmt* padded = l.load(a, {l.L});
  l.run();
  CHECK(by_counter(p, l.L, {{0, 1, 0, 4}}));
  CHECK(padded->access->terms[0].stride == 12);
}

TEST_CASE("a digit of an axis of one (L % 1, ti.ndrange(2, 1, 32)) is 0 and adds no term") {
  Loop l;
  auto [i, j] = l.layout_ij();
  Stmt* p = l.load(blocked(), {l.b.binary(BinaryOp::add, i, l.op(BinaryOp::raw_mod, l.L, 1)), j});
  l.run();
  CHECK(by_counter(p, l.L, {{0, 1, 0, 4}}));
  // A term % 1 once made demote_atomics' chain of digits spin (own::distinct_elements).
  Access a = blocked();
  a.shape = {64};
  a.terms = {{0, 1, 1, 8}, {0, 1, 0, 4}};
  CHECK(own::distinct_elements(a));
}
