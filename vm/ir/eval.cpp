// Scalar semantics of IR ops on constants; see eval.h for the rules.
#include "vm/ir/eval.h"

#include <cmath>
#include <type_traits>

#include "vm/types/value.h"

namespace kiln::ir {

namespace {

ConstVal to_val(const Const& c) {
  ConstVal v;
  v.prim = c.prim;
  v.u = c.u;
  return v;
}

Const from_val(const ConstVal& v) {
  Const c;
  c.prim = v.prim;
  c.u = v.u;
  return c;
}

// Wraps a 64-bit pattern to p's width and extends it back by p's signedness.
Const norm(Prim p, uint64_t v) {
  int bits = prim_bits(p);
  if (bits < 64) {
    uint64_t mask = (uint64_t(1) << bits) - 1;
    v &= mask;
    if (prim_is_signed(p) && (v >> (bits - 1)) & 1) v |= ~mask;
  }
  Const c;
  c.prim = p;
  c.u = v;
  return c;
}

Const boolean(Prim p, bool b) { return norm(p, b ? 1 : 0); }

// The float result of a computation done in T, stored at p's precision.
template <class T>
Const flt(Prim p, T v) {
  Const c;
  c.prim = p;
  if (p == Prim::f16) c.f = round_to_f16((double)v);
  else if (p == Prim::bf16) c.f = round_to_bf16((double)v);
  else c.f = (double)v;
  return c;
}

template <class T>
T max_number(T a, T b, bool is_max) {
  if (std::isnan(a)) return std::isnan(b) ? a : b;
  if (std::isnan(b)) return a;
  if (a == b) {  // only the sign of zero can differ
    bool pick_a = is_max ? !std::signbit(a) : std::signbit(a);
    return pick_a ? a : b;
  }
  return (a > b) == is_max ? a : b;
}

template <class T>
std::optional<Const> float_unary(UnaryOp op, Prim p, T a) {
  switch (op) {
    case UnaryOp::neg: return flt(p, T(-a));
    case UnaryOp::abs: return flt(p, T(std::fabs(a)));
    case UnaryOp::sqrt: return flt(p, T(std::sqrt(a)));
    case UnaryOp::rsqrt: return flt(p, T(T(1) / std::sqrt(a)));
    case UnaryOp::sin: return flt(p, T(std::sin(a)));
    case UnaryOp::cos: return flt(p, T(std::cos(a)));
    case UnaryOp::tan: return flt(p, T(std::tan(a)));
    case UnaryOp::asin: return flt(p, T(std::asin(a)));
    case UnaryOp::acos: return flt(p, T(std::acos(a)));
    case UnaryOp::atan: return flt(p, T(std::atan(a)));
    case UnaryOp::tanh: return flt(p, T(std::tanh(a)));
    case UnaryOp::exp: return flt(p, T(std::exp(a)));
    case UnaryOp::log: return flt(p, T(std::log(a)));
    case UnaryOp::floor: return flt(p, T(std::floor(a)));
    case UnaryOp::ceil: return flt(p, T(std::ceil(a)));
    case UnaryOp::round: return flt(p, T(std::round(a)));
    default: return std::nullopt;  // bit_not on a float; casts are handled by the caller
  }
}

std::optional<Const> int_unary(UnaryOp op, const Const& a) {
  Prim p = a.prim;
  switch (op) {
    case UnaryOp::neg: return norm(p, 0 - a.u);
    case UnaryOp::bit_not: return norm(p, ~a.u);
    case UnaryOp::abs: return prim_is_signed(p) && a.i < 0 ? norm(p, 0 - a.u) : a;
    case UnaryOp::popcnt:
    case UnaryOp::clz: {
      int bits = prim_bits(p);
      uint64_t x = bits == 64 ? a.u : a.u & ((uint64_t(1) << bits) - 1);
      if (op == UnaryOp::popcnt) return norm(p, (uint64_t)__builtin_popcountll(x));
      return norm(p, x ? (uint64_t)(__builtin_clzll(x) - (64 - bits)) : (uint64_t)bits);
    }
    case UnaryOp::floor:
    case UnaryOp::ceil:
    case UnaryOp::round: return a;
    default: return std::nullopt;  // transcendental ops want a float operand
  }
}

// a compared with b (same prim) by `op`, one of the cmp_* ops.
template <class T>
bool compare(BinaryOp op, T a, T b) {
  switch (op) {
    case BinaryOp::cmp_lt: return a < b;
    case BinaryOp::cmp_le: return a <= b;
    case BinaryOp::cmp_gt: return a > b;
    case BinaryOp::cmp_ge: return a >= b;
    case BinaryOp::cmp_eq: return a == b;
    default: return a != b;
  }
}

template <class T>
std::optional<Const> float_binary(BinaryOp op, Prim p, T a, T b) {
  switch (op) {
    case BinaryOp::add: return flt(p, T(a + b));
    case BinaryOp::sub: return flt(p, T(a - b));
    case BinaryOp::mul: return flt(p, T(a * b));
    case BinaryOp::div: return flt(p, T(a / b));
    case BinaryOp::floordiv: return flt(p, T(std::floor(T(a / b))));
    case BinaryOp::mod: {
      T r = std::fmod(a, b);
      if (r != 0) {
        if ((b < 0) != (r < 0)) r += b;
      } else {
        r = std::copysign(T(0), b);
      }
      return flt(p, r);
    }
    case BinaryOp::raw_mod: return flt(p, T(std::fmod(a, b)));
    case BinaryOp::pow: return flt(p, T(std::pow(a, b)));
    case BinaryOp::max: return flt(p, max_number(a, b, true));
    case BinaryOp::min: return flt(p, max_number(a, b, false));
    case BinaryOp::atan2: return flt(p, T(std::atan2(a, b)));
    default: return std::nullopt;  // bit ops
  }
}

std::optional<Const> int_binary(BinaryOp op, const Const& a, const Const& b) {
  Prim p = a.prim;
  bool sg = prim_is_signed(p);
  bool div_like = op == BinaryOp::div || op == BinaryOp::floordiv || op == BinaryOp::mod ||
                  op == BinaryOp::raw_mod;
  if (div_like && b.u == 0) return std::nullopt;  // traps at run time
  // x / -1 is the one signed division whose quotient can overflow (INT64_MIN):
  // it is negation, and its remainder is 0, without touching C's UB.
  if (div_like && sg && b.i == -1) {
    if (op == BinaryOp::div || op == BinaryOp::floordiv) return norm(p, 0 - a.u);
    return norm(p, 0);
  }
  switch (op) {
    case BinaryOp::add: return norm(p, a.u + b.u);
    case BinaryOp::sub: return norm(p, a.u - b.u);
    case BinaryOp::mul: return norm(p, a.u * b.u);
    case BinaryOp::div: return sg ? norm(p, (uint64_t)(a.i / b.i)) : norm(p, a.u / b.u);
    case BinaryOp::floordiv: {
      if (!sg) return norm(p, a.u / b.u);
      int64_t q = a.i / b.i;
      if (a.i % b.i != 0 && ((a.i < 0) != (b.i < 0))) --q;
      return norm(p, (uint64_t)q);
    }
    case BinaryOp::mod: {
      if (!sg) return norm(p, a.u % b.u);
      int64_t r = a.i % b.i;
      if (r != 0 && ((r < 0) != (b.i < 0))) r += b.i;
      return norm(p, (uint64_t)r);
    }
    case BinaryOp::raw_mod: return sg ? norm(p, (uint64_t)(a.i % b.i)) : norm(p, a.u % b.u);
    case BinaryOp::pow: {
      if (sg && b.i < 0) return std::nullopt;
      uint64_t result = 1, base = a.u, e = b.u;
      while (e) {
        if (e & 1) result *= base;
        base *= base;
        e >>= 1;
      }
      return norm(p, result);
    }
    case BinaryOp::max: return (sg ? a.i >= b.i : a.u >= b.u) ? a : b;
    case BinaryOp::min: return (sg ? a.i <= b.i : a.u <= b.u) ? a : b;
    case BinaryOp::bit_and: return norm(p, a.u & b.u);
    case BinaryOp::bit_or: return norm(p, a.u | b.u);
    case BinaryOp::bit_xor: return norm(p, a.u ^ b.u);
    case BinaryOp::bit_shl:
    case BinaryOp::bit_shr:
    case BinaryOp::bit_sar: {
      int w = prim_bits(p);
      uint64_t mask = w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
      uint64_t pattern = a.u & mask;
      uint64_t count = b.u;  // a negative signed count reads as huge
      if (op == BinaryOp::bit_shl) return count >= (uint64_t)w ? norm(p, 0) : norm(p, pattern << count);
      if (op == BinaryOp::bit_shr) return count >= (uint64_t)w ? norm(p, 0) : norm(p, pattern >> count);
      // sar: the pattern read as a signed w-bit number, shifted arithmetically.
      int64_t s = w >= 64 ? (int64_t)pattern : (int64_t)(pattern << (64 - w)) >> (64 - w);
      int64_t r = count >= (uint64_t)w ? (s < 0 ? -1 : 0) : s >> count;
      return norm(p, (uint64_t)r);
    }
    default: return std::nullopt;  // atan2 on ints
  }
}

}  // namespace

std::optional<Const> eval_unary(UnaryOp op, const Const& a, Type result) {
  if (!result.is_scalar() || a.prim == Prim::none) return std::nullopt;
  Prim p = result.prim;
  if (op == UnaryOp::cast_value) return from_val(cast_const(to_val(a), p));
  if (op == UnaryOp::cast_bits) {
    if (prim_bits(p) != prim_bits(a.prim)) return std::nullopt;
    return from_val(const_from_bits(p, const_to_bits(to_val(a))));
  }
  if (op == UnaryOp::logic_not) {
    if (!prim_is_int(p)) return std::nullopt;
    return boolean(p, prim_is_float(a.prim) ? a.f == 0 : a.u == 0);
  }
  if (p != a.prim) return std::nullopt;
  if (prim_is_float(p)) {
    if (p == Prim::f64) return float_unary<double>(op, p, a.f);
    return float_unary<float>(op, p, (float)a.f);
  }
  return int_unary(op, a);
}

std::optional<Const> eval_binary(BinaryOp op, const Const& a, const Const& b, Type result) {
  if (!result.is_scalar() || a.prim == Prim::none || b.prim == Prim::none) return std::nullopt;
  bool shift = op == BinaryOp::bit_shl || op == BinaryOp::bit_shr || op == BinaryOp::bit_sar;
  Prim p = a.prim;
  if (shift) {
    if (!prim_is_int(p) || !prim_is_int(b.prim) || result.prim != p) return std::nullopt;
    return int_binary(op, a, b);
  }
  if (b.prim != p) return std::nullopt;
  if (is_comparison(op)) {
    if (!prim_is_int(result.prim)) return std::nullopt;
    bool r;
    if (p == Prim::f64) r = compare<double>(op, a.f, b.f);
    else if (prim_is_float(p)) r = compare<float>(op, (float)a.f, (float)b.f);
    else if (prim_is_signed(p)) r = compare<int64_t>(op, a.i, b.i);
    else r = compare<uint64_t>(op, a.u, b.u);
    return boolean(result.prim, r);
  }
  if (result.prim != p) return std::nullopt;
  if (prim_is_float(p)) {
    if (p == Prim::f64) return float_binary<double>(op, p, a.f, b.f);
    return float_binary<float>(op, p, (float)a.f, (float)b.f);
  }
  return int_binary(op, a, b);
}

}  // namespace kiln::ir
