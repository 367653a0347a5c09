// The interpreter on hand-built IR kernels: arithmetic and printing on every
// type, parallel field writes, atomics, errors with locations, control flow.
// The cross-check against the constant folder lives in interp_eval.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "vm/interp/interp.h"
#include "vm/ir/builder.h"
#include "vm/runtime/program.h"
#include "vm/types/value.h"

using namespace kiln;
using ir::BinaryOp;
using ir::Stmt;
using ir::Task;
using ir::UnaryOp;

namespace {

struct Src {
  SourceSet set;
  const SourceFile* f;
  Src() {
    f = set.add("prog.py",
                "import taichi as ti\n"
                "@ti.kernel\n"
                "def k():\n"
                "    x[i, 8] = 1\n"
                "    y = a // b\n"
                "    assert v < 3, 'too big'\n");
  }
  SourceLoc at(uint32_t line, uint32_t col = 5) const { return SourceLoc{f, line, col}; }
};

// Runs a kernel without a Program: output stays in ctx.print_buffer.
std::string run(ir::Kernel& k, LaunchContext& ctx) {
  bc::Kernel code = bc::lower_kernel(k);
  interp::launch(code, ctx);
  return ctx.print_buffer;
}

std::string run(ir::Kernel& k) {
  LaunchContext ctx;
  return run(k, ctx);
}

ir::PrintPart text(std::string s) { return ir::PrintPart{false, -1, std::move(s)}; }
ir::PrintPart val(int op, std::string spec = "") { return ir::PrintPart{true, op, std::move(spec)}; }

// print(label, v)
void print_value(ir::Builder& b, const std::string& label, Stmt* v, std::string spec = "") {
  b.print({text(label + " "), val(0, std::move(spec)), text("\n")}, {v});
}

Config test_config(int threads) {
  Config c;
  c.num_threads = threads;
  return c;
}

}  // namespace

TEST_CASE("serial task: arithmetic on every type, printed as Taichi prints") {
  ir::Kernel k;
  k.name = "arith";
  ir::Builder b(k.root);
  Stmt* t = b.offloaded(Task::serial);
  b.in(*t->body);
  auto bin = [&](const char* label, BinaryOp op, Prim p, int64_t x, int64_t y) {
    print_value(b, label, b.binary(op, b.const_int(p, x), b.const_int(p, y)));
  };
  auto fbin = [&](const char* label, BinaryOp op, Prim p, double x, double y) {
    print_value(b, label, b.binary(op, b.const_float(p, x), b.const_float(p, y)));
  };
  bin("i8", BinaryOp::add, Prim::i8, 100, 100);
  bin("u8", BinaryOp::add, Prim::u8, 200, 100);
  bin("i16", BinaryOp::mul, Prim::i16, 300, 300);
  bin("u16", BinaryOp::sub, Prim::u16, 1, 2);
  bin("i32", BinaryOp::add, Prim::i32, 2147483647, 1);
  bin("u32", BinaryOp::sub, Prim::u32, 0, 1);
  bin("i64", BinaryOp::mul, Prim::i64, 3037000500, 3037000500);
  bin("u64", BinaryOp::sub, Prim::u64, 0, 1);
  bin("floordiv", BinaryOp::floordiv, Prim::i32, -7, 2);
  bin("mod", BinaryOp::mod, Prim::i32, -7, 2);
  bin("raw_mod", BinaryOp::raw_mod, Prim::i32, -7, 2);
  bin("div", BinaryOp::div, Prim::i32, -7, 2);
  bin("pow", BinaryOp::pow, Prim::i32, 3, 4);
  bin("shr_i8", BinaryOp::bit_shr, Prim::i8, -128, 1);
  bin("sar_u8", BinaryOp::bit_sar, Prim::u8, 0x80, 1);
  bin("cmp", BinaryOp::cmp_gt, Prim::u32, 0xffffffff, 1);
  fbin("f32", BinaryOp::add, Prim::f32, 0.1f, 0.2f);
  fbin("f64", BinaryOp::add, Prim::f64, 0.1, 0.2);
  fbin("f16", BinaryOp::add, Prim::f16, round_to_f16(0.1), round_to_f16(0.2));
  fbin("bf16", BinaryOp::mul, Prim::bf16, 3.0, round_to_bf16(1.1));
  fbin("fmod", BinaryOp::mod, Prim::f64, -7.5, 2.0);
  fbin("fmax", BinaryOp::max, Prim::f32, -1.0, NAN);
  Stmt* s = b.unary(UnaryOp::sqrt, b.const_float(Prim::f32, 2.0));
  print_value(b, "sqrt", s);
  print_value(b, "cast", b.unary(UnaryOp::cast_value, b.const_float(Prim::f64, -3.99), Type::scalar(Prim::i8)));
  print_value(b, "sat", b.unary(UnaryOp::cast_value, b.const_float(Prim::f32, 1e10), Type::scalar(Prim::i32)));
  print_value(b, "spec", b.const_float(Prim::f32, 3.14159), ".2f");
  CHECK(run(k) ==
        "i8 -56\n"
        "u8 44\n"
        "i16 24464\n"
        "u16 65535\n"
        "i32 -2147483648\n"
        "u32 4294967295\n"
        "i64 -9223372036709301616\n"
        "u64 18446744073709551615\n"
        "floordiv -4\n"
        "mod 1\n"
        "raw_mod -1\n"
        "div -3\n"
        "pow 81\n"
        "shr_i8 64\n"
        "sar_u8 192\n"
        "cmp 1\n"
        "f32 0.300000\n"
        "f64 0.300000000000\n"
        "f16 0.299805\n"
        "bf16 3.312500\n"
        "fmod 0.500000000000\n"
        "fmax -1.000000\n"
        "sqrt 1.414214\n"
        "cast -3\n"
        "sat 2147483647\n"
        "spec 3.14\n");
}

