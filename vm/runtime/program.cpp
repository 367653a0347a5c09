// Program: building SNode trees and fields from host code. Layout and
// allocation live in layout.cpp; this file only records the tree's shape and
// rejects bad input early, where the user's source location is still known.
#include "vm/runtime/program.h"


#include <algorithm>
#include <cstdio>

#include "vm/runtime/sizes.h"
#include "vm/runtime/tree_memory.h"

namespace kiln {

namespace {

// Physical axis names as users write them (ti.i, ti.j, ...); the rest only
// exist through ti.axes(n), so they are named by number.
std::string axis_name(int axis) {
  static const char* names[] = {"ti.i", "ti.j", "ti.k", "ti.l"};
  if (axis >= 0 && axis < 4) return names[axis];
  return "axis " + std::to_string(axis);
}

SNodeTree& tree_of(Program& p, const SNode* s) { return *p.trees.at(s->tree); }

// New SNodes start as "splits nothing": every extent 1, so a level that does
// not mention an axis contributes a factor of 1 to that axis's shape.
std::unique_ptr<SNode> blank_snode(Program& p, SNodeKind kind, SNode* parent) {
  auto s = std::make_unique<SNode>();
  s->id = p.next_snode_id++;
  s->kind = kind;
  s->parent = parent;
  s->extent.fill(1);
  if (parent) {
    s->tree = parent->tree;
    s->physical_index_position = parent->physical_index_position;
    s->num_axes = parent->num_axes;
  }
  return s;
}

// How many cells of `parent` share one allocation with a container placed
// under it: the tree's buffer holds every dense and bitmasked level inline
// down to the first pointer or dynamic level, whose pooled blocks each hold
// one cell (pointer) or one chunk (dynamic). -1 when the count overflows.
int64_t cells_per_allocation(const SNode* parent) {
  if (!parent || parent->kind == SNodeKind::root || parent->kind == SNodeKind::pointer) return 1;
  if (parent->kind == SNodeKind::dynamic) return parent->chunk_size;
  int64_t above = cells_per_allocation(parent->parent), n = parent->num_cells(), r;
  if (above < 0 || n < 0 || __builtin_mul_overflow(n, above, &r)) return -1;
  return r;
}

// Bytes that `cells` cells of `each` bytes need, -1 when that overflows.
int64_t bytes_of(int64_t cells, int64_t each) {
  int64_t r;
  if (cells < 0 || __builtin_mul_overflow(cells, each, &r)) return -1;
  return r;
}

}  // namespace

Program::Program(Config cfg) : config(std::move(cfg)) {
  pool = std::make_unique<ThreadPool>(config.num_threads);
  // Callers batch kernel output and flush at kernel end; the default sink just
  // writes what it is given.
  out = [](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); };
}

Program::~Program() {
  // Engines may hold compiled code that refers to tree memory: drop them first.
  engine.reset();
  pool.reset();
  for (auto& t : trees) {
    if (t->alloc_bytes) {
      if (t->memory) config.alloc_hooks.dealloc(config.alloc_hooks.user, t->memory, t->alloc_bytes);
    } else {
      free_tree_memory(t->memory);
    }
    t->memory = nullptr;
  }
}

SNode* Program::open_root() {
  // Taichi starts a fresh tree once the current one is materialized, so fields
  // declared after the first kernel launch still work.
  if (trees.empty() || trees.back()->materialized) {
    auto t = std::make_unique<SNodeTree>();
    t->root = blank_snode(*this, SNodeKind::root, nullptr);
    t->root->tree = (int)trees.size();
    trees.push_back(std::move(t));
  }
  return trees.back()->root.get();
}

