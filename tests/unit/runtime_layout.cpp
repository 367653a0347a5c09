// SNode layout: shapes, virtual/physical index maps, byte addresses, the
// access terms the IR uses, and the errors users see when building fields.
#include <doctest/doctest.h>

#include <cstring>
#include <functional>
#include <set>

#include "vm/runtime/program.h"

using namespace kiln;

namespace {

Config one_thread() {
  Config c;
  c.num_threads = 1;
  return c;
}

// Every multi-index of a shape, last axis fastest; 0-D fields have exactly one.
void for_each_index(const std::vector<int64_t>& shape,
                    const std::function<void(const std::vector<int64_t>&)>& fn) {
  std::vector<int64_t> idx(shape.size(), 0);
  for (;;) {
    fn(idx);
    int a = (int)shape.size() - 1;
    while (a >= 0 && ++idx[a] == shape[a]) idx[a--] = 0;
    if (a < 0) return;
  }
}

// The formula documented at ir::Access, evaluated the way an engine would.
uint8_t* eval_access(Program& p, const ir::Access& acc, const std::vector<int64_t>& idx) {
  int64_t off = acc.offset;
  for (const auto& t : acc.terms) {
    int64_t q = idx[t.axis] / t.div;
    if (t.mod) q %= t.mod;
    off += q * t.stride;
  }
  return p.tree_bases()[acc.tree] + off;
}

uint8_t* addr(Program& p, FieldInfo* f, std::vector<int64_t> idx) {
  return static_cast<uint8_t*>(p.element_address(*f, idx.data(), (int)idx.size(), {}));
}

// Checks, for every element of f, that the access terms agree with
// element_address and that the address is expected(idx) bytes into the tree.
void check_field(Program& p, FieldInfo* f,
                 const std::function<int64_t(const std::vector<int64_t>&)>& expected) {
  ir::Access acc = p.access_of(*f);
  uint8_t* base = p.tree_bases()[acc.tree];
  REQUIRE(base != nullptr);
  CHECK(acc.shape == f->shape);
  CHECK(acc.field == f->name);
  CHECK(acc.snode == f->place->name());
  for (const auto& t : acc.terms) {
    CHECK(t.axis >= 0);
    CHECK(t.axis < (int)f->shape.size());
    CHECK(t.div >= 1);
  }
  int64_t elem = prim_bits(f->dtype) / 8;
  int64_t tree_size = p.trees[acc.tree]->size;
  for_each_index(f->shape, [&](const std::vector<int64_t>& idx) {
    uint8_t* a = addr(p, f, idx);
    CHECK(a == eval_access(p, acc, idx));
    CHECK(a - base == expected(idx));
    CHECK((a - base) % elem == 0);  // natural alignment
    CHECK(a - base + elem <= tree_size);
  });
}

Error error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e;
  }
  FAIL("expected a kiln::Error");
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("dense 2-D field: ti.field(ti.f32, shape=(4, 8))") {
  Program p(one_thread());
  FieldInfo* x = p.create_dense_field(Prim::f32, {4, 8}, "x", {});
  CHECK(x->shape == std::vector<int64_t>{4, 8});
  SNode* dense = x->place->parent;
  CHECK(dense->parent == p.trees[0]->root.get());
  CHECK(p.trees[0]->root->name() == "S0root");
  CHECK(dense->name() == "S1dense");
  CHECK(x->place->name() == "S2place<f32>");
  CHECK(dense->num_cells() == 32);
  CHECK(x->place->physical_index_position == std::vector<int>{0, 1});
  p.materialize();
  CHECK(p.trees[0]->size == 128);
  CHECK(dense->cell_size == 4);
  CHECK(dense->container_size == 128);
  check_field(p, x, [](auto& i) { return (i[0] * 8 + i[1]) * 4; });
  ir::Access acc = p.access_of(*x);
  CHECK(acc.offset == 0);
  REQUIRE(acc.terms.size() == 2);
  CHECK(acc.terms[0].stride == 32);
  CHECK(acc.terms[0].mod == 0);
  CHECK(acc.terms[1].stride == 4);
  CHECK(acc.terms[1].mod == 0);
}