TEST_CASE("control flow: while with break/continue, if/else, select, locals, inner range_for") {
  ir::Kernel k;
  k.name = "flow";
  ir::Builder b(k.root);
  Stmt* t = b.offloaded(Task::serial);
  b.in(*t->body);
  Type i32 = Type::scalar(Prim::i32);
  Stmt* n = b.alloca(i32);
  Stmt* sum = b.alloca(i32);
  Stmt* w = b.while_();
  b.in(*w->body);
  {
    Stmt* nv = b.local_load(n);
    b.local_store(n, b.binary(BinaryOp::add, nv, b.const_int(Prim::i32, 1)));
    Stmt* done = b.binary(BinaryOp::cmp_ge, nv, b.const_int(Prim::i32, 10));
    Stmt* iff = b.if_(done);
    b.in(*iff->body).break_(w);
    b.in(*w->body);
    Stmt* odd = b.binary(BinaryOp::bit_and, nv, b.const_int(Prim::i32, 1));
    Stmt* even = b.unary(UnaryOp::logic_not, odd, i32);
    Stmt* iff2 = b.if_(even);
    b.in(*iff2->body).continue_(w);
    b.in(*w->body);
    b.local_store(sum, b.binary(BinaryOp::add, b.local_load(sum), nv));  // 1+3+5+7+9
  }
  b.in(*t->body);
  print_value(b, "sum", b.local_load(sum));
  // if/else and select
  Stmt* c = b.binary(BinaryOp::cmp_lt, b.local_load(sum), b.const_int(Prim::i32, 20));
  Stmt* ie = b.if_(c, true);
  b.in(*ie->body);
  print_value(b, "branch", b.const_int(Prim::i32, 1));
  b.in(*ie->else_body);
  print_value(b, "branch", b.const_int(Prim::i32, 2));
  b.in(*t->body);
  print_value(b, "select", b.select(c, b.const_float(Prim::f64, 1.5), b.const_float(Prim::f64, 2.5)));
  // an inner range_for with i64 bounds summing into a local; continue skips 3
  Stmt* acc = b.alloca(Type::scalar(Prim::i64));
  Stmt* rf = b.range_for(b.const_int(Prim::i64, -2), b.const_int(Prim::i64, 6));
  b.in(*rf->body);
  Stmt* i = b.loop_index(rf, 0, Prim::i64);
  Stmt* is3 = b.if_(b.binary(BinaryOp::cmp_eq, i, b.const_int(Prim::i64, 3)));
  b.in(*is3->body).continue_(rf);
  b.in(*rf->body).local_store(acc, b.binary(BinaryOp::add, b.local_load(acc), i));
  b.in(*t->body);
  print_value(b, "range", b.local_load(acc));  // -2-1+0+1+2+4+5 = 9
  CHECK(run(k) == "sum 25\nbranch 2\nselect 2.500000000000\nrange 9\n");
}

