// Copying field components to and from a C-order buffer (to_numpy,
// from_numpy, copy_from), for every host. The buffer has shape
// field.shape + (components,) in the fields' dtype: a vector field's
// components sit together, exactly as numpy's trailing axis.
//
// Dense fields copy at memory speed: when the SNode layout is an affine map
// of the index (no div/mod splits), the components' addresses are
// base + sum(index * stride), and when those match the buffer's C order the
// whole field is one memcpy; other dense layouts add per-axis tabulated
// offsets. Sparse fields go element by element (inactive
// cells read as zero; writing activates).
#pragma once
#include <cstdint>
#include <vector>

#include "vm/runtime/program.h"
#include "vm/runtime/sparse_cells.h"

namespace kiln::ti {

// to_buffer: fields -> data; else data -> fields. `itemsize` is the dtype's size.
void copy_components(Program& prog, const std::vector<FieldInfo*>& comps, uint8_t* data, int64_t itemsize,
                     bool to_buffer, SourceLoc loc);

// The components of a field as a strided view of memory, when the layout
// allows it (dense SNodes whose index terms need no div/mod): component c's
// element `idx` is at base[c] + sum(idx[d] * strides[d]).
struct FieldView {
  bool ok = false;
  std::vector<uint8_t*> base;    // per component
  std::vector<int64_t> strides;  // per field axis, bytes
};
FieldView affine_view(Program& prog, const std::vector<FieldInfo*>& comps);

// True when every component is dense with an affine layout (copy_components
// then writes every byte of the buffer without element-wise lookups).
bool affine_layout(Program& prog, const std::vector<FieldInfo*>& comps);

// x.fill(v) for every host: sets each element of f to the `width`-byte value
// at `bits`. A dense field with an affine layout is filled in strided loops
// over its memory; others element by element (under sparse SNodes the active
// ones, as Taichi's fill kernel; nothing is activated).
void fill_elements(Program& prog, FieldInfo& f, uint64_t bits, size_t width, SourceLoc loc);

// Calls fn(index, flat) for every cell of `shape` in row-major order.
template <class F> void each_cell(const std::vector<int64_t>& shape, F&& fn) {
  std::vector<int64_t> idx(shape.size(), 0);
  for (auto n : shape)
    if (n == 0) return;
  int64_t flat = 0;
  while (true) {
    fn(idx, flat++);
    int d = (int)idx.size() - 1;
    while (d >= 0 && ++idx[d] == shape[d]) idx[d--] = 0;
    if (d < 0) return;
  }
}

// The same over field f's cells, with the indices users write (its offsets
// added): what Program::element_address takes. `flat` still counts from 0,
// so a whole-field copy (to_numpy, printing) ignores the offsets, as Taichi.
template <class F> void each_cell(const FieldInfo& f, F&& fn) {
  std::vector<int64_t> user(f.shape.size());
  each_cell(f.shape, [&](const std::vector<int64_t>& idx, int64_t flat) {
    for (size_t a = 0; a < idx.size(); a++) user[a] = idx[a] + f.offset_at(a);
    fn(user, flat);
  });
}

// Calls fn(address) for every element of f in row-major index order. Under
// sparse SNodes only active elements are visited (as a struct-for would:
// fill() never activates) unless `all`, when inactive ones read as zeros;
// nothing is activated.
template <class F> void each_element(Program& prog, const FieldInfo& f, SourceLoc loc, F&& fn, bool all = false) {
  std::vector<int64_t> idx(f.shape.size(), 0);
  for (auto n : f.shape)
    if (n == 0) return;
  prog.materialize();
  bool sparse = f.place && f.place->sparse;
  std::vector<int64_t> user(idx.size());  // element_address takes the offset indices
  while (true) {
    for (size_t a = 0; a < idx.size(); a++) user[a] = idx[a] + f.offset_at(a);
    if (!sparse) fn(prog.element_address(f, user.data(), (int)user.size(), loc), idx);
    else if (all || prog.snode_op(Program::SNodeOp::is_active, f.place->id, idx.data()))
      fn(prog.sparse_element(f.place->id, idx.data(), false), idx);
    int d = (int)idx.size() - 1;
    while (d >= 0 && ++idx[d] == f.shape[d]) idx[d--] = 0;
    if (d < 0) return;
  }
}

// Calls fn(address) for every element of sparse field f that a struct-for
// over f visits (the active ones; nothing is activated), container by
// container in list order. What fill() and clear_all_gradients need: they
// touch the active elements and no index, and each_element's walk over every
// index of the shape (a lookup per index, active or not) made a fill of a
// 256^3 pointer grid cost 0.3 s however few blocks were active (Taichi's
// mgpcg example: 55% of its run in fills). Lists are built as a struct-for's
// listgen builds them, on the calling thread's program; kernels rebuild
// their own at each launch.
template <class F> void each_active_element(Program& prog, const FieldInfo& f, F&& fn) {
  prog.materialize();
  const SNode* leaf = f.place->parent;
  const int64_t at = f.place->offset_in_cell;
  for (const ListElem& le : prog.build_lists(leaf))
    sparse::for_each_active_cell(*leaf, le.container, [&](int64_t, uint8_t* cell) { fn(cell + at); });
}

}  // namespace kiln::ti
