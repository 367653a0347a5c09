// See field_copy.h.
#include "vm/ti/field_copy.h"
#include "vm/ti/quant_access.h"
#include "vm/support/stream_copy.h"

#include <cstring>

namespace kiln::ti {

FieldView affine_view(Program& prog, const std::vector<FieldInfo*>& comps) {
  FieldView a;
  auto bases = prog.tree_bases();
  for (size_t c = 0; c < comps.size(); c++) {
    const FieldInfo& f = *comps[c];
    if (!f.place || f.place->sparse || f.quant) return a;
    ir::Access acc = prog.access_of(f);
    std::vector<int64_t> st(f.shape.size(), 0);
    for (auto& t : acc.terms) {
      if (t.div != 1 || t.mod != 0 || t.axis < 0 || t.axis >= (int)st.size()) return a;
      st[(size_t)t.axis] += t.stride;
    }
    if (c == 0) a.strides = st;
    else if (st != a.strides) return a;
    a.base.push_back(bases[(size_t)acc.tree] + acc.offset);
  }
  a.ok = true;
  return a;
}

bool affine_layout(Program& prog, const std::vector<FieldInfo*>& comps) { return affine_view(prog, comps).ok; }

void fill_elements(Program& prog, FieldInfo& f, uint64_t bits, size_t width, SourceLoc loc) {
  prog.materialize();
  FieldView v = affine_view(prog, {&f});
  if (!v.ok) {
    auto set = [&](void* p) { std::memcpy(p, &bits, width); };
    if (f.place && f.place->sparse && !f.quant) each_active_element(prog, f, set);
    else each_element(prog, f, loc, [&](void* p, const std::vector<int64_t>&) { set(p); });
    return;
  }
  for (auto n : f.shape)
    if (n == 0) return;
  // The outer axes in row-major order; the innermost one as a tight strided loop.
  size_t nd = f.shape.size();
  int64_t inner = nd ? f.shape[nd - 1] : 1, inner_stride = nd ? v.strides[nd - 1] : 0;
  std::vector<int64_t> outer(f.shape.begin(), nd ? f.shape.end() - 1 : f.shape.end());
  each_cell(outer, [&](const std::vector<int64_t>& idx, int64_t) {
    uint8_t* p = v.base[0];
    for (size_t d = 0; d < idx.size(); d++) p += idx[d] * v.strides[d];
    for (int64_t k = 0; k < inner; k++, p += inner_stride) std::memcpy(p, &bits, width);
  });
}

namespace {

// Byte offsets of a dense field's elements, tabulated per axis: the layout
// formula (ir::Access) is a sum over index terms, each of one axis, so
// element idx of component c is at base[c] + sum_d axis[c][d][idx[d]]. This
// covers layouts split over several dense levels (dense(ij, 4).dense(ij, 4)),
// whose terms divide and take remainders, at a few additions per element.
struct DenseTables {
  std::vector<uint8_t*> base;
  std::vector<std::vector<std::vector<int64_t>>> axis;
};

bool dense_tables(Program& prog, const std::vector<FieldInfo*>& comps, DenseTables& t) {
  auto bases = prog.tree_bases();
  for (const FieldInfo* f : comps) {
    if (!f->place || f->place->sparse || f->quant) return false;
    ir::Access acc = prog.access_of(*f);
    std::vector<std::vector<int64_t>> tab(f->shape.size());
    for (size_t d = 0; d < tab.size(); d++) tab[d].assign((size_t)f->shape[d], 0);
    for (auto& term : acc.terms) {
      if (term.axis < 0 || term.axis >= (int)tab.size() || term.div <= 0) return false;
      auto& col = tab[(size_t)term.axis];
      for (size_t i = 0; i < col.size(); i++) {
        int64_t v = (int64_t)i / term.div;
        if (term.mod) v %= term.mod;
        col[i] += v * term.stride;
      }
    }
    t.base.push_back(bases[(size_t)acc.tree] + acc.offset);
    t.axis.push_back(std::move(tab));
  }
  return true;
}

}  // namespace

void copy_components(Program& prog, const std::vector<FieldInfo*>& comps, uint8_t* out, int64_t isz, bool to_array,
                     SourceLoc loc) {
  const FieldInfo& f0 = *comps[0];
  int64_t nc = (int64_t)comps.size();
  int64_t cells = 1;
  for (auto n : f0.shape) cells *= n;
  if (f0.quant) {  // bit slices of words: element by element through the codec
    each_cell(f0, [&](const std::vector<int64_t>& idx, int64_t flat) {
      for (int64_t c = 0; c < nc; c++) {
        const FieldInfo& f = *comps[(size_t)c];
        uint8_t* q = out + (flat * nc + c) * isz;
        if (to_array) {
          uint64_t bits = const_to_bits(quant_get(prog, f, idx.data(), (int)idx.size(), loc));
          std::memcpy(q, &bits, (size_t)isz);
        } else {
          uint64_t bits = 0;
          std::memcpy(&bits, q, (size_t)isz);
          quant_set(prog, f, idx.data(), (int)idx.size(), const_from_bits(f.dtype, bits), loc);
        }
      }
    });
    return;
  }
  FieldView a = affine_view(prog, comps);
  if (a.ok) {
    // one memcpy when the field's bytes are exactly the array's C order
    bool packed = true;
    for (int64_t c = 0; c < nc && packed; c++) packed = a.base[(size_t)c] == a.base[0] + c * isz;
    int64_t expect = nc * isz;
    for (size_t d = f0.shape.size(); d-- > 0 && packed;) {
      if (f0.shape[d] != 1 && a.strides[d] != expect) packed = false;
      expect *= f0.shape[d];
    }
    if (packed) {
      size_t bytes = (size_t)(cells * nc * isz);
      if (to_array) stream_copy(out, a.base[0], bytes);
      else stream_copy(a.base[0], out, bytes);
      return;
    }
  }
  DenseTables t;
  if (dense_tables(prog, comps, t)) {
    size_t nd = f0.shape.size();
    each_cell(f0.shape, [&](const std::vector<int64_t>& idx, int64_t flat) {
      for (int64_t c = 0; c < nc; c++) {
        uint8_t* p = t.base[(size_t)c];
        for (size_t d = 0; d < nd; d++) p += t.axis[(size_t)c][d][(size_t)idx[d]];
        uint8_t* q = out + (flat * nc + c) * isz;
        if (to_array) std::memcpy(q, p, (size_t)isz);
        else std::memcpy(p, q, (size_t)isz);
      }
    });
    return;
  }
  each_cell(f0, [&](const std::vector<int64_t>& idx, int64_t flat) {
    for (int64_t c = 0; c < nc; c++) {
      const FieldInfo& f = *comps[(size_t)c];
      uint8_t* q = out + (flat * nc + c) * isz;
      if (to_array) std::memcpy(q, prog.element_read_address(f, idx.data(), (int)idx.size(), loc), (size_t)isz);
      else std::memcpy(prog.element_address(f, idx.data(), (int)idx.size(), loc), q, (size_t)isz);
    }
  });
}

}  // namespace kiln::ti