TEST_CASE("memory starts zeroed and elements do not overlap") {
  Program p(one_thread());
  FieldInfo* x = p.create_dense_field(Prim::i32, {5, 7, 3}, "x", {});
  FieldInfo* y = p.create_dense_field(Prim::f64, {6}, "y", {});
  p.materialize();
  int32_t n = 0;
  for_each_index(x->shape, [&](auto& i) {
    int32_t v;
    std::memcpy(&v, addr(p, x, i), 4);
    CHECK(v == 0);
    ++n;
    std::memcpy(addr(p, x, i), &n, 4);
  });
  for_each_index(y->shape, [&](auto& i) {
    double d = (double)i[0] + 0.5;
    std::memcpy(addr(p, y, i), &d, 8);
  });
  n = 0;
  for_each_index(x->shape, [&](auto& i) {
    int32_t v;
    std::memcpy(&v, addr(p, x, i), 4);
    CHECK(v == ++n);
  });
  for_each_index(y->shape, [&](auto& i) {
    double d;
    std::memcpy(&d, addr(p, y, i), 8);
    CHECK(d == (double)i[0] + 0.5);
  });
}

TEST_CASE("AoS: two fields placed in one dense") {
  Program p(one_thread());
  FieldInfo* x = p.create_field(Prim::f32, "x", {});
  FieldInfo* y = p.create_field(Prim::f64, "y", {});
  FieldInfo* z = p.create_field(Prim::u8, "z", {});
  SNode* d = p.add_container(p.open_root(), SNodeKind::dense, {0}, {4}, {});
  p.place(d, x, {});
  p.place(d, y, {});
  p.place(d, z, {});
  CHECK(x->shape == std::vector<int64_t>{4});
  CHECK(z->shape == std::vector<int64_t>{4});
  p.materialize();
  // cell = {x @0, pad to 8, y @8, z @16, pad to 24}: aligned like its f64
  CHECK(d->cell_size == 24);
  CHECK(x->place->offset_in_cell == 0);
  CHECK(y->place->offset_in_cell == 8);
  CHECK(z->place->offset_in_cell == 16);
  CHECK(p.trees[0]->size == 96);
  check_field(p, x, [](auto& i) { return i[0] * 24; });
  check_field(p, y, [](auto& i) { return i[0] * 24 + 8; });
  check_field(p, z, [](auto& i) { return i[0] * 24 + 16; });
}

TEST_CASE("nested dense on the same axis composes into one dimension") {
  Program p(one_thread());
  FieldInfo* x = p.create_field(Prim::f32, "x", {});
  SNode* outer = p.add_container(p.open_root(), SNodeKind::dense, {0}, {4}, {});
  SNode* inner = p.add_container(outer, SNodeKind::dense, {0}, {2}, {});
  p.place(inner, x, {});
  CHECK(x->shape == std::vector<int64_t>{8});
  p.materialize();
  check_field(p, x, [](auto& i) { return i[0] * 4; });
  ir::Access acc = p.access_of(*x);
  REQUIRE(acc.terms.size() == 2);
  CHECK(acc.terms[0].div == 2);  // top level: index / 2, no modulo
  CHECK(acc.terms[0].mod == 0);
  CHECK(acc.terms[0].stride == 8);
  CHECK(acc.terms[1].div == 1);
  CHECK(acc.terms[1].mod == 2);
  CHECK(acc.terms[1].stride == 4);
}

TEST_CASE("2x2 tiles of 2x2 blocks") {
  Program p(one_thread());
  FieldInfo* x = p.create_field(Prim::i32, "x", {});
  SNode* blocks = p.add_container(p.open_root(), SNodeKind::dense, {0, 1}, {2, 3}, {});
  SNode* tile = p.add_container(blocks, SNodeKind::dense, {0, 1}, {2, 2}, {});
  p.place(tile, x, {});
  CHECK(x->shape == std::vector<int64_t>{4, 6});
  p.materialize();
  check_field(p, x, [](auto& i) {
    int64_t block = (i[0] / 2) * 3 + i[1] / 2, cell = (i[0] % 2) * 2 + i[1] % 2;
    return block * 16 + cell * 4;
  });
}

