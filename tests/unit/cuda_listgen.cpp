// The generated list functions (jit/llvm/listgen.h, what the device runs):
// on random trees of several layouts, under device pools and not, their
// cell table for every container of the path is the host's
// (Program::listgen + Program::active_cells) word for word, and they count
// the host's listgen_elements. Empty lists, full lists and huge domains.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <random>

#include "jit/llvm/listgen.h"
#include "vm/runtime/program.h"

using namespace kiln;

namespace {

Config config(int threads) {
  Config c;
  c.num_threads = threads;
  return c;
}

// The table the host's list tasks and the struct-for's launcher make, and
// the elements its listgen counts.
CellTable host_table(Program& p, const SNode* s, int nidx, int64_t& elements) {
  int64_t e0 = p.n_listgen_elements.load();
  for (size_t l = 0; l < s->path.size(); l++) {
    p.clear_list(s, (int)l);
    p.listgen(s, (int)l);
  }
  elements = p.n_listgen_elements.load() - e0;
  CellTable t;
  p.active_cells(s, 0, p.list_of(s).size(), nidx, t);
  return t;
}

// Every container on the place's path as a struct-for's target, with the
// indices it has. Returns the rows compared.
size_t check_all(Program& p, const FieldInfo* f) {
  size_t rows = 0;
  for (SNode* s : f->place->parent->path) {
    for (int nidx : {std::max((int)s->physical_index_position.size(), 1)}) {
      CAPTURE(s->name());
      CAPTURE(nidx);
      int64_t host_elements = 0;
      CellTable want = host_table(p, s, nidx, host_elements);
      int64_t e0 = p.n_listgen_elements.load();
      CellTable got;
      llvmjit::generate_cells(p, *s, nidx, got);
      CHECK(p.n_listgen_elements.load() - e0 == host_elements);
      REQUIRE(got.size() == want.size());
      CHECK(std::memcmp(got.data(), want.data(), got.size() * 8) == 0);
      rows += got.size() / (size_t)(nidx + 1);
    }
  }
  return rows;
}

void activate(Program& p, FieldInfo* f, std::vector<int64_t> idx) {
  int32_t one = 1;
  std::memcpy(p.element_address(*f, idx.data(), (int)idx.size(), {}), &one, 4);
}

// Runs `body` with the CPU's tree layout and with device pools' (the
// layout arch=cuda uses), on 1 and 4 threads.
template <class F> void both_layouts(F&& body) {
  for (bool pools : {false, true})
    for (int threads : {1, 4}) {
      CAPTURE(pools);
      CAPTURE(threads);
      if (pools) setenv("KILN_DEVICE_POOLS", "1", 1);
      else unsetenv("KILN_DEVICE_POOLS");
      body(threads);
    }
  unsetenv("KILN_DEVICE_POOLS");
}

}  // namespace

TEST_CASE("listgen: pointer over bitmasked, 2-D: empty, random, full") {
  both_layouts([](int threads) {
    Program p(config(threads));
    FieldInfo* x = p.create_field(Prim::i32, "x", {});
    SNode* ptr = p.add_container(p.open_root(), SNodeKind::pointer, {0, 1}, {8, 8}, {});
    SNode* bm = p.add_container(ptr, SNodeKind::bitmasked, {0, 1}, {4, 4}, {});
    p.place(bm, x, {});
    p.materialize();
    CHECK(check_all(p, x) == 0);  // nothing active
    std::mt19937 rng(7);
    for (int k = 0; k < 300; k++) activate(p, x, {(int64_t)(rng() % 32), (int64_t)(rng() % 32)});
    CHECK(check_all(p, x) > 0);
    for (int64_t i = 0; i < 32; i++)
      for (int64_t j = 0; j < 32; j++) activate(p, x, {i, j});
    CHECK(check_all(p, x) > 0);
  });
}

TEST_CASE("listgen: dense rows of dynamic lists, chunks of 8") {
  both_layouts([](int threads) {
    Program p(config(threads));
    FieldInfo* x = p.create_field(Prim::i32, "x", {});
    SNode* d = p.add_container(p.add_container(p.open_root(), SNodeKind::dense, {0}, {16}, {}), SNodeKind::dynamic,
                               {1}, {100}, {}, 8);
    p.place(d, x, {});
    p.materialize();
    CHECK(check_all(p, x) == 16);  // the dense rows' 16 lists, each empty
    std::mt19937 rng(3);
    for (int64_t r = 0; r < 16; r++) {
      int64_t n = r == 5 ? 100 : rng() % 40;  // one full list
      for (int64_t k = 0; k < n; k++) {
        int64_t row[2] = {r, 0};
        p.snode_op(Program::SNodeOp::append, d->id, row);
      }
    }
    CHECK(check_all(p, x) > 0);
  });
}

TEST_CASE("listgen: pointer, dense, bitmasked of 70 cells (a partial mask word), non-power-of-two extents") {
  both_layouts([](int threads) {
    Program p(config(threads));
    FieldInfo* x = p.create_field(Prim::i32, "x", {});
    SNode* ptr = p.add_container(p.open_root(), SNodeKind::pointer, {0, 1}, {6, 3}, {});
    SNode* dn = p.add_container(ptr, SNodeKind::dense, {0}, {5}, {});
    SNode* bm = p.add_container(dn, SNodeKind::bitmasked, {0, 1}, {70, 3}, {});
    p.place(bm, x, {});
    p.materialize();
    std::mt19937 rng(11);
    for (int k = 0; k < 500; k++) activate(p, x, {(int64_t)(rng() % (6 * 5 * 70)), (int64_t)(rng() % 9)});
    CHECK(check_all(p, x) > 0);
  });
}

TEST_CASE("listgen: a huge domain with few active cells") {
  both_layouts([](int threads) {
    Program p(config(threads));
    FieldInfo* x = p.create_field(Prim::f32, "x", {});
    SNode* ptr = p.add_container(p.open_root(), SNodeKind::pointer, {0, 1}, {1024, 1024}, {});
    SNode* bm = p.add_container(ptr, SNodeKind::bitmasked, {0, 1}, {16, 16}, {});
    p.place(bm, x, {});
    p.materialize();
    std::mt19937 rng(5);
    for (int k = 0; k < 2000; k++) activate(p, x, {(int64_t)(rng() % 16384), (int64_t)(rng() % 16384)});
    CHECK(check_all(p, x) > 0);
  });
}
