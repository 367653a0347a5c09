// Quantized types: parameter checks and the host's codec (see quant.h). The
// bit recipes follow Taichi's (QuanTaichi): fixed stores round half away from
// zero and wrap; floats round the f32 fraction to nearest, flush to zero when
// the exponent underflows, and a shared exponent is the group's largest.
#include "vm/types/quant.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "vm/support/diag.h"

namespace kiln {

std::string QuantType::describe() const {
  std::string sg = is_signed ? "True" : "False";
  switch (kind) {
    case QuantKind::int_: return "quant.int(" + std::to_string(bits) + ", signed=" + sg + ")";
    case QuantKind::fixed: return "quant.fixed(" + std::to_string(bits) + ", signed=" + sg + ")";
    case QuantKind::float_:
      return "quant.float(exp=" + std::to_string(exp_bits) + ", frac=" + std::to_string(bits) + ", signed=" + sg + ")";
  }
  return "quant";
}

void check_quant_type(const QuantType& t) {
  int lo = t.kind == QuantKind::float_ && t.is_signed ? 2 : 1;
  int hi = t.kind == QuantKind::int_ ? 64 : 32;
  if (t.bits < lo || t.bits > hi)
    raise("ValueError", t.describe() + ": the number of bits must be between " + std::to_string(lo) + " and " +
                            std::to_string(hi) + ", got " + std::to_string(t.bits));
  if (t.kind == QuantKind::float_) {
    if (t.exp_bits < 1 || t.exp_bits > 8)
      raise("ValueError", t.describe() + ": the exponent must have 1 to 8 bits, got " + std::to_string(t.exp_bits));
    if (t.digit_bits() > 23)
      raise("ValueError", t.describe() + ": at most 23 fraction bits (the compute type is f32)");
    if (t.compute != Prim::f32) raise("ValueError", t.describe() + ": the compute type of a quant.float must be f32");
  }
  if (t.kind != QuantKind::int_ && !prim_is_float(t.compute))
    raise("ValueError", t.describe() + ": the compute type must be a float type");
  if (t.kind == QuantKind::int_ && !prim_is_int(t.compute))
    raise("ValueError", t.describe() + ": the compute type must be an integer type");
  if (t.kind == QuantKind::fixed && !(t.scale > 0) ) raise("ValueError", t.describe() + ": the scale must be positive");
}

namespace {

uint64_t low_mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

uint32_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float bits_f32(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

int64_t field_digits(const QuantType& t, uint64_t word, int shift) {
  uint64_t d = (word >> shift) & low_mask(t.bits);
  if (t.is_signed && t.bits < 64 && (d >> (t.bits - 1)) & 1) d |= ~low_mask(t.bits);
  return (int64_t)d;
}

uint64_t put(uint64_t word, int shift, int bits, uint64_t v) {
  uint64_t m = low_mask(bits) << shift;
  return (word & ~m) | ((v << shift) & m);
}

// Round half away from zero in the compute type, then to the digits' integer.
int64_t fixed_digits(const QuantType& t, double v) {
  double scaled;
  if (t.compute == Prim::f32) {
    float s = (float)(1.0 / t.scale) * (float)v;
    scaled = s + (s >= 0 ? 0.5f : -0.5f);
    scaled = (float)scaled;
  } else {
    scaled = v * (1.0 / t.scale);
    scaled += scaled >= 0 ? 0.5 : -0.5;
  }
  if (!(scaled == scaled)) return 0;
  scaled = std::clamp(scaled, -2147483648.0, 2147483647.0);  // i32 digits, as Taichi converts
  return (int64_t)std::trunc(scaled);
}

}  // namespace

uint32_t quant_float_encode_digits(const QuantType& t, uint32_t b, uint32_t* exponent) {
  int db = t.digit_bits();
  uint32_t sign = b & 0x80000000u;
  if (db < 23) b += 1u << (22 - db);  // round to nearest; a carry bumps the exponent
  int32_t e = (int32_t)((b >> 23) & 255);
  uint32_t digits = (b >> (23 - db)) & (uint32_t)low_mask(db);
  if (t.is_signed) digits |= sign >> (31 - db);
  if (e != 0) e -= t.exponent_offset();
  e = std::max(e, 0);
  if ((uint32_t)e > low_mask(t.exp_bits)) e = (int32_t)low_mask(t.exp_bits);  // saturate to the largest exponent
  *exponent = (uint32_t)e;
  return e == 0 ? 0 : digits;  // flush to zero
}

float quant_float_decode(const QuantType& t, uint32_t in_digits, uint32_t exponent, bool shared) {
  int db = t.digit_bits();
  uint32_t digits = in_digits & (uint32_t)low_mask(t.bits);
  int32_t off = t.exponent_offset();
  if (t.exp_bits < 8 && exponent == 0) off = 0;
  uint32_t sign = 0;
  bool have_sign = false;
  if (shared) {
    if (t.is_signed) {
      sign = digits & (1u << db);
      digits ^= sign;
      sign <<= 31 - db;
      have_sign = true;
      digits <<= 1;
    }
    // The leading 1 of the digits marks where the value starts.
    int lz = digits ? __builtin_clz(digits) : 32;
    int extra = (31 - db) - lz;
    off += extra + (t.is_signed ? 0 : 1);
    int sh = (23 - db) - extra;
    digits = sh >= 0 ? (sh >= 32 ? 0 : digits << sh) : digits >> -sh;
  } else {
    digits <<= 23 - db;
  }
  uint32_t out = ((exponent + (uint32_t)off) << 23) | (digits & 0x7fffffu);
  if (shared && (exponent == 0 || (in_digits & (uint32_t)low_mask(t.bits)) == 0)) out = 0;
  if (t.is_signed) out |= have_sign ? sign : (digits & (1u << 23)) << 8;
  return bits_f32(out);
}

uint32_t quant_shared_digits(const QuantType& t, uint32_t b, uint32_t max_exp) {
  uint32_t e = (b >> 23) & 255;
  uint32_t d = (b & 0x7fffffu) | (1u << 23);
  uint32_t shift = std::min<uint32_t>(max_exp - e, 31);
  d >>= shift;
  int rs = 24 - t.digit_bits();
  d += 1u << (rs - 1);
  d = std::min<uint32_t>(d, (1u << 24) - 1);
  d >>= rs;
  if (t.is_signed) d |= (b & 0x80000000u) >> (31 - t.digit_bits());
  return d;
}

int64_t quant_read_int(const QuantSlot& s, uint64_t word, int shift) { return field_digits(s.type, word, shift); }

double quant_read_real(const QuantSlot& s, uint64_t word, int shift) {
  const QuantType& t = s.type;
  if (t.kind == QuantKind::fixed) {
    int64_t d = field_digits(t, word, shift);
    if (t.compute == Prim::f32) return (double)((float)d * (float)t.scale);
    return (double)d * t.scale;
  }
  if (t.kind == QuantKind::int_) return (double)field_digits(t, word, shift);
  uint32_t digits = (uint32_t)((word >> shift) & low_mask(t.bits));
  uint32_t e = (uint32_t)((word >> s.exp_offset) & low_mask(t.exp_bits));
  return quant_float_decode(t, digits, e, s.shared_exp);
}

uint64_t quant_write_int(const QuantSlot& s, uint64_t word, int shift, int64_t v) {
  if (s.type.kind != QuantKind::int_) return quant_write_real(s, word, shift, (double)v);
  return put(word, shift, s.type.bits, (uint64_t)v);
}

uint64_t quant_write_real(const QuantSlot& s, uint64_t word, int shift, double v,
                          const std::vector<const QuantSlot*>& group) {
  const QuantType& t = s.type;
  if (t.kind == QuantKind::int_) return put(word, shift, t.bits, (uint64_t)(int64_t)v);
  if (t.kind == QuantKind::fixed) return put(word, shift, t.bits, (uint64_t)fixed_digits(t, v));
  if (!s.shared_exp) {
    uint32_t e;
    uint32_t d = quant_float_encode_digits(t, f32_bits((float)v), &e);
    return put(put(word, shift, t.bits, d), s.exp_offset, t.exp_bits, e);
  }
  // A shared exponent: the group's largest exponent, every member re-encoded.
  std::vector<uint32_t> vals;
  uint32_t max_e = 0;
  for (const QuantSlot* m : group) {
    uint32_t b = m == &s ? f32_bits((float)v) : f32_bits((float)quant_read_real(*m, word, m->bit_offset));
    vals.push_back(b);
    max_e = std::max(max_e, (b >> 23) & 255);
  }
  int32_t stored = (int32_t)max_e - (max_e != 0 ? t.exponent_offset() : 0);
  stored = std::max(stored, 0);
  if ((uint32_t)stored > low_mask(t.exp_bits)) stored = (int32_t)low_mask(t.exp_bits);
  word = put(word, s.exp_offset, t.exp_bits, (uint32_t)stored);
  for (size_t k = 0; k < group.size(); k++)
    word = put(word, group[k]->bit_offset, group[k]->type.bits, quant_shared_digits(group[k]->type, vals[k], max_e));
  return word;
}

}  // namespace kiln