TEST_CASE("column-major: ti.root.dense(ti.j, 32).dense(ti.i, 16).place(b)") {
  Program p(one_thread());
  FieldInfo* a = p.create_dense_field(Prim::f32, {128, 32, 8}, "a", {});
  FieldInfo* b = p.create_field(Prim::f32, "b", {});
  SNode* j = p.add_container(p.open_root(), SNodeKind::dense, {1}, {32}, {});
  SNode* i = p.add_container(j, SNodeKind::dense, {0}, {16}, {});
  p.place(i, b, {});
  // seed 001's mapping_a and mapping_b
  CHECK(a->place->physical_positions() == std::vector<int>{0, 1, 2});
  CHECK(b->place->physical_positions() == std::vector<int>{1, 0});
  CHECK(b->place->physical_index_position == std::vector<int>{0, 1});
  CHECK(b->shape == std::vector<int64_t>{16, 32});  // b[i, j], j outermost in memory
  p.materialize();
  int64_t b_base = a->place->parent->container_size;
  CHECK(b_base == 128 * 32 * 8 * 4);
  check_field(p, a, [](auto& v) { return ((v[0] * 32 + v[1]) * 8 + v[2]) * 4; });
  check_field(p, b, [&](auto& v) { return b_base + (v[1] * 16 + v[0]) * 4; });
}

TEST_CASE("an axis that reappears below a split of another one") {
  Program p(one_thread());
  FieldInfo* x = p.create_field(Prim::f32, "x", {});
  SNode* top = p.add_container(p.open_root(), SNodeKind::dense, {1}, {2}, {});
  SNode* low = p.add_container(top, SNodeKind::dense, {0, 1}, {3, 4}, {});
  p.place(low, x, {});
  // x[i, j]; ti.j shows up first, so it is first in memory order
  CHECK(x->place->physical_positions() == std::vector<int>{1, 0});
  CHECK(x->shape == std::vector<int64_t>{3, 8});
  p.materialize();
  check_field(p, x, [](auto& v) { return (v[1] / 4) * 48 + (v[0] * 4 + v[1] % 4) * 4; });
}

TEST_CASE("0-D fields sit directly under the root") {
  Program p(one_thread());
  FieldInfo* s = p.create_dense_field(Prim::i32, {}, "s", {});
  FieldInfo* d = p.create_dense_field(Prim::f64, {}, "d", {});
  FieldInfo* v = p.create_dense_field(Prim::f32, {3}, "v", {});
  CHECK(s->shape.empty());
  CHECK(s->place->parent == p.trees[0]->root.get());
  CHECK(s->place->physical_index_position.empty());
  p.materialize();
  CHECK(p.access_of(*s).terms.empty());
  check_field(p, s, [](auto&) { return 0; });
  check_field(p, d, [](auto&) { return 8; });
  check_field(p, v, [](auto& i) { return 16 + i[0] * 4; });
  CHECK(p.trees[0]->size == 32);
  CHECK(p.element_address(*s, nullptr, 0, {}) == p.tree_bases()[0]);
}

TEST_CASE("extent-1 levels add no terms") {
  Program p(one_thread());
  FieldInfo* x = p.create_dense_field(Prim::f32, {1, 5}, "x", {});
  p.materialize();
  ir::Access acc = p.access_of(*x);
  REQUIRE(acc.terms.size() == 1);
  CHECK(acc.terms[0].axis == 1);
  check_field(p, x, [](auto& i) { return i[1] * 4; });
}

TEST_CASE("materialize twice keeps memory, a later field opens a second tree") {
  Program p(one_thread());
  FieldInfo* x = p.create_dense_field(Prim::i32, {4}, "x", {});
  p.materialize();
  uint8_t* m = p.tree_bases()[0];
  int32_t seven = 7;
  std::memcpy(addr(p, x, {2}), &seven, 4);
  p.materialize();
  CHECK(p.tree_bases()[0] == m);
  CHECK(p.trees.size() == 1);

  SNode* root1 = p.open_root();
  CHECK(root1 != p.trees[0]->root.get());
  CHECK(root1->tree == 1);
  FieldInfo* y = p.create_dense_field(Prim::f32, {3, 3}, "y", {});
  CHECK(y->place->tree == 1);
  CHECK(p.trees.size() == 2);
  CHECK(p.open_root() == root1);  // still open until materialized
  p.materialize();
  auto bases = p.tree_bases();
  REQUIRE(bases.size() == 2);
  CHECK(bases[0] == m);
  CHECK(bases[1] != nullptr);
  CHECK(bases[1] != m);
  CHECK(p.access_of(*y).tree == 1);
  check_field(p, y, [](auto& i) { return (i[0] * 3 + i[1]) * 4; });
  int32_t v;
  std::memcpy(&v, addr(p, x, {2}), 4);
  CHECK(v == 7);
  // SNode ids keep counting across trees
  CHECK(root1->name() == "S3root");
  CHECK(y->place->name() == "S5place<f32>");
}

