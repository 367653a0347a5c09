// ConstVal conversions and the kernel-print rendering of one scalar.
#include "vm/types/value.h"

#include <cmath>
#include <cstring>

#include "vm/support/diag.h"
#include "vm/support/format.h"

namespace kiln {

namespace {

// Truncates a 64-bit pattern to `bits` and extends it back per signedness:
// this is the whole of int -> int conversion (two's complement wrap).
uint64_t wrap_bits(uint64_t v, int bits, bool is_signed) {
  if (bits >= 64) return v;
  uint64_t mask = (uint64_t(1) << bits) - 1;
  v &= mask;
  if (is_signed && (v >> (bits - 1)) & 1) v |= ~mask;
  return v;
}

ConstVal from_pattern(Prim p, uint64_t v) {
  ConstVal c;
  c.prim = p;
  c.u = wrap_bits(v, prim_bits(p), prim_is_signed(p));
  return c;
}

// Rounds a double to the float format `p` in one step.
double round_float(Prim p, double d) {
  switch (p) {
    case Prim::f64: return d;
    case Prim::f32: return (double)(float)d;
    case Prim::f16: return round_to_f16(d);
    case Prim::bf16: return round_to_bf16(d);
    default: return d;
  }
}

// An integer magnitude as a double that rounds to any format of at most ~50
// bits exactly like the integer would: above 2^53 the dropped bits are folded
// into a sticky low bit ("round to odd"), which stops i64 -> bf16 from
// rounding twice (once to double, once to bf16).
double sticky_double(uint64_t m) {
  int shift = 0;
  while ((m >> shift) >= (uint64_t(1) << 53)) ++shift;
  if (shift == 0) return (double)m;
  uint64_t kept = m >> shift;
  if (m & ((uint64_t(1) << shift) - 1)) kept |= 1;
  return std::ldexp((double)kept, shift);
}

double int_to_float(Prim to, bool neg, uint64_t mag, int64_t sval, uint64_t uval, bool from_signed) {
  // f64 and f32: the C conversion from the 64-bit integer rounds once.
  if (to == Prim::f64) return from_signed ? (double)sval : (double)uval;
  if (to == Prim::f32) return from_signed ? (double)(float)sval : (double)(float)uval;
  double d = sticky_double(mag);
  return round_float(to, neg ? -d : d);
}

// float -> int: truncate toward zero, NaN -> 0, saturate out of range.
uint64_t float_to_int_pattern(double f, Prim to) {
  if (std::isnan(f)) return 0;
  int bits = prim_bits(to);
  double t = std::trunc(f);
  if (prim_is_signed(to)) {
    double lo = -std::ldexp(1.0, bits - 1);  // exact power of two
    double hi_excl = std::ldexp(1.0, bits - 1);
    if (t <= lo) return (uint64_t)(bits >= 64 ? INT64_MIN : -(int64_t(1) << (bits - 1)));
    if (t >= hi_excl) return (uint64_t)(bits >= 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1);
    return (uint64_t)(int64_t)t;
  }
  if (t <= 0) return 0;
  if (t >= std::ldexp(1.0, bits)) return bits >= 64 ? UINT64_MAX : (uint64_t(1) << bits) - 1;
  return (uint64_t)t;
}

}  // namespace

ConstVal ConstVal::make_int(Prim p, int64_t v) {
  ConstVal c;
  c.prim = Prim::i64;
  c.i = v;
  return cast_const(c, p);
}

ConstVal ConstVal::make_uint(Prim p, uint64_t v) {
  ConstVal c;
  c.prim = Prim::u64;
  c.u = v;
  return cast_const(c, p);
}

ConstVal ConstVal::make_float(Prim p, double v) {
  ConstVal c;
  c.prim = Prim::f64;
  c.f = v;
  return cast_const(c, p);
}

double ConstVal::as_double() const { return cast_const(*this, Prim::f64).f; }
int64_t ConstVal::as_int64() const { return cast_const(*this, Prim::i64).i; }
uint64_t ConstVal::as_uint64() const { return cast_const(*this, Prim::u64).u; }

bool ConstVal::identical(const ConstVal& o) const { return prim == o.prim && u == o.u; }

ConstVal cast_const(const ConstVal& v, Prim to) {
  if (v.prim == Prim::none || to == Prim::none) return v;
  ConstVal r;
  r.prim = to;
  bool from_float = prim_is_float(v.prim);
  if (from_float) {
    if (prim_is_float(to)) {
      r.f = round_float(to, v.f);
    } else {
      r = from_pattern(to, float_to_int_pattern(v.f, to));
    }
    return r;
  }
  bool from_signed = prim_is_signed(v.prim);
  if (!prim_is_float(to)) return from_pattern(to, v.u);  // int -> int: wrap
  bool neg = from_signed && v.i < 0;
  uint64_t mag = neg ? 0 - v.u : v.u;  // |INT64_MIN| is fine in unsigned arithmetic
  r.f = int_to_float(to, neg, mag, v.i, v.u, from_signed);
  return r;
}

uint64_t const_to_bits(const ConstVal& v) {
  switch (v.prim) {
    case Prim::f64: return v.u;
    case Prim::f32: {
      float f = (float)v.f;
      uint32_t b;
      std::memcpy(&b, &f, 4);
      return b;
    }
    case Prim::f16: return f64_to_f16_bits(v.f);
    case Prim::bf16: return f64_to_bf16_bits(v.f);
    case Prim::none: return 0;
    default: {
      int bits = prim_bits(v.prim);
      return bits >= 64 ? v.u : v.u & ((uint64_t(1) << bits) - 1);
    }
  }
}

ConstVal const_from_bits(Prim p, uint64_t bits) {
  ConstVal c;
  c.prim = p;
  switch (p) {
    case Prim::f64: c.u = bits; break;
    case Prim::f32: {
      uint32_t b = (uint32_t)bits;
      float f;
      std::memcpy(&f, &b, 4);
      c.f = f;
      break;
    }
    case Prim::f16: c.f = f16_bits_to_f32((uint16_t)bits); break;
    case Prim::bf16: c.f = bf16_bits_to_f32((uint16_t)bits); break;
    case Prim::none: c.u = 0; break;
    default: c = from_pattern(p, bits);
  }
  return c;
}

std::string kernel_printf_spec(Prim p) {
  switch (p) {
    case Prim::i8:
    case Prim::i16: return "%hd";
    case Prim::u8:
    case Prim::u16: return "%hu";
    case Prim::i32: return "%d";
    case Prim::u32: return "%u";
    case Prim::i64: return "%lld";
    case Prim::u64: return "%llu";
    case Prim::f16:
    case Prim::bf16:
    case Prim::f32: return "%f";
    case Prim::f64: return "%.12f";
    case Prim::none: return "";
  }
  return "";
}

namespace {

int conversion_group(char c) {
  if (c == 'd' || c == 'i') return 1;
  if (c == 'o' || c == 'x' || c == 'X' || c == 'u') return 2;
  if (c && std::strchr("fFeEaAgG", c)) return 3;
  return 0;
}

}  // namespace

std::string kernel_print_scalar(const ConstVal& v, std::string_view user_spec) {
  std::optional<CPrintfSpec> dt = parse_c_printf_spec(kernel_printf_spec(v.prim));
  if (!dt) return "";
  CPrintfSpec spec = *dt;
  if (!user_spec.empty()) {
    std::optional<CPrintfSpec> user = parse_c_printf_spec(user_spec);
    if (!user)
      raise("ValueError", std::string(user_spec) + " is not a valid printf specifier.");
    if (user->conversion == 'n')
      raise("ValueError", "The " + std::string(user_spec) + " printf specifier is not supported");
    // The user's flags, width, precision; the type's length; the user's
    // conversion only within the type's group (Taichi warns and drops it otherwise).
    spec.flags = user->flags;
    spec.width = user->width;
    if (user->precision >= 0) spec.precision = user->precision;
    if (user->conversion && conversion_group(user->conversion) == conversion_group(dt->conversion))
      spec.conversion = user->conversion;
  }
  // A NaN's sign bit is whichever operand's NaN the hardware kept (x86 keeps
  // the first), so it varies with how each engine's code orders operands and
  // with the platform (Taichi's own output varies too): every NaN prints as
  // "nan", as Python's repr prints it, and all engines print the same.
  if (v.is_float()) return c_format_double(spec, std::isnan(v.f) ? std::fabs(v.f) : v.f);
  if (prim_is_signed(v.prim)) return c_format_int(spec, v.i);
  return c_format_uint(spec, v.u);
}

std::string assert_text(const std::string& t, const std::vector<ConstVal>& args) {
  if (args.empty()) return t;
  std::string out;
  size_t arg = 0;
  for (size_t i = 0; i < t.size(); i++) {
    if (t[i] != '%' || i + 1 >= t.size()) {
      out += t[i];
      continue;
    }
    if (t[i + 1] == '%') {
      out += '%';
      i++;
      continue;
    }
    size_t j = i + 1;
    std::string spec;
    while (j < t.size() && std::strchr("-+ #0123456789.hlLqjzt", t[j])) {
      if (!std::strchr("hlLqjzt", t[j])) spec += t[j];  // length modifiers mean nothing here
      j++;
    }
    if (j >= t.size() || !std::strchr("diouxXfFeEgGcs", t[j]) || arg >= args.size()) {
      out += t[i];
      continue;
    }
    if (t[j] != 's') spec += t[j];
    out += kernel_print_scalar(args[arg], spec);
    arg++;
    i = j;
  }
  return out;
}

}  // namespace kiln