TEST_CASE("range_for task writes a field through global_ptr, in parallel") {
  Program prog(test_config(4));
  std::string out;
  prog.out = [&](std::string_view s) { out += s; };
  Src src;
  FieldInfo* x = prog.create_dense_field(Prim::i32, {32, 64}, "x", src.at(1));
  ir::Access acc = prog.access_of(*x);
  acc.checked = true;

  ir::Kernel k;
  k.name = "fill";
  ir::Builder b(k.root);
  Stmt* t = b.offloaded(Task::range_for);
  t->begin = 0;
  t->end = 32 * 64;
  b.in(*t->body);
  Stmt* i = b.loop_index(t);
  Stmt* r = b.binary(BinaryOp::floordiv, i, b.const_int(Prim::i32, 64));
  Stmt* c = b.binary(BinaryOp::mod, i, b.const_int(Prim::i32, 64));
  Stmt* p = b.global_ptr(acc, Prim::i32, {r, c});
  b.global_store(p, b.binary(BinaryOp::mul, i, b.const_int(Prim::i32, 3)));

  auto engine = make_interp_engine();
  CHECK(std::string(engine->name()) == "interp");
  for (int pi = 0; pi < kNumPrims; pi++) CHECK(engine->supports((Prim)pi));
  auto ck = engine->compile(k, prog);
  LaunchContext ctx;
  ctx.program = &prog;
  ctx.tree_bases = prog.tree_bases();
  ck->launch(ctx);
  int bad = 0;
  for (int64_t ii = 0; ii < 32; ii++)
    for (int64_t jj = 0; jj < 64; jj++) {
      int64_t idx[2] = {ii, jj};
      int32_t v;
      std::memcpy(&v, prog.element_address(*x, idx, 2, {}), 4);
      bad += v != (int32_t)((ii * 64 + jj) * 3);
    }
  CHECK(bad == 0);
  CHECK(ck->disassemble().find("fori_i32") != std::string::npos);
}

TEST_CASE("range bounds from global temps written by an earlier serial task") {
  ir::Kernel k;
  k.name = "bounds";
  k.num_global_temps = 2;
  ir::Builder b(k.root);
  Stmt* s = b.offloaded(Task::serial);
  b.in(*s->body);
  b.global_store(b.global_temp(0, Prim::i32), b.const_int(Prim::i32, -3));
  b.global_store(b.global_temp(1, Prim::i32), b.const_int(Prim::i32, 2));
  b.in(k.root);
  Stmt* t = b.offloaded(Task::range_for);
  t->rare_mut().begin_const = t->rare_mut().end_const = false;
  t->begin = 0;
  t->end = 1;
  b.in(*t->body);
  print_value(b, "i", b.loop_index(t));
  LaunchContext ctx;
  ctx.temps = {~0ull, ~0ull};  // garbage above the stored i32 must not matter
  CHECK(run(k, ctx) == "i -3\ni -2\ni -1\ni 0\ni 1\n");
}

