// The interpreter against the constant folder (vm/ir/eval.h), which is the
// reference for scalar semantics: for every binary and unary op and every
// primitive type, random and edge-case constants go through both, and the
// results must be bit-identical (any NaN matches any NaN).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "vm/interp/interp.h"
#include "vm/ir/builder.h"
#include "vm/ir/eval.h"
#include "vm/types/value.h"

using namespace kiln;
using ir::BinaryOp;
using ir::Const;
using ir::Stmt;
using ir::UnaryOp;

namespace {

Const norm_int(Prim p, uint64_t bits) { return ir::Const::of_int(p, ConstVal::make_uint(p, bits).i); }

// Random values with a good share of edge cases.
Const random_const(Prim p, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> pick(0, 9);
  int k = pick(rng);
  if (prim_is_float(p)) {
    static const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, INFINITY, -INFINITY, NAN, 1e-40, 65504.0, 3.0};
    double d;
    if (k < 3) {
      d = specials[rng() % (sizeof specials / sizeof *specials)];
    } else {
      std::uniform_real_distribution<double> mant(-1.0, 1.0);
      std::uniform_int_distribution<int> ex(k < 7 ? -4 : -30, k < 7 ? 8 : 30);
      d = std::ldexp(mant(rng), ex(rng));
      if (k == 9) d = std::trunc(d * 16);  // integral values exercise floor/round ties
    }
    return Const::of_float(p, ConstVal::make_float(p, d).f);
  }
  uint64_t bits;
  switch (k) {
    case 0: bits = 0; break;
    case 1: bits = 1; break;
    case 2: bits = ~0ull; break;  // -1 / max
    case 3: bits = 1ull << (prim_bits(p) - 1); break;  // min / top bit
    case 4: bits = (1ull << (prim_bits(p) - 1)) - 1; break;
    case 5: bits = rng() % 17; break;  // small, also shift counts
    case 6: bits = (uint64_t)-(int64_t)(rng() % 17); break;
    default: bits = rng(); break;
  }
  return norm_int(p, bits);
}

bool same(const Const& a, const Const& b) {
  if (a.prim != b.prim) return false;
  if (prim_is_float(a.prim)) {
    if (std::isnan(a.f) && std::isnan(b.f)) return true;
    return std::memcmp(&a.f, &b.f, 8) == 0;
  }
  return a.u == b.u;
}

std::string show(const Const& c) {
  if (prim_is_float(c.prim)) return std::string(prim_name(c.prim)) + " " + std::to_string(c.f);
  return std::string(prim_name(c.prim)) + " " + std::to_string(c.i) + " (0x" +
         [&] { char b[20]; snprintf(b, sizeof b, "%llx", (unsigned long long)c.u); return std::string(b); }() + ")";
}

// Each case stores its result into its own global temp; the launch's temps
// are then read back at the result type's width.
struct Batch {
  ir::Kernel k;
  ir::Builder b{k.root};
  std::vector<Const> expect;
  std::vector<std::string> what;
  Batch() {
    k.name = "xcheck";
    Stmt* t = b.offloaded(ir::Task::serial);
    b.in(*t->body);
  }
  void add(Stmt* result, const Const& e, std::string w) {
    b.global_store(b.global_temp((int)expect.size(), result->type.prim), result);
    expect.push_back(e);
    what.push_back(std::move(w));
  }
  int run() {
    k.num_global_temps = (int)expect.size();
    bc::Kernel code = bc::lower_kernel(k);
    LaunchContext ctx;
    interp::launch(code, ctx);
    int bad = 0;
    for (size_t i = 0; i < expect.size(); i++) {
      Prim p = expect[i].prim;
      uint64_t bits = ctx.temps[i];
      if (prim_bits(p) < 64) bits &= (1ull << prim_bits(p)) - 1;
      ConstVal v = const_from_bits(p, bits);
      Const got;
      got.prim = p;
      got.u = v.u;
      if (!same(got, expect[i])) {
        if (++bad <= 10) MESSAGE(what[i] << ": folder " << show(expect[i]) << ", interpreter " << show(got));
      }
    }
    return bad;
  }
};

const Prim kAll[] = {Prim::i8, Prim::i16, Prim::i32, Prim::i64, Prim::u8,   Prim::u16,
                     Prim::u32, Prim::u64, Prim::f16, Prim::bf16, Prim::f32, Prim::f64};

}  // namespace

TEST_CASE("every binary op on every type equals the constant folder") {
  std::mt19937_64 rng(12345);
  const BinaryOp ops[] = {
#define KILN_OP(k) BinaryOp::k,
      KILN_IR_BINARY(KILN_OP)
#undef KILN_OP
  };
  int compared = 0;
  for (BinaryOp op : ops) {
    for (Prim p : kAll) {
      Batch batch;
      bool shift = op == BinaryOp::bit_shl || op == BinaryOp::bit_shr || op == BinaryOp::bit_sar;
      for (int n = 0; n < 300; n++) {
        Const a = random_const(p, rng);
        Prim cp = shift ? kAll[rng() % 8] : p;  // shift counts of any integer type
        Const c = random_const(cp, rng);
        if (shift && rng() % 2) c = norm_int(cp, rng() % (prim_bits(p) + 3));
        Type rt = Type::scalar(ir::is_comparison(op) ? Prim::i32 : p);
        auto e = ir::eval_binary(op, a, c, rt);
        if (!e) continue;  // traps, or no meaning on this type
        Stmt* s = batch.b.binary(op, batch.b.constant(a), batch.b.constant(c));
        batch.add(s, *e, std::string(ir::binary_op_name(op)) + " " + show(a) + ", " + show(c));
      }
      compared += (int)batch.expect.size();
      INFO(ir::binary_op_name(op) << " on " << prim_name(p));
      CHECK(batch.run() == 0);
    }
  }
  CHECK(compared > 50000);
}

TEST_CASE("every unary op and cast on every type equals the constant folder") {
  std::mt19937_64 rng(777);
  const UnaryOp ops[] = {
#define KILN_OP(k) UnaryOp::k,
      KILN_IR_UNARY(KILN_OP)
#undef KILN_OP
  };
  int compared = 0;
  for (UnaryOp op : ops) {
    for (Prim p : kAll) {
      std::vector<Prim> results;
      if (op == UnaryOp::cast_value) results.assign(std::begin(kAll), std::end(kAll));
      else if (op == UnaryOp::cast_bits) {
        for (Prim r : kAll)
          if (prim_bits(r) == prim_bits(p)) results.push_back(r);
      } else if (op == UnaryOp::logic_not) results = {Prim::i32};
      else results = {p};
      for (Prim r : results) {
        Batch batch;
        for (int n = 0; n < 200; n++) {
          Const a = random_const(p, rng);
          auto e = ir::eval_unary(op, a, Type::scalar(r));
          if (!e) continue;
          Stmt* s = batch.b.unary(op, batch.b.constant(a), Type::scalar(r));
          batch.add(s, *e, std::string(ir::unary_op_name(op)) + " -> " + std::string(prim_name(r)) + " " + show(a));
        }
        compared += (int)batch.expect.size();
        INFO(ir::unary_op_name(op) << " " << prim_name(p) << " -> " << prim_name(r));
        CHECK(batch.run() == 0);
      }
    }
  }
  CHECK(compared > 20000);
}