SNode* Program::add_container(SNode* parent, SNodeKind kind, const std::vector<int>& axes,
                              const std::vector<int64_t>& sizes, SourceLoc loc, int64_t chunk_size) {
  if (kind == SNodeKind::root || kind == SNodeKind::place)
    raise("TypeError", std::string("cannot add a ") + snode_kind_name(kind) +
                           " SNode as a container", loc);
  if (!parent) raise("RuntimeError", "SNode has no parent", loc);
  if (parent->kind == SNodeKind::place)
    raise("TypeError", "cannot add children to " + parent->name() + ": place SNodes are leaves",
          loc);
  if (tree_of(*this, parent).materialized)
    raise("RuntimeError",
          "cannot add SNodes under " + parent->name() +
              ": its tree is already materialized (a kernel ran or a field was accessed)",
          loc);
  std::string kname = snode_kind_name(kind);
  if (axes.empty()) raise("TypeError", "a " + kname + " SNode needs at least one axis", loc);
  if (axes.size() != sizes.size())
    raise("TypeError", kname + " SNode over " + std::to_string(axes.size()) + " axes was given " +
                           std::to_string(sizes.size()) + " sizes",
          loc);
  if (kind == SNodeKind::dynamic && axes.size() != 1)
    raise("ValueError", "a dynamic SNode has exactly one axis, got " + std::to_string(axes.size()), loc);

  // Validate everything before taking an SNode id, so that a rejected call
  // (the REPL carries on after it) leaves no gap in the S<id> numbering.
  // extent starts at 1 everywhere, so "already set" needs its own record.
  bool seen[kMaxIndices] = {};
  for (size_t i = 0; i < axes.size(); ++i) {
    int a = axes[i];
    if (a < 0 || a >= kMaxIndices)
      raise("ValueError", "axis " + std::to_string(a) + " is out of range (at most " +
                              std::to_string(kMaxIndices) + " axes)",
            loc);
    if (seen[a]) raise("ValueError", axis_name(a) + " appears twice in one SNode", loc);
    check_extent(sizes[i], "the size of " + axis_name(a), loc);
    // Levels that split one axis compose into one index: its whole length
    // must still be indexable.
    int64_t whole = sizes[i];
    for (const SNode* q = parent; q; q = q->parent)
      if (__builtin_mul_overflow(whole, q->extent[a], &whole)) whole = INT64_MAX;
    if (whole > kMaxExtent)
      raise("ValueError", axis_name(a) + " spans " + (whole == INT64_MAX ? "more than " + std::to_string(INT64_MAX) : std::to_string(whole)) +
                              " indices over its SNode levels, more than " + std::to_string(kMaxExtent) +
                              " (indices are 32-bit)",
            loc);
    seen[a] = true;
  }
  // chunk_size 0: the whole extent in one chunk.
  if (kind == SNodeKind::dynamic && chunk_size != 0) check_extent(chunk_size, "the chunk_size of a dynamic SNode", loc);
  // Refuse now what could never be allocated, at the call that asked for it:
  // a pointer's or a dynamic's own array (eight bytes a cell or chunk), and
  // any count of cells in one allocation that overflows. Dense and bitmasked
  // cells are sized by what is placed in them: place() checks those bytes.
  int64_t cells = 1;
  for (int64_t n : sizes)
    if (cells >= 0 && __builtin_mul_overflow(cells, n, &cells)) cells = -1;
  if (kind == SNodeKind::dynamic) {  // inline: a length and a pointer per chunk
    int64_t chunk = std::min(chunk_size > 0 ? chunk_size : sizes[0], sizes[0]);
    cells = (sizes[0] + chunk - 1) / chunk + 1;
  }
  int64_t per = cells_per_allocation(parent);
  bool own_array = kind == SNodeKind::pointer || kind == SNodeKind::dynamic;
  int64_t bytes = bytes_of(per < 0 ? -1 : bytes_of(cells, per), own_array ? 8 : 1);
  if (own_array || bytes < 0) check_memory(bytes, loc);
  auto s = blank_snode(*this, kind, parent);
  for (size_t i = 0; i < axes.size(); ++i) s->extent[axes[i]] = sizes[i];
  if (kind == SNodeKind::dynamic) s->chunk_size = std::min(chunk_size > 0 ? chunk_size : sizes[0], sizes[0]);

  // Virtual indices are the axes themselves in axis order, as in Taichi:
  // ti.root.dense(ti.j, 32).dense(ti.i, 16) is a column-major (16, 32) field
  // indexed b[i, j]. The order levels appear in is the memory order, which
  // physical_positions() reports (seed 001's {0: 1, 1: 0} for that field).
  for (int a = 0; a < kMaxIndices; ++a) {
    if (!seen[a]) continue;
    bool known = false;
    for (int p : s->physical_index_position) known |= (p == a);
    if (!known) s->physical_index_position.push_back(a);
  }
  std::sort(s->physical_index_position.begin(), s->physical_index_position.end());
  s->num_axes = (int)s->physical_index_position.size();
  parent->children.push_back(std::move(s));
  return parent->children.back().get();
}

