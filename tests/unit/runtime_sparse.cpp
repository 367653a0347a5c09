// Sparse SNodes in the runtime: seed 001's S0-S6 container and cell counts,
// activation rules per kind, concurrent activation, list generation, and
// steady pool memory under activate/deactivate loops.
#include <doctest/doctest.h>

#include <cstring>
#include <thread>

#include "vm/runtime/program.h"

using namespace kiln;

namespace {

Config threads(int n) {
  Config c;
  c.num_threads = n;
  return c;
}

int32_t read_i32(Program& p, FieldInfo* f, std::vector<int64_t> idx) {
  int32_t v;
  std::memcpy(&v, p.element_read_address(*f, idx.data(), (int)idx.size(), {}), 4);
  return v;
}

void write_i32(Program& p, FieldInfo* f, std::vector<int64_t> idx, int32_t v) {
  std::memcpy(p.element_address(*f, idx.data(), (int)idx.size(), {}), &v, 4);
}

// Containers of `s` that exist now (its generated list) and their active cells.
struct Counts {
  size_t containers = 0;
  size_t cells = 0;
};
Counts count(Program& p, SNode* s) {
  Counts c;
  c.containers = p.build_lists(s).size();
  CellTable idx;
  p.active_cells(s, 0, c.containers, 1, idx);
  c.cells = idx.size() / 2;  // a row per cell: its index, then its address
  return c;
}

bool active(Program& p, SNode* s, std::vector<int64_t> idx) {
  return p.snode_op(Program::SNodeOp::is_active, s->id, idx.data()) != 0;
}

}  // namespace

TEST_CASE("seed 001's S0-S6 tree has the containers and cells the seed lists") {
  Program p(threads(1));
  FieldInfo* x = p.create_field(Prim::i32, "x", {});
  FieldInfo* y = p.create_field(Prim::i32, "y", {});
  FieldInfo* z = p.create_field(Prim::i32, "z", {});
  SNode* s0 = p.open_root();
  SNode* s1 = p.add_container(s0, SNodeKind::pointer, {0}, {4}, {});
  SNode* s2 = p.add_container(s1, SNodeKind::dense, {0}, {2}, {});
  SNode* s3 = p.place(s2, x, {});
  SNode* s4 = p.place(s2, y, {});
  SNode* s5 = p.add_container(s1, SNodeKind::dense, {0}, {2}, {});
  SNode* s6 = p.place(s5, z, {});
  CHECK(s1->name() == "S1pointer");
  CHECK(s3->name() == "S3place<i32>");
  CHECK(s4->id == 4);
  CHECK(s6->name() == "S6place<i32>");
  p.materialize();
  // Nothing is active yet: one pointer container with no cells.
  CHECK(count(p, s1).containers == 1);
  CHECK(count(p, s1).cells == 0);
  CHECK(count(p, s2).containers == 0);
  for (int i = 0; i < 8; i++) write_i32(p, x, {i}, i);
  // A pointer activates its whole child block: y and z exist too.
  Counts c1 = count(p, s1), c2 = count(p, s2), c5 = count(p, s5);
  CHECK(c1.containers == 1);
  CHECK(c1.cells == 4);
  CHECK(c2.containers == 4);
  CHECK(c2.cells == 8);
  CHECK(c5.containers == 4);
  CHECK(c5.cells == 8);
  CHECK(read_i32(p, x, {5}) == 5);
  CHECK(read_i32(p, y, {5}) == 0);
  CHECK(read_i32(p, z, {7}) == 0);
  CHECK(p.pool_blocks_in_use() == 4);
}

