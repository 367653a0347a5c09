// demote_atomics on global data: which x[I] += e in a parallel range_for
// become load-op-store (I an injective function of the task's loop index,
// the only index x is accessed with in the task) and which stay atomic.
#include <doctest/doctest.h>

#include <functional>

#include "vm/ir/builder.h"
#include "vm/ir/passes/passes.h"

using namespace kiln;
using namespace kiln::ir;

namespace {

int count(Block* b, StmtKind kind) {
  int n = 0;
  if (b) walk(*b, [&](Stmt* s) { n += s->kind == kind; });
  return n;
}

Access field(int64_t offset) {
  Access a;
  a.tree = 0;
  a.offset = offset;
  a.field = "x";
  a.snode = "S1place<f32>";
  return a;
}

// A range_for task over [0, n) whose body gets the builder and the loop
// index; returns the number of atomics left after the pass.
int atomics_left(int64_t n, const std::function<void(Builder&, Stmt*)>& body) {
  Kernel k;
  Builder b(k.root);
  Stmt* task = b.offloaded(Task::range_for);
  task->begin = 0;
  task->end = n;
  b.in(*task->body);
  body(b, b.loop_index(task));
  demote_atomics(k);
  verify(k);
  return count(task->body.get(), StmtKind::atomic);
}

Stmt* k32(Builder& b, int64_t v) { return b.const_int(Prim::i32, v); }

// i = L / m, j = L % m: a 2-D ndrange of m columns.
std::pair<Stmt*, Stmt*> split2(Builder& b, Stmt* L, int64_t m) {
  return {b.binary(BinaryOp::div, L, k32(b, m)), b.binary(BinaryOp::raw_mod, L, k32(b, m))};
}

void add_at(Builder& b, Access a, std::vector<Stmt*> idx) {
  b.atomic(AtomicOp::add, b.global_ptr(std::move(a), Prim::f32, std::move(idx)), b.const_float(Prim::f32, 1.0));
}

}  // namespace

TEST_CASE("a 2-D ndrange's own element is demoted, in either index order") {
  CHECK(atomics_left(24, [](Builder& b, Stmt* L) {
          auto [i, j] = split2(b, L, 6);
          add_at(b, field(0), {i, j});
          add_at(b, field(0), {i, j});  // the same x[i, j] twice
        }) == 0);
  CHECK(atomics_left(24, [](Builder& b, Stmt* L) {
          auto [i, j] = split2(b, L, 6);
          add_at(b, field(0), {j, i});
        }) == 0);
  // with the axes' offsets (x[i + 1, j - 2]: still one element per iteration)
  CHECK(atomics_left(24, [](Builder& b, Stmt* L) {
          auto [i, j] = split2(b, L, 6);
          add_at(b, field(0), {b.binary(BinaryOp::add, i, k32(b, 1)), b.binary(BinaryOp::add, j, k32(b, -2))});
        }) == 0);
}

TEST_CASE("a 3-D split is demoted when its digits chain to the loop index") {
  // k = L % 3, j = L / 3 % 5, i = L / top
  auto split3 = [](int64_t top) {
    return atomics_left(60, [top](Builder& b, Stmt* L) {
      Stmt* k = b.binary(BinaryOp::raw_mod, L, k32(b, 3));
      Stmt* j = b.binary(BinaryOp::raw_mod, b.binary(BinaryOp::div, L, k32(b, 3)), k32(b, 5));
      add_at(b, field(0), {b.binary(BinaryOp::div, L, k32(b, top)), j, k});
    });
  };
  CHECK(split3(15) == 0);
  CHECK(split3(16) == 1);  // L / 16 skips a digit (j covers 3..15): iterations share elements
}

TEST_CASE("shared elements stay atomic") {
  // a row or a column only: iterations of one row share x[i]
  CHECK(atomics_left(24, [](Builder& b, Stmt* L) { add_at(b, field(0), {split2(b, L, 6).first}); }) == 1);
  CHECK(atomics_left(24, [](Builder& b, Stmt* L) {
          auto [i, j] = split2(b, L, 6);
          add_at(b, field(0), {i, k32(b, 0)});
        }) == 1);
  // x[i, j] and x[j, i] in one task: another iteration's element
  CHECK(atomics_left(36, [](Builder& b, Stmt* L) {
          auto [i, j] = split2(b, L, 6);
          add_at(b, field(0), {i, j});
          b.global_load(b.global_ptr(field(0), Prim::f32, {j, i}));
        }) == 1);
  // a different field's access does not matter
  CHECK(atomics_left(36, [](Builder& b, Stmt* L) {
          auto [i, j] = split2(b, L, 6);
          add_at(b, field(0), {i, j});
          b.global_load(b.global_ptr(field(4096), Prim::f32, {j, i}));
        }) == 0);
  // Python's floor division and a multiplied index are not recognized
  CHECK(atomics_left(24, [](Builder& b, Stmt* L) {
          add_at(b, field(0), {b.binary(BinaryOp::floordiv, L, k32(b, 6)), b.binary(BinaryOp::raw_mod, L, k32(b, 6))});
        }) == 1);
  CHECK(atomics_left(24, [](Builder& b, Stmt* L) { add_at(b, field(0), {b.binary(BinaryOp::mul, L, k32(b, 2))}); }) == 1);
}

TEST_CASE("a nested dense layout's element is its own; a quant_array's word is shared") {
  // ti.root.dense(ti.i, 4).dense(ti.i, 8): i / 8 and i % 8, a term each
  Access nested = field(0);
  nested.shape = {32};
  nested.terms = {{0, 8, 0, 32}, {0, 1, 8, 4}};
  CHECK(atomics_left(32, [&](Builder& b, Stmt* L) { add_at(b, nested, {L}); }) == 0);
  // blocked 2-D, as ti.root.dense(ti.ij, 64).dense(ti.ij, 8)
  Access blocked = field(0);
  blocked.shape = {512, 512};
  blocked.terms = {{0, 8, 0, 16384}, {1, 8, 0, 256}, {0, 1, 8, 32}, {1, 1, 8, 4}};
  CHECK(atomics_left(512 * 512, [&](Builder& b, Stmt* L) {
          auto [i, j] = split2(b, L, 512);
          add_at(b, blocked, {i, j});
        }) == 0);
  // a quant_array's word holds 8 indices: i / 8 picks the word, no term the rest
  Access quant = field(0);
  quant.shape = {32};
  quant.terms = {{0, 8, 0, 4}};
  CHECK(atomics_left(32, [&](Builder& b, Stmt* L) { add_at(b, quant, {L}); }) == 1);
  // a chain with a gap (i / 8 and i % 4): indices 4 apart share an element
  Access gap = field(0);
  gap.shape = {32};
  gap.terms = {{0, 8, 0, 32}, {0, 1, 4, 4}};
  CHECK(atomics_left(32, [&](Builder& b, Stmt* L) { add_at(b, gap, {L}); }) == 1);
  // a % 1 term (always 0) tells no index apart, and the chain does not spin on it
  Access mod1 = field(0);
  mod1.shape = {32};
  mod1.terms = {{0, 1, 1, 4}};
  CHECK(atomics_left(32, [&](Builder& b, Stmt* L) { add_at(b, mod1, {L}); }) == 1);
  mod1.terms = {{0, 1, 1, 4}, {0, 1, 0, 4}};
  CHECK(atomics_left(32, [&](Builder& b, Stmt* L) { add_at(b, mod1, {L}); }) == 0);
}