FieldInfo* Program::create_field(Prim dtype, std::string name, SourceLoc loc) {
  if (dtype == Prim::none || prim_bits(dtype) <= 0)
    raise("TypeError", "a field's dtype must be a primitive type", loc);
  auto f = std::make_unique<FieldInfo>();
  f->id = (int)fields.size();
  f->name = std::move(name);
  f->dtype = dtype;
  f->loc = loc;
  fields.push_back(std::move(f));
  return fields.back().get();
}

FieldInfo* Program::companion(FieldInfo* f, bool dual) {
  FieldInfo*& c = dual ? f->dual : f->grad;
  if (c || !prim_is_float(f->dtype) || f->primal) return c;
  std::string name = f->name.empty() ? "" : f->name + (dual ? ".dual" : ".grad");
  c = create_field(f->dtype, name, f->loc);
  c->primal = f;
  return c;
}

void Program::lazy_companions(SNode* s, bool dual, SourceLoc loc) {
  if (!s) return;
  std::vector<SNode*> places;
  std::vector<SNode*> todo{s};
  while (!todo.empty()) {
    SNode* n = todo.back();
    todo.pop_back();
    if (n->kind == SNodeKind::place) places.push_back(n);
    for (auto& c : n->children) todo.push_back(c.get());
  }
  for (SNode* p : places) {
    if (p->field < 0) continue;
    FieldInfo* f = fields[(size_t)p->field].get();
    if (f->primal || !prim_is_float(f->dtype)) continue;
    FieldInfo* c = companion(f, dual);
    if (c && !c->place) {
      place(p->parent, c, loc, f->offset);
    }
  }
}

void Program::ensure_checkbits() {
  size_t n = fields.size();  // the checkbits made here are not visited
  for (size_t i = 0; i < n; i++) {
    FieldInfo* f = fields[i].get();
    if (f->primal || f->checkbit || !f->grad || !f->grad->place) continue;
    std::string name = (f->name.empty() ? std::string("field") : f->name) + ".grad_checkbit";
    f->checkbit = create_dense_field(Prim::u8, f->shape, name, f->loc, f->offset);
    f = fields[i].get();
    f->checkbit->primal = f;
  }
  materialize();
}

void check_offset(const std::vector<int64_t>* shape, const std::vector<int64_t>& offset, SourceLoc loc) {
  if (offset.empty()) return;
  if (!shape) raise("TaichiCompilationError", "shape cannot be None when offset is set", loc);
  if (offset.size() != shape->size())
    raise("TaichiCompilationError", "The dimensionality of shape and offset must be the same (" +
                                        std::to_string(shape->size()) + " != " + std::to_string(offset.size()) + ")",
          loc);
  for (size_t a = 0; a < offset.size(); a++) {
    int64_t last;
    // Kernels index in i32: the whole range [offset, offset + shape) must fit.
    if (__builtin_add_overflow(offset[a], (*shape)[a] - 1, &last) || offset[a] < INT32_MIN || last > INT32_MAX)
      raise("ValueError", "offset " + format_shape(offset) + " puts indices outside the 32-bit range", loc);
  }
}

void Program::set_offset(FieldInfo* f, const std::vector<int64_t>& offset, SourceLoc loc) {
  check_offset(f->place ? &f->shape : nullptr, offset, loc);
  f->offset = offset;
}