TEST_CASE("reads of inactive cells give 0 and do not activate") {
  Program p(threads(1));
  FieldInfo* x = p.create_field(Prim::i32, "x", {});
  SNode* ptr = p.add_container(p.open_root(), SNodeKind::pointer, {0, 1}, {4, 4}, {});
  SNode* d = p.add_container(ptr, SNodeKind::dense, {0, 1}, {8, 8}, {});
  p.place(d, x, {});
  p.materialize();
  CHECK(read_i32(p, x, {9, 17}) == 0);
  CHECK(p.pool_blocks_in_use() == 0);
  // SNode ops take the pointer's own coordinates (seed 001): element (9, 17) is in block (1, 2)
  CHECK_FALSE(active(p, ptr, {1, 2}));
  write_i32(p, x, {9, 17}, 0);  // writing 0 still activates
  CHECK(active(p, ptr, {1, 2}));
  CHECK(read_i32(p, x, {15, 23}) == 0);  // same 8x8 block: active, and reads 0
  CHECK_FALSE(active(p, ptr, {2, 2}));   // element (16, 23) is in the next block
  CHECK(p.n_activations.load() == 1);
}

TEST_CASE("bitmasked cells activate one by one, deactivation zeroes them") {
  Program p(threads(1));
  FieldInfo* x = p.create_field(Prim::i32, "x", {});
  SNode* b = p.add_container(p.add_container(p.open_root(), SNodeKind::dense, {0}, {4}, {}), SNodeKind::bitmasked,
                             {0}, {70}, {});
  p.place(b, x, {});
  p.materialize();
  write_i32(p, x, {3 * 70 + 65}, 7);
  CHECK(active(p, b, {3 * 70 + 65}));
  CHECK_FALSE(active(p, b, {3 * 70 + 64}));
  CHECK(count(p, b).cells == 1);
  int64_t i = 3 * 70 + 65;
  p.snode_op(Program::SNodeOp::deactivate, b->id, &i);
  CHECK_FALSE(active(p, b, {i}));
  p.snode_op(Program::SNodeOp::activate, b->id, &i);
  CHECK(read_i32(p, x, {i}) == 0);  // recycled memory is zero
}

TEST_CASE("dynamic lists grow by writes and append, and deactivate whole") {
  Program p(threads(1));
  FieldInfo* x = p.create_field(Prim::i32, "x", {});
  SNode* d = p.add_container(p.add_container(p.open_root(), SNodeKind::dense, {0}, {3}, {}), SNodeKind::dynamic,
                             {1}, {100}, {}, 8);
  p.place(d, x, {});
  p.materialize();
  CHECK(d->chunk_size == 8);
  CHECK(x->shape == std::vector<int64_t>{3, 100});
  int64_t row1[2] = {1, 0};
  CHECK(p.snode_op(Program::SNodeOp::length, d->id, row1) == 0);
  CHECK(p.snode_op(Program::SNodeOp::append, d->id, row1) == 0);
  CHECK(p.snode_op(Program::SNodeOp::append, d->id, row1) == 1);
  write_i32(p, x, {1, 20}, 5);  // writing index 20 extends the list to 21
  CHECK(p.snode_op(Program::SNodeOp::length, d->id, row1) == 21);
  CHECK(read_i32(p, x, {1, 20}) == 5);
  CHECK(count(p, d).cells == 21);
  p.snode_op(Program::SNodeOp::deactivate, d->id, row1);
  CHECK(p.snode_op(Program::SNodeOp::length, d->id, row1) == 0);
  CHECK(p.pool_blocks_in_use() == 0);
  for (int k = 0; k < 100; k++) p.snode_op(Program::SNodeOp::append, d->id, row1);
  CHECK(p.snode_op(Program::SNodeOp::append, d->id, row1) == 100);  // full: the capacity
  CHECK(p.snode_op(Program::SNodeOp::length, d->id, row1) == 100);
}

TEST_CASE("concurrent activation from many threads loses nothing") {
  Program p(threads(4));
  FieldInfo* x = p.create_field(Prim::i32, "x", {});
  SNode* ptr = p.add_container(p.open_root(), SNodeKind::pointer, {0}, {64}, {});
  SNode* bm = p.add_container(ptr, SNodeKind::bitmasked, {0}, {16}, {});
  p.place(bm, x, {});
  p.materialize();
  // Every thread adds 1 to every element: the racing first writers of a block
  // must all land in the same cell (compare-and-swap), or counts go missing.
  const int kThreads = 8;
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; t++)
    ts.emplace_back([&] {
      for (int64_t i = 0; i < 1024; i++) {
        auto* a = static_cast<std::atomic<int32_t>*>(p.sparse_element(x->place->id, &i, true));
        a->fetch_add(1);
      }
    });
  for (auto& t : ts) t.join();
  for (int64_t i = 0; i < 1024; i++) CHECK(read_i32(p, x, {i}) == kThreads);
  CHECK(p.pool_blocks_in_use() == 64);
  CHECK(p.n_activations.load() == 64 + 1024);  // 64 pointer cells, 1024 bits
  CHECK(count(p, bm).cells == 1024);
}

