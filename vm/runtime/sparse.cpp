// Sparse SNodes: activation, lookup, deactivation and list generation.
//
// Containers (layout.cpp sizes them):
//   dense / root  cells inline, always active
//   bitmasked     cells inline + one activity bit per cell (set with fetch_or)
//   pointer       one pointer per cell; a cell (all its components) is a pool
//                 block, installed with compare-and-swap: a thread that loses
//                 the race returns its block and uses the winner's
//   dynamic       an int64 length + one pointer per chunk of chunk_size cells;
//                 cells below the length are active
// An index walks the levels of an SNode's path from the root; at each level
// the cell is ((phys / below) % extent) row-major over the level's axes.
// Deactivation releases everything inside the cell (pool blocks go back
// zeroed), so reactivated memory reads 0.
#include <algorithm>
#include <cstring>
#include <thread>

#include "vm/runtime/append.h"
#include "vm/runtime/program.h"
#include "vm/runtime/sparse_cells.h"

namespace kiln {

using namespace sparse;

namespace {

alignas(64) const uint8_t kZeros[64] = {};

void release_container(Program& prog, const SNode& s, uint8_t* c);

// Releases what the cell's components hold (their pooled blocks), then zeroes it.
void release_cell(Program& prog, const SNode& s, uint8_t* cell) {
  for (auto& ch : s.children)
    if (ch->has_sparse_below) release_container(prog, *ch, cell + ch->offset_in_cell);
  std::memset(cell, 0, (size_t)s.cell_size);
}

// Deactivates every cell of container c and zeroes it.
void release_container(Program& prog, const SNode& s, uint8_t* c) {
  prog.activity_changed();
  switch (s.kind) {
    case SNodeKind::pointer:
      for (int64_t i = 0; i < s.num_cells(); i++) {
        uint8_t* p = slot_at(c + i * 8)->exchange(nullptr, std::memory_order_acq_rel);
        if (!p) continue;
        for (auto& ch : s.children)
          if (ch->has_sparse_below) release_container(prog, *ch, p + ch->offset_in_cell);
        s.pool->release(p);
        prog.n_deactivations.fetch_add(1, std::memory_order_relaxed);
      }
      return;
    case SNodeKind::dynamic: {
      int64_t chunks = (s.num_cells() + s.chunk_size - 1) / s.chunk_size;
      int64_t len = std::min(length_at(c)->load(), s.num_cells());
      for (int64_t k = 0; k < chunks; k++) {
        uint8_t* chunk = slot_at(c + 8 + k * 8)->exchange(nullptr, std::memory_order_acq_rel);
        if (!chunk) continue;
        for (int64_t i = 0; i < s.chunk_size && k * s.chunk_size + i < len; i++)
          for (auto& ch : s.children)
            if (ch->has_sparse_below) release_container(prog, *ch, chunk + i * s.cell_size + ch->offset_in_cell);
        s.pool->release(chunk);
      }
      if (len > 0) prog.n_deactivations.fetch_add(1, std::memory_order_relaxed);
      length_at(c)->store(0, std::memory_order_release);
      return;
    }
    case SNodeKind::bitmasked:
      for_each_active_cell(s, c, [&](int64_t, uint8_t* cell) { release_cell(prog, s, cell); });
      std::memset(c + s.mask_offset, 0, (size_t)(s.container_size - s.mask_offset));
      return;
    default:
      // Dense cells stay (their plain data is not sparse state); only what
      // their sparse components hold goes.
      if (s.kind == SNodeKind::place) return;
      for (int64_t i = 0; i < s.num_cells(); i++)
        for (auto& ch : s.children)
          if (ch->has_sparse_below) release_container(prog, *ch, c + i * s.cell_size + ch->offset_in_cell);
      return;
  }
}

bool cell_active(const SNode& s, uint8_t* c, int64_t cell) {
  switch (s.kind) {
    case SNodeKind::pointer: return slot_at(c + cell * 8)->load(std::memory_order_acquire) != nullptr;
    case SNodeKind::bitmasked:
      return (mask_word(s, c, cell)->load(std::memory_order_acquire) >> (cell & 63)) & 1;
    case SNodeKind::dynamic: return cell < length_at(c)->load(std::memory_order_acquire);
    default: return true;
  }
}

// A slot's block. Native code allocating from a device pool claims an empty
// slot with 1 before it stores the block (jit/llvm/lower_pools.cpp): the
// runtime, sharing the pool, waits for that block.
uint8_t* settled(Slot* slot) {
  uint8_t* p = slot->load(std::memory_order_acquire);
  while (p == reinterpret_cast<uint8_t*>(1)) {
    std::this_thread::yield();
    p = slot->load(std::memory_order_acquire);
  }
  return p;
}

// The block of pointer or chunk slot `slot`, allocated (compare-and-swap) if missing.
uint8_t* ensure_block(Program& prog, const SNode& s, Slot* slot) {
  uint8_t* p = settled(slot);
  if (p) return p;
  uint8_t* fresh = static_cast<uint8_t*>(s.pool->alloc());
  if (slot->compare_exchange_strong(p, fresh, std::memory_order_acq_rel, std::memory_order_acquire)) {
    prog.n_activations.fetch_add(1, std::memory_order_relaxed);
    prog.activity_changed();
    return fresh;
  }
  s.pool->release(fresh);  // another thread activated it first: use its block
  return settled(slot);
}

// Chunk k of dynamic container c, allocated if missing.
uint8_t* ensure_chunk(Program& prog, const SNode& s, uint8_t* c, int64_t k) {
  return ensure_block(prog, s, slot_at(c + 8 + k * 8));
}

// The address of cell `cell` of container c of s, activating it when asked;
// null when it is inactive and `activate` is false.
uint8_t* enter_cell(Program& prog, const SNode& s, uint8_t* c, int64_t cell, bool activate) {
  switch (s.kind) {
    case SNodeKind::pointer: {
      Slot* slot = slot_at(c + cell * 8);
      return activate ? ensure_block(prog, s, slot) : settled(slot);
    }
    case SNodeKind::bitmasked: {
      uint64_t bit = 1ull << (cell & 63);
      auto* w = mask_word(s, c, cell);
      if (!(w->load(std::memory_order_acquire) & bit)) {
        if (!activate) return nullptr;
        if (!(w->fetch_or(bit, std::memory_order_acq_rel) & bit)) {
          prog.n_activations.fetch_add(1, std::memory_order_relaxed);
          prog.activity_changed();
        }
      }
      return c + cell * s.cell_size;
    }
    case SNodeKind::dynamic: {
      auto* len = length_at(c);
      int64_t l = len->load(std::memory_order_acquire);
      int64_t last_chunk = quot(cell, s.chunk_size), first_chunk = last_chunk;
      if (cell >= l) {
        if (!activate) return nullptr;
        // Writing index k extends the list to k + 1 (never shrinks it); every
        // cell below the length is active, so their chunks must exist too.
        first_chunk = quot(l, s.chunk_size);
        while (l <= cell && !len->compare_exchange_weak(l, cell + 1, std::memory_order_acq_rel)) {
        }
      }
      uint8_t* chunk = nullptr;
      for (int64_t k = first_chunk; k <= last_chunk; k++) chunk = ensure_chunk(prog, s, c, k);
      return chunk + rem(cell, s.chunk_size) * s.cell_size;
    }
    default: return c + cell * s.cell_size;
  }
}

// Only the axes of s's index space are written: every level on s's path
// splits only those (physical_index_position holds its ancestors' axes), so
// lookups read no others. (Zeroing all kMaxIndices was a `rep stos` costing
// more than the rest of a ti.append.)
inline void to_physical(const SNode& s, const int64_t* idx, int64_t* phys) {
  for (size_t v = 0; v < s.physical_index_position.size(); v++) phys[s.physical_index_position[v]] = idx[v];
}

// The first place under s, depth first (null when there is none).
const SNode* first_place(const SNode& s) {
  if (s.kind == SNodeKind::place) return &s;
  for (auto& c : s.children)
    if (const SNode* p = first_place(*c)) return p;
  return nullptr;
}

void prepare(Program& prog, SNode& s, bool sparse_above) {
  if ((size_t)s.id >= prog.snode_by_id.size()) prog.snode_by_id.resize(s.id + 1, nullptr);
  prog.snode_by_id[s.id] = &s;
  bool self_sparse = s.kind == SNodeKind::pointer || s.kind == SNodeKind::bitmasked || s.kind == SNodeKind::dynamic;
  s.sparse = sparse_above || self_sparse;
  s.has_sparse_below = self_sparse;
  s.split_axes.clear();
  for (int p = 0; p < kMaxIndices; p++)
    if (s.extent[p] > 1 && s.kind != SNodeKind::place) s.split_axes.push_back(p);
  for (auto& c : s.children) {
    prepare(prog, *c, s.sparse);
    s.has_sparse_below |= c->has_sparse_below;
  }
  // The path from the root's child to s, and each level's `below` along the
  // way to s's first place (s itself when it is a place).
  s.path.clear();
  for (SNode* a = &s; a && a->kind != SNodeKind::root; a = a->parent) s.path.push_back(a);
  std::reverse(s.path.begin(), s.path.end());
  const SNode* leaf = first_place(s);
  std::array<int64_t, kMaxIndices> run;
  run.fill(1);
  // Extents strictly below s on the way to the leaf.
  if (leaf && leaf != &s)
    for (const SNode* a = leaf->parent; a && a != &s; a = a->parent)
      for (int p = 0; p < kMaxIndices; p++) run[p] *= a->extent[p];
  s.path_below.assign(s.path.size(), run);
  for (size_t l = s.path.size(); l-- > 0;) {
    s.path_below[l] = run;
    for (int p = 0; p < kMaxIndices; p++) run[p] *= s.path[l]->extent[p];
  }
  if (s.kind == SNodeKind::root) s.below.fill(1);
  else s.below = s.path_below.back();
  if (s.kind == SNodeKind::pointer || s.kind == SNodeKind::dynamic)
    if (!s.pool) s.pool = std::make_shared<SNodePool>((size_t)s.block_bytes, 16);
}

}  // namespace

void Program::prepare_sparse(SNodeTree& t) { prepare(*this, *t.root, false); }

SNode* Program::snode(int id) const {
  if (id < 0 || (size_t)id >= snode_by_id.size() || !snode_by_id[id])
    raise("InternalError", "SNode S" + std::to_string(id) + " is not materialized");
  return snode_by_id[id];
}

uint8_t* Program::locate(const SNode* target, const int64_t* phys, bool activate) {
  uint8_t* c = trees[target->tree]->memory;
  if (!c) return nullptr;
  // Level l's container is at c; step into the cell and on to level l+1's container.
  for (size_t l = 0; l < target->path.size(); l++) {
    const SNode* s = target->path[l];
    c += s->offset_in_cell;
    if (l + 1 == target->path.size()) break;
    c = enter_cell(*this, *s, c, cell_of(*s, target->path_below[l], phys), activate);
    if (!c) return nullptr;
  }
  return c;
}

void* Program::sparse_element(int place_id, const int64_t* idx, bool activate) {
  const SNode* place = snode(place_id);
  int64_t phys[kMaxIndices];
  to_physical(*place, idx, phys);
  uint8_t* p = locate(place, phys, activate);
  return p ? p : const_cast<uint8_t*>(kZeros);
}

int64_t Program::snode_op(SNodeOp op, int snode_id, const int64_t* idx) {
  const SNode* s = snode(snode_id);
  // Indices are the SNode's own coordinates (Taichi's sparse docs: a 3x3
  // pointer takes [0..2, 0..2] whatever lies under it). Indices wrap inside a
  // level's cells, but a negative one would not: check them all, as field
  // accesses do. (append and length ignore the dynamic axis.)
  // (The extents multiply in place: ti.append runs this per element, and
  // s->shape() would allocate each time.)
  // To the full resolution the lookups decompose: the first element of the
  // cell (phys[p] = idx[v] * below[p] for p = physical_index_position[v];
  // no other axis is read, see to_physical).
  int64_t phys[kMaxIndices];
  for (size_t v = 0; v < s->physical_index_position.size(); v++) {
    int p = s->physical_index_position[v];
    int64_t n = 1;
    for (const SNode* a = s; a; a = a->parent) n *= a->extent[p] > 0 ? a->extent[p] : 1;
    if (idx[v] < 0 || idx[v] >= n)
      raise("IndexError", "index " + std::to_string(idx[v]) + " is out of bounds for axis " + std::to_string(v) +
                              " of SNode " + s->name() + " with shape " + format_shape(s->shape()));
    phys[p] = idx[v] * s->below[p];
  }
  const std::array<int64_t, kMaxIndices>& below = s->path_below.back();
  switch (op) {
    case SNodeOp::activate: {
      uint8_t* c = locate(s, phys, true);
      if (c && s->kind != SNodeKind::place) enter_cell(*this, *s, c, cell_of(*s, below, phys), true);
      return 0;
    }
    case SNodeOp::is_active: {
      uint8_t* c = locate(s, phys, false);
      if (!c) return 0;
      return s->kind == SNodeKind::place ? 1 : cell_active(*s, c, cell_of(*s, below, phys));
    }
    case SNodeOp::deactivate: {
      uint8_t* c = locate(s, phys, false);
      if (!c) return 0;
      if (s->kind == SNodeKind::dynamic) {  // a dynamic list is deactivated whole
        release_container(*this, *s, c);
        return 0;
      }
      int64_t cell = cell_of(*s, below, phys);
      if (s->kind == SNodeKind::pointer) {
        uint8_t* p = slot_at(c + cell * 8)->exchange(nullptr, std::memory_order_acq_rel);
        if (!p) return 0;
        for (auto& ch : s->children)
          if (ch->has_sparse_below) release_container(*this, *ch, p + ch->offset_in_cell);
        s->pool->release(p);
        n_deactivations.fetch_add(1, std::memory_order_relaxed);
        activity_changed();
      } else if (s->kind == SNodeKind::bitmasked) {
        uint64_t bit = 1ull << (cell & 63);
        if (mask_word(*s, c, cell)->fetch_and(~bit, std::memory_order_acq_rel) & bit) {
          release_cell(*this, *s, c + cell * s->cell_size);
          n_deactivations.fetch_add(1, std::memory_order_relaxed);
          activity_changed();
        }
      }
      return 0;
    }
    case SNodeOp::length: {
      uint8_t* c = locate(s, phys, false);
      return c ? std::min(length_at(c)->load(std::memory_order_acquire), s->num_cells()) : 0;
    }
    case SNodeOp::append: return append_in(*this, *s, locate(s, phys, true), s->num_cells());
  }
  return 0;
}

int64_t append_in(Program& prog, const SNode& s, uint8_t* c, int64_t cap) {
  int64_t l = length_at(c)->fetch_add(1, std::memory_order_acq_rel);
  if (l >= cap) return cap;
  append_chunk(prog, s, c, l);
  return l;
}

void append_chunk(Program& prog, const SNode& s, uint8_t* c, int64_t cell) {
  ensure_chunk(prog, s, c, quot(cell, s.chunk_size));  // the length already covers the new cell
}

void Program::deactivate_all(SNode* s) {
  materialize();
  if (s->kind == SNodeKind::root) {
    for (auto& ch : s->children)
      if (ch->has_sparse_below) deactivate_all(ch.get());
    return;
  }
  if (!s->has_sparse_below) return;  // Taichi: nothing is sparse here, nothing to deactivate
  std::vector<ListElem> elems = build_lists(s);  // (a copy: releases edit the lists)
  for (auto& e : elems) release_container(*this, *s, e.container);
  lists[s].clear();
}

void Program::deactivate_all_snodes() {
  materialize();
  for (auto& t : trees)
    if (t->materialized) deactivate_all(t->root.get());
}

namespace {

// Whether list `level` of target's path holds the same containers at every
// launch: every SNode between the root and that level is dense, so no
// activity decides which containers exist (a bitmasked leaf's containers
// under dense blocks: sparse_particles' 2048). Such a list is kept from one
// launch to the next; listgen checks it still matches its parent list.
bool fixed_list(const SNode* target, int level) {
  for (int k = 1; k < level; k++)
    if (target->path[k]->kind != SNodeKind::dense) return false;
  return level > 0;
}

}  // namespace

void Program::clear_list(const SNode* target, int level) {
  if (!fixed_list(target, level)) lists[target->path.at(level)].clear();
}

const std::vector<ListElem>& Program::list_of(const SNode* s) { return lists[s]; }

const std::vector<ListElem>& Program::build_lists(const SNode* s) {
  for (size_t l = 0; l < s->path.size(); l++) {
    clear_list(s, (int)l);
    listgen(s, (int)l);
  }
  return lists[s];
}

void Program::listgen(const SNode* target, int level) {
  const SNode* child = target->path.at(level);
  std::vector<ListElem>& out = lists[child];
  if (fixed_list(target, level)) {
    // Kept from the last launch while it is the list this would build: a
    // dense parent's every cell, from the same first container. (Regenerated,
    // each launch's 2048 elements cost sparse_particles' step ~4% of its
    // time; Taichi's listgen, run each launch, counts them all the same.)
    const SNode* parent = target->path[level - 1];
    const std::vector<ListElem>& in = lists[parent];
    if (!in.empty() && out.size() == in.size() * (size_t)parent->num_cells() &&
        out.front().container == in.front().container + child->offset_in_cell) {
      n_listgen_elements.fetch_add((int64_t)out.size(), std::memory_order_relaxed);
      return;
    }
  }
  out.clear();
  if (level == 0) {  // the root's list is its one container, never stored
    ListElem e;
    e.container = trees[child->tree]->memory + child->offset_in_cell;
    out.push_back(e);
    n_listgen_elements.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  const SNode* parent = target->path[level - 1];
  const std::vector<ListElem>& in = lists[parent];
  const auto& below = target->path_below[level - 1];
  // Each piece of the parent list fills its own vector; concatenating them in
  // order keeps the list (and so a serial struct-for) in a fixed order.
  size_t n = in.size();
  size_t threads = pool ? (size_t)pool->size() : 1;
  size_t pieces = std::min(n, std::max<size_t>(1, threads * 4));
  std::vector<std::vector<ListElem>> parts(pieces);
  const CellDigits digits(*parent);
  auto work = [&](size_t piece) {
    size_t b = n * piece / pieces, e = n * (piece + 1) / pieces;
    for (size_t k = b; k < e; k++) {
      const ListElem& pe = in[k];
      for_each_active_cell(*parent, pe.container, [&](int64_t cell, uint8_t* addr) {
        int64_t digit[kMaxIndices];
        digits.of(cell, digit);
        ListElem ce;
        ce.container = addr + child->offset_in_cell;
        ce.base = pe.base;
        for (int a = 0; a < digits.n; a++) {
          int p = parent->split_axes[a];
          ce.base[p] = (int32_t)(pe.base[p] + digit[a] * below[p]);
        }
        parts[piece].push_back(ce);
      });
    }
  };
  if (pieces > 1 && n >= 64 && pool && pool->size() > 1 && !config.debug) {
    pool->parallel_for((int64_t)pieces, 1, [&](int64_t b, int64_t e, int) {
      for (int64_t k = b; k < e; k++) work((size_t)k);
    });
  } else {
    for (size_t k = 0; k < pieces; k++) work(k);
  }
  size_t total = 0;
  for (auto& p : parts) total += p.size();
  out.reserve(total);
  for (auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  n_listgen_elements.fetch_add((int64_t)total, std::memory_order_relaxed);
}

int64_t Program::pool_blocks_in_use() const {
  int64_t n = 0;
  for (SNode* s : snode_by_id)
    if (s && s->pool) n += s->pool->blocks_in_use();
  return n;
}

int64_t Program::pool_blocks_reserved() const {
  int64_t n = 0;
  for (SNode* s : snode_by_id)
    if (s && s->pool) n += s->pool->blocks_reserved();
  return n;
}

}  // namespace kiln
