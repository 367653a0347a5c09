// SNode trees (seed 001): the description of where field data lives.
//
// A tree is built by the host (`ti.root.dense(ti.ij, (4, 8)).place(x)`, or
// implicitly by `ti.field(..., shape=...)`), then materialized: sizes and
// offsets are computed and one buffer is allocated for the whole tree.
// Dense, bitmasked and root containers live inline in that buffer; a pointer
// container is an array of cell pointers whose cells come from the SNode's
// pool on activation, and a dynamic container is a length plus an array of
// chunk pointers (chunks of chunk_size cells, also pooled). See sparse.cpp.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vm/ir/ir.h"
#include "vm/types/quant.h"
#include "vm/types/type.h"

namespace kiln {

struct SNodePool;  // pool.h

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
  // physical_index_position[v] = which axis (ti.i = 0, ti.j = 1, ...) the
  // v-th virtual index is: the axes used down to here, in axis order.
  std::vector<int> physical_index_position;
  // Seed 001's x.snode.physical_index_position(): for each virtual index, its
  // rank in memory order (the order the axes first appear from the root down).
  std::vector<int> physical_positions() const;

  std::string name() const;    // "S3place<f32>", "S1dense", "S0root"
  // The virtual shape this SNode's index space has (snode.shape): per virtual
  // axis, the product of its physical axis's extents from the root down to here.
  std::vector<int64_t> shape() const;

  // ---- sparse SNodes (filled by materialize(); see sparse.cpp) ----
  int64_t chunk_size = 0;      // dynamic: cells per chunk
  // A quant_array (dense over one axis whose cells are bit slices of ONE
  // word of this many bits): its cells all sit at the word, cell_size 0.
  int quant_array_bits = 0;
  int64_t mask_offset = 0;     // bitmasked: byte offset of the activity bits in a container
  int64_t block_bytes = 0;     // pointer: bytes of one pooled cell; dynamic: of one chunk
  // below[p]: how many full-resolution indices along physical axis p one cell
  // of this SNode covers (the product of the extents under it, along the path
  // to its first place). A cell's first index is container_base + c * below.
  std::array<int64_t, kMaxIndices> below{};
  std::vector<int> split_axes;  // physical axes with extent > 1, in order
  // From the root's child down to this SNode: the levels whose cells an
  // index passes through, and each level's `below` along this SNode's path to
  // its first place (a place uses its own path). Indices of sparse lookups,
  // activation and list generation for this SNode decompose with these.
  std::vector<SNode*> path;
  std::vector<std::array<int64_t, kMaxIndices>> path_below;
  bool sparse = false;         // this SNode or an ancestor is pointer/bitmasked/dynamic
  bool has_sparse_below = false;  // some descendant (or this) is pointer/bitmasked/dynamic
  std::shared_ptr<SNodePool> pool;  // pointer and dynamic SNodes
  bool is_container() const { return kind != SNodeKind::place; }
};

// One entry of an SNode's list (list generation, seed 001): an active
// container and the full-resolution physical index of its first element.
struct ListElem {
  uint8_t* container = nullptr;
  std::array<int32_t, kMaxIndices> base{};
};

// A field: a place SNode plus what users see (name, shape, dtype).
struct FieldInfo {
  int id = 0;
  std::string name;            // user-visible; "" when unnamed (messages then say "field")
  Prim dtype = Prim::f32;
  std::vector<int64_t> shape;  // virtual shape; empty for 0-D fields (x[None])
  // Index of element 0 along each axis (`ti.field(..., offset=(-8, -8))`):
  // indices run over [offset, offset + shape). Empty when there is none.
  // Every user-facing index (kernel x[i], host x[i], struct-for) carries it;
  // storage (to_numpy, the layout) does not.
  std::vector<int64_t> offset;
  int64_t offset_at(size_t axis) const { return axis < offset.size() ? offset[axis] : 0; }
  SNode* place = nullptr;
  SourceLoc loc;               // where it was created
  // Quantized fields (vm/types/quant.h): the type from creation, and once
  // placed the bits of the shared word place SNode that are this field's.
  std::shared_ptr<QuantSlot> quant;
  bool is_word = false;        // the hidden u8..u64 field holding a bit-packed group
  // An ndarray kernel argument seen as a field while its kernel compiles
  // (the frontend's view; ir::Access::ext_arg): no SNode, shape unknown
  // (-1 per axis) until launch.
  int ndarray_arg = -1;
  int ndarray_comps = 1;
  int ndarray_comp = 0;
  // Autodiff companions (Program::companion): x.grad and x.dual, fields of the
  // same dtype that stay unplaced until needs_grad/needs_dual or lazy_grad
  // places them; `primal` is set on the companions themselves.
  FieldInfo* grad = nullptr;
  FieldInfo* dual = nullptr;
  FieldInfo* checkbit = nullptr;  // u8 per element for Tape(validation=True) (ensure_checkbits)
  FieldInfo* primal = nullptr;
  // On a companion asked for with needs_grad/needs_dual=True: a gradient
  // kernel that needs it while it is unplaced is an error (Taichi's), not a
  // silently dropped gradient as for companions merely looked at.
  bool required = false;

  // "field 'x'", or just "field" when unnamed: how every message names it.
  std::string describe() const;
};

// A shape as Python prints a tuple: "()", "(8,)", "(8, 8)".
std::string format_shape(const std::vector<int64_t>& shape);

// The IndexError text of an out-of-bounds index, shared by host access and
// every engine: "index 16 is out of bounds for axis 0 of field 'x' with shape
// (16,)", and with an offset also the valid range of that axis.
std::string bounds_message(const std::string& what, int axis, int64_t index, const std::vector<int64_t>& shape,
                           const std::vector<int64_t>& offset);

}  // namespace kiln