TEST_CASE("activate/deactivate loops hold steady pool memory") {
  Program p(threads(2));
  FieldInfo* x = p.create_field(Prim::f32, "x", {});
  SNode* ptr = p.add_container(p.open_root(), SNodeKind::pointer, {0, 1}, {32, 32}, {});
  p.place(p.add_container(ptr, SNodeKind::dense, {0, 1}, {8, 8}, {}), x, {});
  p.materialize();
  int64_t reserved_after_first = 0;
  for (int round = 0; round < 50; round++) {
    for (int64_t i = 0; i < 256; i += 8)
      for (int64_t j = 0; j < 256; j += 16) {
        int64_t idx[2] = {(i + round) % 256, j};
        float v = 1.0f;
        std::memcpy(p.sparse_element(x->place->id, idx, true), &v, 4);
      }
    CHECK(p.pool_blocks_in_use() > 0);
    p.deactivate_all(ptr);
    CHECK(p.pool_blocks_in_use() == 0);
    if (round == 0) reserved_after_first = p.pool_blocks_reserved();
  }
  CHECK(p.pool_blocks_reserved() == reserved_after_first);
  int64_t idx[2] = {3, 3};
  float v;
  std::memcpy(&v, p.sparse_element(x->place->id, idx, false), 4);
  CHECK(v == 0.0f);
}

TEST_CASE("list generation gives containers with their first index, in parallel too") {
  Program p(threads(4));
  FieldInfo* x = p.create_field(Prim::i32, "x", {});
  SNode* ptr = p.add_container(p.open_root(), SNodeKind::pointer, {0, 1}, {64, 64}, {});
  SNode* d = p.add_container(ptr, SNodeKind::dense, {0, 1}, {4, 4}, {});
  p.place(d, x, {});
  p.materialize();
  int n = 0;
  for (int64_t i = 0; i < 256; i += 4)
    for (int64_t j = (i / 4) % 8 * 4; j < 256; j += 32) {
      write_i32(p, x, {i + 1, j + 2}, 1);
      n++;
    }
  Counts c = count(p, d);
  CHECK(c.containers == (size_t)n);
  CHECK(c.cells == (size_t)n * 16);
  // Every dense container's base is a multiple of the block size, and its
  // block is active.
  for (const ListElem& e : p.list_of(d)) {
    CHECK(e.base[0] % 4 == 0);
    CHECK(e.base[1] % 4 == 0);
    CHECK(active(p, ptr, {e.base[0] / 4, e.base[1] / 4}));  // the pointer's own coordinates
  }
  CellTable idx;
  p.active_cells(d, 0, 1, 2, idx);  // a row per cell: i, j, the cell's address
  REQUIRE(idx.size() == 48);
  CHECK(idx[0] == p.list_of(d)[0].base[0]);
  CHECK(idx[4] == p.list_of(d)[0].base[1] + 1);
}

TEST_CASE("bad sparse SNodes are refused") {
  Program p(threads(1));
  SNode* r = p.open_root();
  CHECK_THROWS_WITH(p.add_container(r, SNodeKind::dynamic, {0, 1}, {4, 4}, {}),
                    "ValueError: a dynamic SNode has exactly one axis, got 2");
  CHECK_THROWS_WITH(p.add_container(r, SNodeKind::dynamic, {0}, {4}, {}, -1),
                    "ValueError: the chunk_size of a dynamic SNode must be positive, got -1");
  CHECK_THROWS_WITH(p.add_container(r, SNodeKind::pointer, {0}, {0}, {}), "ValueError: the size of ti.i must be positive, got 0");
}