TEST_CASE("atomics from many threads sum exactly") {
  Program prog(test_config(4));
  prog.out = [](std::string_view) {};
  Src src;
  struct Case {
    Prim p;
    ir::AtomicOp op;
    bool is_float;
    double v;  // value added per iteration (or i itself when 0)
  };
  const int64_t N = 20000;
  std::vector<FieldInfo*> fields;
  std::vector<std::pair<Prim, ir::AtomicOp>> cases = {
      {Prim::i32, ir::AtomicOp::add}, {Prim::i64, ir::AtomicOp::add}, {Prim::u8, ir::AtomicOp::add},
      {Prim::i16, ir::AtomicOp::sub}, {Prim::f32, ir::AtomicOp::add}, {Prim::f64, ir::AtomicOp::add},
      {Prim::f16, ir::AtomicOp::add}, {Prim::i32, ir::AtomicOp::max}, {Prim::f32, ir::AtomicOp::min},
      {Prim::u32, ir::AtomicOp::bit_xor}, {Prim::i64, ir::AtomicOp::bit_or},
  };
  for (size_t c = 0; c < cases.size(); c++)
    fields.push_back(prog.create_dense_field(cases[c].first, {1}, "a" + std::to_string(c), src.at(1)));
  ir::Kernel k;
  k.name = "atomics";
  ir::Builder b(k.root);
  Stmt* t = b.offloaded(Task::range_for);
  t->begin = 0;
  t->end = N;
  b.in(*t->body);
  Stmt* i = b.loop_index(t);
  Stmt* zero = b.const_int(Prim::i32, 0);
  for (size_t c = 0; c < cases.size(); c++) {
    auto [p, op] = cases[c];
    Stmt* v;
    if (p == Prim::f16) v = b.const_float(p, 1.0);  // exact up to 2048
    else if (p == Prim::f32 && op == ir::AtomicOp::add) v = b.const_float(p, 0.5);
    else v = b.unary(UnaryOp::cast_value, i, Type::scalar(p));
    Stmt* ptr = b.global_ptr(prog.access_of(*fields[c]), p, {zero});
    b.atomic(op, ptr, v);
  }
  auto ck = make_interp_engine()->compile(k, prog);
  LaunchContext ctx;
  ctx.program = &prog;
  ctx.tree_bases = prog.tree_bases();
  // f32 min starts at 0 and sees 0..N-1: stays 0; start it high instead.
  int64_t z = 0;
  float big = 1e9f;
  std::memcpy(prog.element_address(*fields[8], &z, 1, {}), &big, 4);
  ck->launch(ctx);
  auto elem = [&](size_t c) { return (uint8_t*)prog.element_address(*fields[c], &z, 1, {}); };
  auto rd = [&](size_t c, auto type_tag) {
    decltype(type_tag) v;
    std::memcpy(&v, elem(c), sizeof v);
    return v;
  };
  int64_t tri = N * (N - 1) / 2;
  CHECK(rd(0, int32_t{}) == (int32_t)tri);
  CHECK(rd(1, int64_t{}) == tri);
  CHECK(rd(2, uint8_t{}) == (uint8_t)tri);
  CHECK(rd(3, int16_t{}) == (int16_t)(uint16_t)(0 - (uint64_t)tri));
  CHECK(rd(4, float{}) == (float)(N / 2));
  CHECK(rd(5, double{}) == (double)tri);
  CHECK(f16_bits_to_f32(rd(6, uint16_t{})) == 2048.0f);  // 2048 + 1 rounds back to 2048 in f16
  CHECK(rd(7, int32_t{}) == N - 1);
  CHECK(rd(8, float{}) == 0.0f);
  uint32_t x = 0;
  for (int64_t ii = 0; ii < N; ii++) x ^= (uint32_t)ii;
  CHECK(rd(9, uint32_t{}) == x);
  CHECK(rd(10, int64_t{}) == 32767);  // OR of 0..19999
}

