// Which global elements a parallel range_for task's iterations own: x[I]
// with I an injective function of the task's loop index, where every access
// to x in the task is that same x[I] (Taichi's uniquely accessed pointers).
// Distinct iterations then touch distinct elements, so no other thread can
// see or change an owned element while an iteration runs. demote_atomics
// drops the atomicity of updates to owned elements; promote_elements keeps an
// owned element in a local across an inner loop.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "vm/ir/ir.h"

namespace kiln::ir::own {

// One index of a global pointer as a function of the task's loop index L:
// (L / div) % mod + off, C division (mod 0: none). ti.ndrange and struct-fors
// over 2-D/3-D fields split L this way: i = L / (n1 n2), j = L / n2 % n1,
// k = L % n2 (plus the axes' offsets).
struct Digit {
  int64_t div = 1, mod = 0, off = 0;
  bool operator==(const Digit&) const = default;
};

inline bool const_int(const Stmt* s, int64_t& v) {
  if (s->kind != StmtKind::const_ || !prim_is_int(s->type.prim)) return false;
  v = s->value.i;
  return true;
}

inline bool digit_of(const Stmt* e, const Stmt* task, Digit& d) {
  if (e->kind == StmtKind::loop_index) {
    d = Digit{};
    return e->loop == task && e->index == 0;
  }
  int64_t c;
  if (e->kind != StmtKind::binary || !prim_is_int(e->type.prim) || !const_int(e->ops[1], c)) return false;
  if (!digit_of(e->ops[0], task, d)) return false;
  switch (e->bop) {
    case BinaryOp::add: d.off += c; return true;  // a bijection: distinct stays distinct
    case BinaryOp::div:
      if (c <= 0 || d.mod || d.off || d.div > INT32_MAX) return false;
      d.div *= c;
      return true;
    case BinaryOp::raw_mod:
      if (c <= 0 || d.mod || d.off) return false;
      d.mod = c;
      return true;
    default: return false;
  }
}

// Do the digits determine L? They do when they chain from L % m1 through
// L / m1 % m2 ... to a digit without a modulus: L is then the sum of each
// digit times its divisor (C division: L = L / m * m + L % m for any sign).
inline bool injective(const std::vector<Digit>& ds) {
  int64_t need = 1;
  for (size_t step = 0; step < ds.size(); step++) {
    const Digit* next = nullptr;
    for (const Digit& d : ds)
      if (d.div == need) next = &d;
    if (!next) return false;
    if (next->mod == 0) return true;
    if (next->mod > INT32_MAX || need > INT32_MAX) return false;
    need *= next->mod;
  }
  return false;
}

// Do distinct indices reach distinct elements? Each axis's address terms
// must chain its digits, index / 1 % m1, index / m1 % m2, ..., to a term
// without a modulus or to the axis's extent: a nested dense layout
// (ti.root.dense(ti.ij, 64).dense(ti.ij, 8)) splits i into i / 8 and i % 8,
// each a term, so every index has a cell of its own. A quant_array packs
// several indices into one word: its term divides the index and no term
// takes the remainder, so neighbouring iterations update the same word and
// its bit-and/bit-or stay atomic (a GPU's adjacent threads lost them; a CPU's
// chunk boundaries could).
inline bool distinct_elements(const Access& a) {
  for (size_t axis = 0; axis < a.shape.size(); axis++) {
    for (int64_t need = 1; need < a.shape[axis];) {
      const IndexTerm* next = nullptr;
      for (const IndexTerm& t : a.terms)
        if (t.axis == (int)axis && t.div == need && t.stride != 0 && t.mod != 1) next = &t;  // % 1: always 0
      if (!next) return false;
      if (next->mod == 0) break;
      if (next->mod > INT32_MAX || need > INT32_MAX) return false;
      need *= next->mod;
    }
  }
  return true;
}

// The global pointers of `task` (a range_for) that are its own element:
// x[I] with I an injective function of the task's loop index (x[i], or the
// i, j of a 2-D ndrange), where every access to x in the task is that same
// x[I]. Places are told apart by (tree, offset of element 0).
struct OwnElements {
  const Stmt* task;
  struct Place {
    bool unique = true;          // only ever x[I], with one I
    std::vector<Digit> index;    // that I
  };
  std::map<std::pair<int, int64_t>, Place> places;
  std::map<int, bool> sparse_places;  // sparse place id -> only ever at the loop's cell
  std::vector<const Stmt*> ptrs;
  bool opaque = false;  // SNode ops or sparse data: demote nothing

  bool own(const Stmt* p, std::vector<Digit>& ds) const {
    // A struct-for's loop indices are a cell's coordinates, not a counter
    // that digits decompose: x[i] repeats over j.
    if (task->task != Task::range_for) return false;
    ds.resize(p->ops.size());
    for (size_t k = 0; k < p->ops.size(); k++)
      if (!digit_of(p->ops[k], task, ds[k])) return false;
    return !ds.empty() && injective(ds);
  }
  void scan(const Block& b) {
    for (auto& owned : b.stmts) {
      const Stmt* s = owned.get();
      if (s->kind == StmtKind::snode_op) opaque = true;
      if (s->kind == StmtKind::global_ptr && s->access->sparse_place >= 0) {
        // in_cell only exists in struct-fors (a range_for's sparse access is opaque)
        bool mine = s->access->in_cell;
        if (!mine) opaque = true;
        auto [it, first] = sparse_places.try_emplace(s->access->sparse_place, true);
        it->second = it->second && mine;
        ptrs.push_back(s);
      } else if (s->kind == StmtKind::global_ptr && s->access->ext_arg < 0) {
        auto [it, first] = places.try_emplace({s->access->tree, s->access->offset});
        Place& pl = it->second;
        std::vector<Digit> ds;
        bool mine = own(s, ds) && distinct_elements(*s->access);
        if (first) pl.index = ds;
        pl.unique = pl.unique && mine && ds == pl.index;
        ptrs.push_back(s);
      }
      if (s->body) scan(*s->body);
      if (s->else_body) scan(*s->else_body);
    }
  }
  bool owned(const Stmt* p) const {
    if (p->access->sparse_place >= 0) return sparse_places.at(p->access->sparse_place);
    return places.at({p->access->tree, p->access->offset}).unique;
  }
};


}  // namespace kiln::ir::own
