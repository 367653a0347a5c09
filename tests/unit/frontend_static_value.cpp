// StaticValue's copies and moves (vm/frontend/frontend.h): they copy the
// scalar members and touch the heavy ones (string, vectors, shared_ptrs) only
// when the source or the target holds something. These check that a copy or
// move still yields a value equal to its source whatever the target held,
// including a source that lives inside the target (an element, its ctype).
#include <doctest/doctest.h>

#include "vm/frontend/frontend.h"

using namespace kiln;
using namespace kiln::frontend;
using K = StaticValue::Kind;

namespace {

FieldInfo* fake_field(int k) { return reinterpret_cast<FieldInfo*>(static_cast<uintptr_t>(0x1000 * (k + 1))); }

// A value with every heavy member set (a struct_value as the host builds one,
// with a string, a handle and fields besides).
StaticValue heavy() {
  StaticValue t;
  t.kind = K::struct_type;
  t.names = {"a", "b"};
  t.elems = {StaticValue::of_dtype(Prim::f32), StaticValue::of_dtype(Prim::i32)};
  StaticValue v;
  v.kind = K::struct_value;
  v.s = "a name longer than the small-string buffer";
  v.names = {"a", "b"};
  v.elems = {StaticValue::of_float(1.5), StaticValue::of_int(7)};
  v.fields = {fake_field(0), fake_field(1)};
  v.handle = std::make_shared<int>(3);
  v.ctype = std::make_shared<StaticValue>(t);
  v.rows = 2;
  v.cols = 3;
  return v;
}

void check_heavy(const StaticValue& v) {
  CHECK(v.kind == K::struct_value);
  CHECK(v.s == "a name longer than the small-string buffer");
  REQUIRE(v.names.size() == 2);
  CHECK(v.names[1] == "b");
  REQUIRE(v.elems.size() == 2);
  CHECK(v.elems[0].kind == K::floating);
  CHECK(v.elems[0].f == 1.5);
  CHECK(v.elems[1].i == 7);
  CHECK(v.fields == std::vector<FieldInfo*>{fake_field(0), fake_field(1)});
  REQUIRE(v.handle);
  CHECK(*static_cast<int*>(v.handle.get()) == 3);
  REQUIRE(v.ctype);
  CHECK(v.ctype->kind == K::struct_type);
  CHECK(v.ctype->elems.size() == 2);
  CHECK(v.rows == 2);
  CHECK(v.cols == 3);
}

void check_scalar_only(const StaticValue& v) {
  CHECK(v.s.empty());
  CHECK(v.elems.empty());
  CHECK(v.names.empty());
  CHECK(v.fields.empty());
  CHECK(!v.handle);
  CHECK(!v.ctype);
}

}  // namespace

TEST_CASE("StaticValue copies and moves carry every member") {
  StaticValue h = heavy();
  StaticValue c(h);
  check_heavy(c);
  check_heavy(h);
  StaticValue m(std::move(c));
  check_heavy(m);

  StaticValue a = StaticValue::of_big((__int128)1 << 70);
  a.field = fake_field(4);
  a.def = reinterpret_cast<const ast::FunctionDef*>(fake_field(5));
  a.prim = Prim::u64;
  a.b = true;
  StaticValue b = a;
  CHECK(b.kind == K::integer);
  CHECK(b.wide);
  CHECK(b.big() == ((__int128)1 << 70));
  CHECK(b.field == fake_field(4));
  CHECK(b.def == a.def);
  CHECK(b.prim == Prim::u64);
  CHECK(b.b);
  check_scalar_only(b);
}

TEST_CASE("StaticValue assignment clears the heavy members the source lacks") {
  StaticValue v = heavy();
  v = StaticValue::of_int(5);
  CHECK(v.kind == K::integer);
  CHECK(v.i == 5);
  CHECK(v.rows == 0);
  check_scalar_only(v);

  StaticValue w = heavy();
  StaticValue s = StaticValue::of_builtin("range");
  w = s;  // a copy: the string replaces the old one, the rest is cleared
  CHECK(w.kind == K::builtin);
  CHECK(w.s == "range");
  CHECK(w.elems.empty());
  CHECK(!w.ctype);
  CHECK(s.s == "range");

  StaticValue x = StaticValue::of_float(2.0);
  x = heavy();  // a move over a scalar
  check_heavy(x);
  StaticValue& self = x;
  x = self;
  check_heavy(x);
}

TEST_CASE("StaticValue assignment from a value it owns") {
  StaticValue v = heavy();
  v = v.elems[1];  // the source dies with the old elements
  CHECK(v.kind == K::integer);
  CHECK(v.i == 7);
  check_scalar_only(v);

  StaticValue w = heavy();
  w = *w.ctype;  // the source dies with the old ctype
  CHECK(w.kind == K::struct_type);
  REQUIRE(w.elems.size() == 2);
  CHECK(w.elems[1].prim == Prim::i32);
  CHECK(w.names.size() == 2);
  CHECK(!w.ctype);
  CHECK(w.s.empty());
  CHECK(!w.handle);

  StaticValue m = heavy();
  m = std::move(m.elems[0]);
  CHECK(m.kind == K::floating);
  CHECK(m.f == 1.5);
  check_scalar_only(m);

  StaticValue n = heavy();
  n = std::move(*n.ctype);
  CHECK(n.kind == K::struct_type);
  CHECK(n.elems.size() == 2);
  CHECK(!n.ctype);
}
