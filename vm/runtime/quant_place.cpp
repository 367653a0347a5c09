// Placing quantized fields (see vm/types/quant.h for the representation).
//
// A bit-packed group becomes a hidden field of an unsigned word type placed
// like any other field, so layout, sparse activation, list generation and
// host addressing need nothing new; the group's quant fields share its place
// SNode and shape and differ only in their QuantSlot. Bits are given out in
// place order from bit 0, a float's exponent just before its digits, as
// Taichi's BitStructTypeBuilder does.
#include "vm/runtime/program.h"

#include <algorithm>

namespace kiln {

namespace {

Prim word_prim(int bits, SourceLoc loc) {
  switch (bits) {
    case 8: return Prim::u8;
    case 16: return Prim::u16;
    case 32: return Prim::u32;
    case 64: return Prim::u64;
  }
  raise("ValueError", "max_num_bits must be 8, 16, 32 or 64, got " + std::to_string(bits), loc);
}

// The hidden word field of a group, placed under `parent`.
FieldInfo* place_word(Program& p, SNode* parent, Prim word, const std::string& name, SourceLoc loc) {
  FieldInfo* w = p.create_field(word, name, loc);
  w->is_word = true;
  w->quant = nullptr;
  p.place(parent, w, loc);
  return w;
}

void adopt(FieldInfo* f, const FieldInfo* w) {
  f->place = w->place;
  f->shape = w->shape;
}

void check_unplaced(const FieldInfo* f, SourceLoc loc) {
  if (!f->quant)
    raise("TypeError", "ti.BitpackedFields holds fields of quantized types (ti.types.quant.*), not " + f->describe() +
                           " of " + std::string(prim_name(f->dtype)), loc);
  if (f->place) raise("RuntimeError", f->describe() + " is already placed at " + f->place->name(), loc);
}

}  // namespace

FieldInfo* Program::create_quant_field(const QuantType& t, std::string name, SourceLoc loc) {
  check_quant_type(t);
  FieldInfo* f = create_field(t.compute, std::move(name), loc);
  f->quant = std::make_shared<QuantSlot>();
  f->quant->type = t;
  f->quant->word = Prim::none;
  return f;
}

SNode* Program::place_bitpacked(SNode* parent, int max_bits, const std::vector<BitpackGroup>& groups, SourceLoc loc) {
  Prim word = word_prim(max_bits, loc);
  // Check everything before anything is placed: a refused call leaves nothing.
  int used = 0;
  std::string names;
  for (const BitpackGroup& g : groups) {
    if (g.shared_exponent && g.fields.size() < 2)
      raise("TaichiSyntaxError", "At least 2 fields need to be placed when shared_exponent=True", loc);
    const QuantType* first = nullptr;
    for (FieldInfo* f : g.fields) {
      check_unplaced(f, loc);
      const QuantType& t = f->quant->type;
      if (g.shared_exponent) {
        if (t.kind != QuantKind::float_)
          raise("TypeError", "shared_exponent=True shares a quant.float exponent, but " + f->describe() + " is a " +
                                 t.describe(), loc);
        if (first && first->exp_bits != t.exp_bits)
          raise("TypeError", "fields sharing an exponent need the same exponent bits (" + first->describe() +
                                 " and " + t.describe() + ")", loc);
        if (!first) used += t.exp_bits;
        first = &t;
      } else if (t.kind == QuantKind::float_) {
        used += t.exp_bits;
      }
      used += t.bits;
      names += (names.empty() ? "" : ", ") + f->describe();
    }
  }
  if (used > max_bits)
    raise("ValueError", "ti.BitpackedFields(max_num_bits=" + std::to_string(max_bits) + ") cannot hold " + names +
                            ": they need " + std::to_string(used) + " bits", loc);
  if (used == 0) raise("ValueError", "ti.BitpackedFields placed with no fields", loc);

  FieldInfo* w = place_word(*this, parent, word, "bitpacked", loc);
  int at = 0;
  for (const BitpackGroup& g : groups) {
    int shared_exp = -1;
    std::vector<int> ids;
    for (FieldInfo* f : g.fields) ids.push_back(f->id);
    for (FieldInfo* f : g.fields) {
      QuantSlot& s = *f->quant;
      s.word = word;
      if (s.type.kind == QuantKind::float_) {
        if (!g.shared_exponent || shared_exp < 0) {
          s.exp_offset = at;
          at += s.type.exp_bits;
          if (g.shared_exponent) shared_exp = s.exp_offset;
        } else {
          s.exp_offset = shared_exp;
        }
        s.shared_exp = g.shared_exponent;
        if (g.shared_exponent) s.exp_group = ids;
      }
      s.bit_offset = at;
      at += s.type.bits;
      adopt(f, w);
    }
  }
  return w->place;
}

SNode* Program::add_quant_array(SNode* parent, const std::vector<int>& axes, const std::vector<int64_t>& sizes,
                                int max_bits, SourceLoc loc) {
  word_prim(max_bits, loc);
  int64_t cells = 1;
  for (int64_t n : sizes) cells *= std::max<int64_t>(n, 1);
  if (cells > max_bits)
    raise("ValueError", "a quant_array of " + std::to_string(cells) + " cells cannot fit in " + std::to_string(max_bits) +
                            " bits", loc);
  SNode* s = add_container(parent, SNodeKind::dense, axes, sizes, loc);
  s->quant_array_bits = max_bits;
  return s;
}

SNode* place_in_quant_array(Program& p, SNode* parent, FieldInfo* f, SourceLoc loc) {
  check_unplaced(f, loc);
  const QuantType& t = f->quant->type;
  if (t.kind == QuantKind::float_)
    raise("TypeError", "a quant_array holds quant.int or quant.fixed fields, not " + t.describe(), loc);
  if (!parent->children.empty())
    raise("TypeError", "a quant_array holds exactly one field; " + f->describe() + " would be the second", loc);
  int64_t cells = parent->num_cells();
  if (cells * t.bits > parent->quant_array_bits)
    raise("ValueError", "a quant_array of " + std::to_string(cells) + " x " + t.describe() + " needs " +
                            std::to_string(cells * t.bits) + " bits, more than its max_num_bits=" +
                            std::to_string(parent->quant_array_bits), loc);
  Prim word = word_prim(parent->quant_array_bits, loc);
  FieldInfo* w = place_word(p, parent, word, "quant_array", loc);
  QuantSlot& s = *f->quant;
  s.word = word;
  s.bit_offset = 0;
  // Cells are row-major over the array's axes, lower axes outermost (as
  // the layout orders a dense SNode's cells).
  const auto& pip = w->place->physical_index_position;
  for (int a = 0; a < kMaxIndices; a++) {
    if (parent->extent[a] <= 1) continue;
    for (size_t v = 0; v < pip.size(); v++)
      if (pip[v] == a) s.array_dims.push_back({(int)v, parent->extent[a]});
  }
  adopt(f, w);
  return w->place;
}

}  // namespace kiln