TEST_CASE("a failed bounds check is an IndexError naming field, index, shape and line") {
  Program prog(test_config(2));
  Src src;
  FieldInfo* x = prog.create_dense_field(Prim::f32, {8, 8}, "x", src.at(1));
  ir::Kernel k;
  k.name = "oob";
  ir::Builder b(k.root);
  Stmt* t = b.offloaded(Task::serial);
  b.in(*t->body);
  Stmt* p = b.global_ptr(prog.access_of(*x), Prim::f32, {b.const_int(Prim::i32, 2), b.const_int(Prim::i32, 8)});
  p->loc = src.at(4, 5);
  b.global_store(p, b.const_float(Prim::f32, 1.0));
  LaunchContext ctx;
  ctx.tree_bases = prog.tree_bases();
  try {
    run(k, ctx);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind == "IndexError");
    CHECK(e.message == "index 8 is out of bounds for axis 1 of field 'x' with shape (8, 8)");
    CHECK(e.loc.line == 4);
    CHECK(e.loc.file == src.f);
    CHECK(format_error(e).find("x[i, 8] = 1") != std::string::npos);
  }
  // negative indices are out of bounds too, and 1-D shapes print as tuples
  FieldInfo* y = prog.create_dense_field(Prim::i32, {5}, "y", src.at(1));
  ir::Kernel k2;
  k2.name = "neg";
  ir::Builder b2(k2.root);
  Stmt* t2 = b2.offloaded(Task::serial);
  b2.in(*t2->body);
  b2.global_load(b2.global_ptr(prog.access_of(*y), Prim::i32, {b2.const_int(Prim::i32, -1)}));
  LaunchContext ctx2;
  ctx2.tree_bases = prog.tree_bases();
  try {
    run(k2, ctx2);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.message == "index -1 is out of bounds for axis 0 of field 'y' with shape (5,)");
  }
}

TEST_CASE("integer division by zero raises ZeroDivisionError at the statement") {
  Src src;
  for (BinaryOp op : {BinaryOp::div, BinaryOp::floordiv, BinaryOp::mod, BinaryOp::raw_mod}) {
    for (Prim p : {Prim::i8, Prim::u16, Prim::i32, Prim::u32, Prim::i64, Prim::u64}) {
      ir::Kernel k;
      k.name = "zdiv";
      k.args = {{"a", Type::scalar(p)}, {"b", Type::scalar(p)}};
      ir::Builder b(k.root);
      Stmt* t = b.offloaded(Task::serial);
      b.in(*t->body);
      Stmt* d = b.binary(op, b.arg(0, Type::scalar(p)), b.arg(1, Type::scalar(p)));
      d->loc = src.at(5, 9);
      print_value(b, "q", d);
      LaunchContext ctx;
      ctx.args = {7, 0};
      try {
        run(k, ctx);
        FAIL("no error");
      } catch (const Error& e) {
        CHECK(e.kind == "ZeroDivisionError");
        CHECK(e.message == "integer division by zero");
        CHECK(e.loc.line == 5);
        CHECK(e.loc.col == 9);
      }
      // float division by zero is inf, not an error; INT_MIN / -1 wraps
      LaunchContext ok;
      ok.args = {(uint64_t)-8, 2};
      CHECK_NOTHROW(run(k, ok));
    }
  }
  ir::Kernel k;
  k.name = "minus1";
  ir::Builder b(k.root);
  Stmt* t = b.offloaded(Task::serial);
  b.in(*t->body);
  print_value(b, "q", b.binary(BinaryOp::div, b.const_int(Prim::i32, INT32_MIN), b.const_int(Prim::i32, -1)));
  print_value(b, "r", b.binary(BinaryOp::mod, b.const_int(Prim::i64, INT64_MIN), b.const_int(Prim::i64, -1)));
  print_value(b, "f", b.binary(BinaryOp::div, b.const_float(Prim::f32, 1.0), b.const_float(Prim::f32, 0.0)));
  CHECK(run(k) == "q -2147483648\nr 0\nf inf\n");
}

TEST_CASE("assert raises AssertionError with its message, return writes ctx.rets") {
  Src src;
  ir::Kernel k;
  k.name = "asr";
  k.rets = {Type::scalar(Prim::f16), Type::scalar(Prim::i64)};
  ir::Builder b(k.root);
  Stmt* t = b.offloaded(Task::serial);
  b.in(*t->body);
  Stmt* v = b.arg(0, Type::scalar(Prim::i32));
  k.args = {{"v", Type::scalar(Prim::i32)}};
  Stmt* a = b.assert_(b.binary(BinaryOp::cmp_lt, v, b.const_int(Prim::i32, 3)), "too big: %d (%%)", {v});
  a->loc = src.at(6, 5);
  b.return_({b.const_float(Prim::f16, 1.5), b.unary(UnaryOp::cast_value, v, Type::scalar(Prim::i64))});
  b.print({text("unreachable\n")}, {});
  LaunchContext ctx;
  ctx.args = {2};
  CHECK(run(k, ctx) == "");
  CHECK(ctx.rets.size() == 2);
  CHECK(ctx.rets[0] == f32_to_f16_bits(1.5f));
  CHECK(ctx.rets[1] == 2);
  LaunchContext bad;
  bad.args = {5};
  try {
    run(k, bad);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind == "AssertionError");
    CHECK(e.message == "too big: 5 (%)");
    CHECK(e.loc.line == 6);
  }
}

