// SNode naming and cell counts: the small, layout-independent parts of an SNode.
#include "vm/runtime/snode.h"

namespace kiln {

const char* snode_kind_name(SNodeKind k) {
  switch (k) {
    case SNodeKind::root: return "root";
    case SNodeKind::dense: return "dense";
    case SNodeKind::pointer: return "pointer";
    case SNodeKind::bitmasked: return "bitmasked";
    case SNodeKind::dynamic: return "dynamic";
    case SNodeKind::place: return "place";
  }
  return "?";
}

int64_t SNode::num_cells() const {
  // A place container holds one value and has no cells; count it as one so
  // that "containers * cells" arithmetic stays uniform for callers.
  if (kind == SNodeKind::place) return 1;
  int64_t n = 1;
  // Entries <= 0 are axes this level never touched (a default-constructed
  // extent array is all zeros); they count as "not split", i.e. 1.
  for (int64_t e : extent)
    if (e > 0) n *= e;
  return n;
}

std::vector<int64_t> SNode::shape() const {
  std::vector<int64_t> out;
  for (int p : physical_index_position) {
    int64_t n = 1;
    for (const SNode* s = this; s; s = s->parent) n *= s->extent[p] > 0 ? s->extent[p] : 1;
    out.push_back(n);
  }
  return out;
}

std::vector<int> SNode::physical_positions() const {
  std::vector<const SNode*> chain;
  for (const SNode* s = this; s; s = s->parent) chain.push_back(s);
  std::vector<int> order;  // axes by first appearance from the root down
  for (size_t k = chain.size(); k-- > 0;) {
    const SNode* s = chain[k];
    if (s->kind == SNodeKind::place || s->kind == SNodeKind::root) continue;
    for (int p = 0; p < kMaxIndices; p++) {
      bool listed = false;
      for (int q : order) listed |= q == p;
      bool here = false;
      for (int v : s->physical_index_position) here |= v == p;
      // an axis belongs to this level when it was not in the parent's set
      bool new_here = here;
      if (s->parent)
        for (int v : s->parent->physical_index_position) new_here &= v != p;
      if (new_here && !listed) order.push_back(p);
    }
  }
  std::vector<int> out;
  for (int a : physical_index_position) {
    int rank = 0;
    for (size_t r = 0; r < order.size(); r++)
      if (order[r] == a) rank = (int)r;
    out.push_back(rank);
  }
  return out;
}

std::string SNode::name() const {
  // Same spelling as Taichi's IR printer (seed 001): S<id><kind>, and places
  // carry their element type, e.g. "S3place<f32>".
  std::string s = "S" + std::to_string(id) + snode_kind_name(kind);
  if (kind == SNodeKind::place) {
    s += '<';
    s += prim_name(dtype);
    s += '>';
  }
  return s;
}


std::string FieldInfo::describe() const {
  const char* kind = ndarray_arg >= 0 ? "ndarray" : "field";
  return name.empty() ? std::string(kind) : std::string(kind) + " '" + name + "'";
}

std::string format_shape(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ',';  // a 1-tuple keeps its comma, as in Python
  return s + ")";
}

std::string bounds_message(const std::string& what, int axis, int64_t index, const std::vector<int64_t>& shape,
                           const std::vector<int64_t>& offset) {
  std::string s = "index " + std::to_string(index) + " is out of bounds for axis " + std::to_string(axis) + " of " +
                  what + " with shape " + format_shape(shape);
  if (offset.empty()) return s;
  int64_t lo = (size_t)axis < offset.size() ? offset[(size_t)axis] : 0;
  int64_t n = (size_t)axis < shape.size() ? shape[(size_t)axis] : 0;
  return s + " and offset " + format_shape(offset) + ": valid indices are " + std::to_string(lo) + " to " +
         std::to_string(lo + n - 1);
}

}  // namespace kiln
