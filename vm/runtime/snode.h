// SNode trees (seed 001): the description of where field data lives.
//
// A tree is built by the host (`ti.root.dense(ti.ij, (4, 8)).place(x)`, or
// implicitly by `ti.field(..., shape=...)`), then materialized: sizes and
// offsets are computed and one buffer is allocated for the whole tree. This
// issue needs root, dense and place; pointer/bitmasked/dynamic come later and
// will keep this shape (a container kind with per-axis extents).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vm/ir/ir.h"
#include "vm/types/type.h"

namespace kiln {

constexpr int kMaxIndices = 12;  // Taichi's taichi_max_num_indices

enum class SNodeKind : uint8_t { root, dense, pointer, bitmasked, dynamic, place };
const char* snode_kind_name(SNodeKind k);

struct SNode {
  int id = 0;                 // unique in the Program; printed as S<id>
  SNodeKind kind = SNodeKind::root;
  SNode* parent = nullptr;
  std::vector<std::unique_ptr<SNode>> children;  // the components of one cell, in order
  int tree = -1;              // which tree (root) this belongs to

  // Containers: extent of each physical axis at this level (1 where the level
  // does not split that axis), e.g. dense(ti.ij, (4, 8)) -> {4, 8, 1, ...}.
  std::array<int64_t, kMaxIndices> extent{};
  int num_axes = 0;           // physical axes used by this node and its ancestors

  // place: the element type and the field it holds
  Prim dtype = Prim::none;
  int field = -1;

  // Filled by materialize():
  int64_t cell_size = 0;       // bytes of one cell (sum of its components' containers, aligned)
  int64_t container_size = 0;  // bytes of one container = cells * cell_size (place: element size)
  int64_t offset_in_cell = 0;  // byte offset of this container inside its parent's cell
  int64_t num_cells() const;   // product of extents
  // physical_index_position[v] = which physical axis the v-th virtual index is.
  std::vector<int> physical_index_position;

  std::string name() const;    // "S3place<f32>", "S1dense", "S0root"
};

// A field: a place SNode plus what users see (name, shape, dtype).
struct FieldInfo {
  int id = 0;
  std::string name;            // user-visible; "" when unnamed (messages then say "field")
  Prim dtype = Prim::f32;
  std::vector<int64_t> shape;  // virtual shape; empty for 0-D fields (x[None])
  SNode* place = nullptr;
  SourceLoc loc;               // where it was created

  // "field 'x'", or just "field" when unnamed: how every message names it.
  std::string describe() const;
};

// A shape as Python prints a tuple: "()", "(8,)", "(8, 8)".
std::string format_shape(const std::vector<int64_t>& shape);

}  // namespace kiln
