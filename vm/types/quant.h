// Quantized types (Taichi's ti.types.quant.int / fixed / float) and where a
// quantized field's bits sit inside a physical word.
//
// Representation, chosen so that nothing below the frontend knows about
// quantization: a bit-packed group (ti.BitpackedFields, quant_array) is ONE
// place SNode of an unsigned physical type (u8/u16/u32/u64, "the word"); every
// quantized field of the group points at that place and carries a QuantSlot
// saying which bits of the word are its own. The frontend lowers a load of
// such a field to a word load plus shifts and conversions, a store to atomic
// and/or of the word under the field's mask (so fields sharing a word can be
// written from different threads), and `+=` to an atomic add on the word
// (lower_quant.cpp). So the IR, the bytecode, the interpreter, the JIT and the
// GPU backends see only ordinary word loads, stores and atomics, and every
// engine runs quantized fields with no code of its own. Host access decodes
// and encodes the same bits with the functions below (kept in step with the
// frontend's IR by the tests, which read through both paths).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "vm/types/type.h"

namespace kiln {

enum class QuantKind : uint8_t { int_, fixed, float_ };

struct QuantType {
  QuantKind kind = QuantKind::int_;
  int bits = 0;              // int/fixed: the digits; float: the fraction digits (sign included)
  bool is_signed = true;
  Prim compute = Prim::i32;  // the type kernels and the host compute in
  double scale = 1.0;        // fixed: value = digits * scale
  int exp_bits = 0;          // float: unsigned exponent bits
  // "quant.int(5, signed=True)" etc., for messages.
  std::string describe() const;
  // float: fraction bits without the sign; Taichi's exponent bias shift.
  int digit_bits() const { return bits - (is_signed ? 1 : 0); }
  int exponent_offset() const { return 127 - (1 << (exp_bits - 1)) + 1; }
};

// Checks a quant type's parameters the way Taichi does; throws kiln::Error
// (ValueError) naming the bad one.
void check_quant_type(const QuantType& t);

// Where one quantized field's bits are: the digits at [bit_offset, +bits) of
// the word; a float's exponent at [exp_offset, +exp_bits), shared with the
// other fields of `exp_group` (the field ids) when shared_exp. In a
// quant_array the offset also moves with the index: the element whose cell
// inside the array is c (row-major over array_dims: virtual index, extent;
// index % extent along each) starts at bit_offset + c * bits.
struct QuantSlot {
  QuantType type;
  Prim word = Prim::u32;
  int bit_offset = 0;
  int exp_offset = -1;
  bool shared_exp = false;
  std::vector<int> exp_group;
  std::vector<std::pair<int, int64_t>> array_dims;
  int word_bits() const { return prim_bits(word); }
};

// Host side codec over the word's value (zero-extended to 64 bits). `shift`
// is the digits' bit offset for this element (bit_offset, or the quant_array
// element's). Integers come back as int64, reals as double (the compute
// type's value).
int64_t quant_read_int(const QuantSlot& s, uint64_t word, int shift);
double quant_read_real(const QuantSlot& s, uint64_t word, int shift);
// The new word after storing `v` (fixed: rounded to the nearest step; int
// and fixed wrap to the field's bits, as Taichi's stores do). For a shared
// exponent `others` holds the current values of the group's other members
// in exp_group order (the stored field's entry is ignored).
uint64_t quant_write_int(const QuantSlot& s, uint64_t word, int shift, int64_t v);
uint64_t quant_write_real(const QuantSlot& s, uint64_t word, int shift, double v,
                          const std::vector<const QuantSlot*>& group = {});

// f32 bit-level helpers shared by the codec and its tests.
uint32_t quant_float_encode_digits(const QuantType& t, uint32_t f32_bits, uint32_t* exponent);
float quant_float_decode(const QuantType& t, uint32_t digits, uint32_t exponent, bool shared);
uint32_t quant_shared_digits(const QuantType& t, uint32_t f32_bits, uint32_t max_exp);

}  // namespace kiln
