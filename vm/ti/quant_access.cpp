// Host access to quantized fields (see quant_access.h). The host runs between
// kernels, alone, so a store is a plain read-modify-write of the word.
#include "vm/ti/quant_access.h"

#include <cstring>

namespace kiln::ti {

namespace {

int shift_of(const FieldInfo& f, const int64_t* idx) {
  const QuantSlot& s = *f.quant;
  int64_t cell = 0;
  for (auto [v, n] : s.array_dims) cell = cell * n + (idx[v] - f.offset_at((size_t)v)) % n;
  return s.bit_offset + (int)cell * s.type.bits;
}

uint64_t read_word(const void* p, Prim word) {
  uint64_t w = 0;
  std::memcpy(&w, p, (size_t)prim_bits(word) / 8);
  return w;
}

}  // namespace

ConstVal quant_get(Program& prog, const FieldInfo& f, const int64_t* idx, int n, SourceLoc loc) {
  const QuantSlot& s = *f.quant;
  uint64_t w = read_word(prog.element_read_address(f, idx, n, loc), s.word);
  int sh = shift_of(f, idx);
  if (s.type.kind == QuantKind::int_) return ConstVal::make_int(f.dtype, quant_read_int(s, w, sh));
  return ConstVal::make_float(f.dtype, quant_read_real(s, w, sh));
}

void quant_set(Program& prog, const FieldInfo& f, const int64_t* idx, int n, const ConstVal& v, SourceLoc loc) {
  const QuantSlot& s = *f.quant;
  void* p = prog.element_address(f, idx, n, loc);
  uint64_t w = read_word(p, s.word);
  int sh = shift_of(f, idx);
  if (s.type.kind == QuantKind::int_) {
    w = quant_write_int(s, w, sh, cast_const(v, Prim::i64).i);
  } else {
    std::vector<const QuantSlot*> group;
    for (int id : s.exp_group) group.push_back(prog.fields[(size_t)id]->quant.get());
    w = quant_write_real(s, w, sh, v.as_double(), group);
  }
  std::memcpy(p, &w, (size_t)prim_bits(s.word) / 8);
}

}  // namespace kiln::ti