SNode* Program::place(SNode* parent, FieldInfo* f, SourceLoc loc, const std::vector<int64_t>& offset) {
  if (!parent || !f) raise("RuntimeError", "place() needs an SNode and a field", loc);
  if (f->place)
    raise("RuntimeError", f->describe() + " is already placed at " + f->place->name(), loc);
  if (parent->kind == SNodeKind::place)
    raise("TypeError", "cannot place " + f->describe() + " under " + parent->name() +
                           ": place SNodes are leaves",
          loc);
  if (tree_of(*this, parent).materialized)
    raise("RuntimeError",
          "cannot place " + f->describe() + " under " + parent->name() +
              ": its tree is already materialized (a kernel ran or a field was accessed)",
          loc);

  if (f->quant && !f->is_word) {
    if (parent->quant_array_bits) return place_in_quant_array(*this, parent, f, loc);
    raise("TypeError", f->describe() + " has a quantized type (" + f->quant->type.describe() +
                           "): place it through ti.BitpackedFields or ti.root.quant_array(...)", loc);
  }
  if (parent->quant_array_bits && !f->is_word)
    raise("TypeError", "a quant_array holds one field of a quantized type, not " + f->describe() + " of " +
                           std::string(prim_name(f->dtype)), loc);
  auto s = blank_snode(*this, SNodeKind::place, parent);
  s->dtype = f->dtype;
  s->field = f->id;
  // shape[v] multiplies the extents of physical axis pip[v] over every level
  // above the place: nested splits of one axis compose into one dimension.
  f->shape.assign(s->physical_index_position.size(), 1);
  for (const SNode* a = parent; a; a = a->parent)
    for (size_t v = 0; v < f->shape.size(); ++v)
      if (__builtin_mul_overflow(f->shape[v], a->extent[s->physical_index_position[v]],
                                 &f->shape[v]))
        raise("ValueError", f->describe() + " is too large", loc);
  // Its elements in one allocation: the tree's buffer, or one pooled block.
  int64_t per = cells_per_allocation(parent);
  check_memory(bytes_of(per, std::max(1, prim_bits(f->dtype) / 8)), loc);
  // The offset is checked before the place exists: a bad one leaves nothing.
  check_offset(&f->shape, offset, loc);
  f->offset = offset;
  f->place = s.get();
  parent->children.push_back(std::move(s));
  return f->place;
}

FieldInfo* Program::create_dense_field(Prim dtype, const std::vector<int64_t>& shape,
                                       std::string name, SourceLoc loc, const std::vector<int64_t>& offset) {
  // Before anything is created, so a bad offset leaves no half-built field.
  check_offset(&shape, offset, loc);
  // Check sizes before the field exists: a half-built field left behind
  // would later fail materialize() as "declared but never placed".
  check_dense(shape, std::max(1, prim_bits(dtype) / 8), "field", loc);
  FieldInfo* f = create_field(dtype, std::move(name), loc);
  SNode* parent = open_root();
  // shape=() places the scalar straight under the root: no dense level at all.
  if (!shape.empty()) {
    std::vector<int> axes(shape.size());
    for (size_t i = 0; i < axes.size(); ++i) axes[i] = (int)i;
    parent = add_container(parent, SNodeKind::dense, axes, shape, loc);
  }
  place(parent, f, loc, offset);
  return f;
}

FieldInfo* Program::create_layout_field(Prim dtype, const std::vector<std::pair<int, int64_t>>& levels,
                                       std::string name, SourceLoc loc) {
  for (auto& [axis, n] : levels) {
    if (axis < 0 || axis >= kMaxIndices) raise("ValueError", "a layout has at most 12 dimensions", loc);
    check_extent(n, "a layout size", loc);
  }
  std::vector<int64_t> shape(kMaxIndices, 1);
  for (auto& [axis, n] : levels)
    if (__builtin_mul_overflow(shape[axis], n, &shape[axis])) shape[axis] = INT64_MAX;
  while (shape.size() > 1 && shape.back() == 1) shape.pop_back();
  check_dense(shape, std::max(1, prim_bits(dtype) / 8), "field", loc);
  FieldInfo* f = create_field(dtype, std::move(name), loc);
  SNode* parent = open_root();
  for (auto& [axis, n] : levels) parent = add_container(parent, SNodeKind::dense, {axis}, {n}, loc);
  place(parent, f, loc);
  return f;
}

std::vector<uint8_t*> Program::tree_bases() {
  std::vector<uint8_t*> bases;
  tree_bases(bases);
  return bases;
}

void Program::tree_bases(std::vector<uint8_t*>& out) const {
  out.clear();
  out.reserve(trees.size());
  for (auto& t : trees) out.push_back(t->memory);
}

}  // namespace kiln
