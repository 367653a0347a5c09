// Operands and Box (vm/ir/compact.h): the operand list behaves as the vector
// it replaced across its inline/heap boundary, and a box reads as its
// payload's default until written, copying deeply.
#include <doctest/doctest.h>

#include "vm/ir/ir.h"

using namespace kiln;
using namespace kiln::ir;

namespace {
Stmt* fake(uintptr_t k) { return reinterpret_cast<Stmt*>(k * 16); }
}  // namespace

TEST_CASE("operands: inline up to three, then the heap, in order") {
  Operands o;
  CHECK(o.empty());
  for (uintptr_t k = 1; k <= 9; k++) {
    o.push_back(fake(k));
    REQUIRE(o.size() == k);
    for (uintptr_t j = 1; j <= k; j++) CHECK(o[j - 1] == fake(j));
  }
  CHECK(o.front() == fake(1));
  CHECK(o.back() == fake(9));
  o.pop_back();
  CHECK(o.size() == 8);
  CHECK_THROWS_AS(o.at(8), std::out_of_range);
  size_t n = 0;
  for (Stmt* s : o) CHECK(s == fake(++n));
  CHECK(n == 8);
}

TEST_CASE("operands: copies are independent, moves take the list") {
  for (size_t len : {2u, 3u, 7u}) {  // inline, full inline, spilled
    Operands a;
    for (size_t k = 1; k <= len; k++) a.push_back(fake(k));
    Operands b = a;
    CHECK(b == a);
    b[0] = fake(99);
    CHECK(a[0] == fake(1));
    CHECK_FALSE(b == a);
    Operands c = std::move(b);
    CHECK(c.size() == len);
    CHECK(c[0] == fake(99));
    CHECK(b.empty());
    c = a;  // assignment over an existing list
    CHECK(c == a);
    c = {fake(5)};
    CHECK(c.size() == 1);
    CHECK(c[0] == fake(5));
    std::vector<Stmt*> v = a.vec();
    CHECK(v.size() == len);
    Operands d = v;
    CHECK(d == a);
  }
}

TEST_CASE("box: reads the default until written; copies deeply") {
  Stmt s(StmtKind::global_ptr);
  const Stmt& cs = s;
  CHECK_FALSE(s.access.has_value());
  CHECK(cs.access->tree == 0);
  CHECK(cs.access->field.empty());
  CHECK_FALSE(s.access.has_value());  // reading allocated nothing
  s.access->field = "x";
  s.access->shape = {4, 8};
  CHECK(s.access.has_value());
  std::unique_ptr<Stmt> t = clone_stmt(s);
  CHECK(t->access->field == "x");
  t->access->shape[0] = 5;
  CHECK(s.access->shape[0] == 4);  // the clone's payload is its own
  const Access& a = s.access;      // reads as the payload
  CHECK(a.field == "x");
  Access fresh;
  fresh.field = "y";
  s.access = fresh;
  CHECK(s.access->field == "y");
}