TEST_CASE("an empty root stays open") {
  Program p(one_thread());
  SNode* r = p.open_root();
  p.materialize();
  CHECK(p.open_root() == r);
  CHECK(p.tree_bases() == std::vector<uint8_t*>{nullptr});
}

TEST_CASE("host access errors") {
  Program p(one_thread());
  FieldInfo* x = p.create_dense_field(Prim::f32, {8, 8}, "x", {});
  FieldInfo* s = p.create_dense_field(Prim::f32, {}, "s", {});
  FieldInfo* u = p.create_dense_field(Prim::f32, {3}, "", {});
  auto at = [&](FieldInfo* f, std::vector<int64_t> i) {
    return [&p, f, i] { p.element_address(*f, i.data(), (int)i.size(), {}); };
  };
  Error e = error_of(at(x, {8, 0}));
  CHECK(e.kind == "IndexError");
  CHECK(e.message == "index 8 is out of bounds for axis 0 of field 'x' with shape (8, 8)");
  e = error_of(at(x, {0, -1}));
  CHECK(e.message == "index -1 is out of bounds for axis 1 of field 'x' with shape (8, 8)");
  e = error_of(at(u, {3}));
  CHECK(e.message == "index 3 is out of bounds for axis 0 of field with shape (3,)");
  e = error_of(at(x, {1}));
  CHECK(e.kind == "TypeError");
  CHECK(e.message == "field 'x' has 2 dimensions but was indexed with 1 index");
  e = error_of(at(s, {0}));
  CHECK(e.message == "field 's' has 0 dimensions but was indexed with 1 index");
  e = error_of(at(u, {0, 0}));
  CHECK(e.message == "field has 1 dimension but was indexed with 2 indices");
  CHECK_NOTHROW(at(x, {7, 7})());
  CHECK_NOTHROW(at(s, {})());
}

TEST_CASE("building errors") {
  Program p(one_thread());
  SNode* root = p.open_root();
  Error e = error_of([&] { p.add_container(root, SNodeKind::place, {0}, {4}, {}); });
  CHECK(e.kind == "TypeError");
  CHECK(e.message == "cannot add a place SNode as a container");
  e = error_of([&] { p.add_container(root, SNodeKind::dense, {0}, {0}, {}); });
  CHECK(e.kind == "ValueError");
  CHECK(e.message == "the size of ti.i must be positive, got 0");
  e = error_of([&] { p.add_container(root, SNodeKind::dense, {1, 1}, {2, 2}, {}); });
  CHECK(e.message == "ti.j appears twice in one SNode");
  e = error_of([&] { p.add_container(root, SNodeKind::dense, {0, 1}, {2}, {}); });
  CHECK(e.kind == "TypeError");
  e = error_of([&] { p.create_dense_field(Prim::f32, {4, -1}, "bad", {}); });
  CHECK(e.kind == "ValueError");
  CHECK(e.message == "field shape (4, -1) must be positive");
  CHECK(p.fields.empty());  // nothing half-built left behind

  FieldInfo* x = p.create_field(Prim::f32, "x", {});
  SNode* px = p.place(root, x, {});
  e = error_of([&] { p.place(root, x, {}); });
  CHECK(e.message == "field 'x' is already placed at S1place<f32>");
  FieldInfo* y = p.create_field(Prim::f32, "y", {});
  e = error_of([&] { p.place(px, y, {}); });
  CHECK(e.kind == "TypeError");
  e = error_of([&] { p.add_container(px, SNodeKind::dense, {0}, {2}, {}); });
  CHECK(e.kind == "TypeError");

  e = error_of([&] { p.materialize(); });
  CHECK(e.kind == "RuntimeError");
  CHECK(e.message == "field 'y' was declared but never placed");
  p.place(root, y, {});
  p.materialize();
  e = error_of([&] { p.add_container(root, SNodeKind::dense, {0}, {2}, {}); });
  CHECK(e.kind == "RuntimeError");
  FieldInfo* z = p.create_field(Prim::f32, "z", {});
  e = error_of([&] { p.place(root, z, {}); });
  CHECK(e.kind == "RuntimeError");
  p.place(p.open_root(), z, {});  // fine in the next tree
  CHECK(z->place->tree == 1);
}