TEST_CASE("prints flush to the program at kernel end, also when the kernel fails") {
  Program prog(test_config(2));
  std::string out;
  prog.out = [&](std::string_view s) { out += s; };
  ir::Kernel k;
  k.name = "p";
  ir::Builder b(k.root);
  Stmt* t = b.offloaded(Task::serial);
  b.in(*t->body);
  b.print({text("before\n")}, {});
  b.binary(BinaryOp::mod, b.const_int(Prim::i32, 1), b.const_int(Prim::i32, 0));
  auto ck = make_interp_engine()->compile(k, prog);
  LaunchContext ctx;
  ctx.program = &prog;
  CHECK_THROWS_AS(ck->launch(ctx), Error);
  CHECK(out == "before\n");
  CHECK(ctx.print_buffer.empty());
}

TEST_CASE("parallel prints never interleave within a line") {
  Program prog(test_config(4));
  std::string out;
  prog.out = [&](std::string_view s) { out += s; };
  ir::Kernel k;
  k.name = "pp";
  ir::Builder b(k.root);
  Stmt* t = b.offloaded(Task::range_for);
  t->begin = 0;
  t->end = 2000;
  b.in(*t->body);
  Stmt* i = b.loop_index(t);
  b.print({text("<"), val(0), text(","), val(1), text(">\n")}, {i, i});
  auto ck = make_interp_engine()->compile(k, prog);
  LaunchContext ctx;
  ctx.program = &prog;
  ck->launch(ctx);
  size_t lines = 0, pos = 0;
  bool ok = true;
  while (pos < out.size()) {
    size_t e = out.find('\n', pos);
    std::string l = out.substr(pos, e - pos);
    size_t comma = l.find(',');
    ok &= l.front() == '<' && l.back() == '>' && comma != std::string::npos &&
          l.substr(1, comma - 1) == l.substr(comma + 1, l.size() - comma - 2);
    lines++;
    pos = e + 1;
  }
  CHECK(ok);
  CHECK(lines == 2000);
}

TEST_CASE("registers are reused, but never while a loop still needs the value") {
  ir::Kernel k;
  k.name = "regs";
  ir::Builder b(k.root);
  Stmt* t = b.offloaded(Task::serial);
  b.in(*t->body);
  Stmt* c = b.const_int(Prim::i32, 1000);  // last used inside the loop
  Stmt* acc = b.alloca(Type::scalar(Prim::i32));
  Stmt* w = b.range_for(b.const_int(Prim::i32, 0), b.const_int(Prim::i32, 3));
  b.in(*w->body);
  Stmt* i = b.loop_index(w);
  Stmt* x = b.binary(BinaryOp::mul, i, b.const_int(Prim::i32, 2));
  Stmt* y = b.binary(BinaryOp::add, x, c);  // c's last use
  b.const_int(Prim::i32, 77);                // must not land in c's register
  b.local_store(acc, b.binary(BinaryOp::add, b.local_load(acc), y));
  b.in(*t->body);
  print_value(b, "acc", b.local_load(acc));  // 3000 + 0 + 2 + 4
  // a long straight-line chain needs only a handful of registers
  Stmt* v = b.const_int(Prim::i64, 0);
  for (int n = 0; n < 70000; n++) v = b.binary(BinaryOp::add, v, b.const_int(Prim::i64, 3));
  print_value(b, "chain", v);
  bc::Kernel code = bc::lower_kernel(k);
  CHECK(code.tasks[0].fn.num_regs < 16);
  LaunchContext ctx;
  interp::launch(code, ctx);
  CHECK(ctx.print_buffer == "acc 3006\nchain 210000\n");
}
