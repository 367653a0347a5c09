// Sparse lookups inline in traces (sparse_walk.h): the walk of
// Program::locate (vm/runtime/sparse.cpp) as trace IR, for cells that are
// active, with a guard per sparse level.
#include "jit/sparse_walk.h"

#include <atomic>

#include "vm/runtime/append.h"
#include "vm/runtime/program.h"

namespace kiln::jit {

using bc::CT;

namespace {

const SNode* node(const TraceEnv& env, int id) {
  const Program* prog = env.program;
  if (!prog || id < 0 || (size_t)id >= prog->snode_by_id.size()) return nullptr;
  return prog->snode_by_id[(size_t)id];
}

// Whether locate's walk to `target` is taken inline: a materialized tree
// and no quant_array level (its cells are bit slices of one word).
bool walkable(const SNode& target, const TraceEnv& env) {
  if (target.path.empty() || target.path.back() != &target || target.tree < 0 || (uint64_t)target.tree >= env.num_trees ||
      !env.tree_bases[target.tree])
    return false;
  for (size_t l = 0; l < target.path.size(); l++) {
    const SNode& s = *target.path[l];
    if (s.quant_array_bits || (s.kind == SNodeKind::dynamic && s.chunk_size <= 0)) return false;
    for (int p : s.split_axes)
      if (s.extent[p] <= 0 || target.path_below[l][p] <= 0) return false;
  }
  return true;
}

// One walk from the tree's base to `target`'s container (its element for a
// place) through full-resolution indices `phys`, all non-negative and in
// bounds (the caller guards them).
struct Walk {
  Emitter& e;
  const TraceEnv& env;
  const SNode& target;
  const Snapshot& snap;
  Val phys[kMaxIndices];

  Ref k(int64_t v) { return e.kval((uint64_t)v); }
  Ref op(IrOp o, Ref a, Ref b) { return e.emit(o, CT::i64, a, b); }
  Ref load(Ref at) { return e.emit(IrOp::load, CT::i64, at, kNoRef, kNoRef, (int64_t)Prim::i64); }
  bool guard(IrOp g, Ref a, Ref b = kNoRef) { return e.guard(g, a, b, snap); }

  // Level l's cell (cell_of): row-major over the level's split axes. Level 0
  // takes no remainder: the indices are in bounds, so its quotient is too.
  int64_t cell_now(size_t l) const {
    const SNode& s = *target.path[l];
    int64_t cell = 0;
    for (int p : s.split_axes) {
      int64_t q = (int64_t)phys[p].bits / target.path_below[l][p];
      cell = cell * s.extent[p] + (l ? q % s.extent[p] : q);
    }
    return cell;
  }
  Ref cell_ref(size_t l) {
    const SNode& s = *target.path[l];
    Ref cell = kNoRef;
    for (int p : s.split_axes) {
      Ref q = phys[p].ref;
      if (target.path_below[l][p] != 1) q = op(IrOp::floordiv, q, k(target.path_below[l][p]));
      if (l) q = op(IrOp::mod, q, k(s.extent[p]));
      cell = cell == kNoRef ? q : op(IrOp::add, op(IrOp::mul, cell, k(s.extent[p])), q);
    }
    return cell == kNoRef ? k(0) : cell;
  }

  // The address now, or null where a level's cell is not active: then
  // `miss` is that level, unless it is a list's chunk not made yet below
  // its length (the runtime makes it, even for a read).
  uint8_t* now(int& miss) const {
    miss = -1;
    uint8_t* c = env.tree_bases[target.tree];
    for (size_t l = 0; l < target.path.size(); l++) {
      const SNode& s = *target.path[l];
      c += s.offset_in_cell;
      if (l + 1 == target.path.size()) break;
      int64_t cell = cell_now(l);
      switch (s.kind) {
        case SNodeKind::pointer:
          c = reinterpret_cast<std::atomic<uint8_t*>*>(c + cell * 8)->load(std::memory_order_acquire);
          if (!c) return miss = (int)l, nullptr;
          break;
        case SNodeKind::bitmasked: {
          auto* w = reinterpret_cast<std::atomic<uint64_t>*>(c + s.mask_offset) + (cell >> 6);
          if (!((w->load(std::memory_order_acquire) >> (cell & 63)) & 1)) return miss = (int)l, nullptr;
          c += cell * s.cell_size;
          break;
        }
        case SNodeKind::dynamic: {
          if (cell >= reinterpret_cast<std::atomic<int64_t>*>(c)->load(std::memory_order_acquire))
            return miss = (int)l, nullptr;
          uint8_t* chunk = reinterpret_cast<std::atomic<uint8_t*>*>(c + 8 + cell / s.chunk_size * 8)->load(std::memory_order_acquire);
          if (!chunk) return nullptr;
          c = chunk + cell % s.chunk_size * s.cell_size;
          break;
        }
        default: c += cell * s.cell_size; break;
      }
    }
    return c;
  }

  // The same as trace IR, each sparse level guarded active (x86 loads are
  // acquire loads, as the runtime's). With `miss` set, the walk ends at that
  // level with a guard that its cell is inactive, and `out` is the runtime's
  // block of zeros, `zeros`.
  bool emit(Ref& out, int miss = -1, uint64_t zeros = 0) {
    Ref base = e.emit(IrOp::base, CT::i64, kNoRef, kNoRef, kNoRef, target.tree);
    if (!guard(IrOp::guard_nz, base)) return false;
    Ref c = base;
    for (size_t l = 0; l < target.path.size(); l++) {
      const SNode& s = *target.path[l];
      if (s.offset_in_cell) c = op(IrOp::add, c, k(s.offset_in_cell));
      if (l + 1 == target.path.size()) break;
      Ref cell = cell_ref(l);
      switch (s.kind) {
        case SNodeKind::pointer:
          c = load(op(IrOp::add, c, op(IrOp::mul, cell, k(8))));
          if (!guard((int)l == miss ? IrOp::guard_z : IrOp::guard_nz, c)) return false;
          break;
        case SNodeKind::bitmasked: {
          Ref word = load(op(IrOp::add, op(IrOp::add, c, k(s.mask_offset)), op(IrOp::mul, op(IrOp::shr, cell, k(6)), k(8))));
          Ref bit = op(IrOp::band, e.emit(IrOp::shr, CT::u64, word, op(IrOp::band, cell, k(63))), k(1));
          if (!guard((int)l == miss ? IrOp::guard_z : IrOp::guard_nz, bit)) return false;
          c = op(IrOp::add, c, op(IrOp::mul, cell, k(s.cell_size)));
          break;
        }
        case SNodeKind::dynamic: {
          if ((int)l == miss) {
            if (!guard(IrOp::guard_z, e.emit(IrOp::lt, CT::i64, cell, load(c)))) return false;
            break;
          }
          if (!guard(IrOp::guard_ult, cell, load(c))) return false;
          Ref slot = op(IrOp::add, c, op(IrOp::mul, op(IrOp::add, op(IrOp::floordiv, cell, k(s.chunk_size)), k(1)), k(8)));
          Ref chunk = load(slot);
          if (!guard(IrOp::guard_nz, chunk)) return false;
          c = op(IrOp::add, chunk, op(IrOp::mul, op(IrOp::mod, cell, k(s.chunk_size)), k(s.cell_size)));
          break;
        }
        default: c = op(IrOp::add, c, op(IrOp::mul, cell, k(s.cell_size))); break;
      }
      if ((int)l == miss) {
        out = k((int64_t)zeros);
        return true;
      }
    }
    out = c;
    return true;
  }
};

// Sets up a walk to `target` at virtual indices idx (scaled by `scale` per
// physical axis: an SNode's own coordinates count its cells). False when
// the layout is not walked inline or an index is out of bounds now.
bool prepare(Walk& w, const Val* idx, int nidx, bool scale) {
  const SNode& t = w.target;
  if (!walkable(t, w.env) || nidx != (int)t.physical_index_position.size()) return false;
  std::vector<int64_t> shape = t.shape();
  for (int p = 0; p < kMaxIndices; p++) w.phys[p] = {w.k(0), 0};
  for (int v = 0; v < nidx; v++) {
    if (idx[v].bits >= (uint64_t)shape[(size_t)v]) return false;
    int p = t.physical_index_position[(size_t)v];
    int64_t m = scale ? t.below[p] : 1;
    if (m <= 0) return false;
    w.phys[p] = {idx[v].ref, idx[v].bits * (uint64_t)m};
  }
  return true;
}

// The index guards (an index out of bounds goes to the interpreter, which
// reports or wraps it as the runtime does), then the scaled indices.
bool guard_indices(Walk& w, const Val* idx, int nidx, bool scale) {
  const SNode& t = w.target;
  std::vector<int64_t> shape = t.shape();
  for (int v = 0; v < nidx; v++) {
    if (!w.guard(IrOp::guard_ult, idx[v].ref, w.k(shape[(size_t)v]))) return false;
    int p = t.physical_index_position[(size_t)v];
    if (scale && t.below[p] != 1) w.phys[p].ref = w.op(IrOp::mul, idx[v].ref, w.k(t.below[p]));
  }
  return true;
}

uint64_t append_call(uint64_t a, uint64_t, const RtCall& c) {
  return (uint64_t)append_in(*c.program, *c.node, reinterpret_cast<uint8_t*>(a), c.cap);
}

}  // namespace

Walked walk_element(Emitter& e, const TraceEnv& env, int place, bool activate, const Val* idx, int nidx,
                    const Snapshot& snap, Val& out) {
  const SNode* t = node(env, place);
  if (!t || t->kind != SNodeKind::place) return Walked::no;
  Walk w{e, env, *t, snap, {}};
  if (!prepare(w, idx, nidx, false)) return Walked::no;
  int miss;
  uint8_t* at = w.now(miss);
  uint64_t zeros = 0;
  if (!at) {  // a read of an inactive cell reads the runtime's zeros
    if (activate || miss < 0) return Walked::no;
    int64_t iv[kMaxIndices] = {};
    for (int v = 0; v < nidx; v++) iv[v] = (int64_t)idx[v].bits;
    zeros = (uint64_t)(uintptr_t)env.program->sparse_element(place, iv, false);
  }
  if (!guard_indices(w, idx, nidx, false) || !w.emit(out.ref, at ? -1 : miss, zeros)) return Walked::abort;
  out.bits = at ? (uint64_t)(uintptr_t)at : zeros;
  return Walked::yes;
}

Walked walk_append(Emitter& e, const TraceEnv& env, int snode, const Val* idx, int nidx, const Snapshot& snap,
                   Snapshot full, uint16_t dst, const RtCall& call, Val& out) {
  const SNode* t = node(env, snode);
  if (!t || t->kind != SNodeKind::dynamic) return Walked::no;
  Walk w{e, env, *t, snap, {}};
  if (!prepare(w, idx, nidx, true)) return Walked::no;
  int miss;
  uint8_t* at = w.now(miss);
  if (!at) return Walked::no;
  Ref container;
  if (!guard_indices(w, idx, nidx, true) || !w.emit(container)) return Walked::abort;
  // append_in inline: the length's fetch_add (one lock xadd; the length is
  // the container's first word), clamped to the capacity as append_in
  // returns it. The new cell's chunk is left to the write that follows: its
  // walk guards the chunk, and where it is missing (one append in
  // chunk_size) the trace exits to that write, whose activation makes it.
  // While recording, the append runs as append_in, chunk and all, through
  // the runtime call's trampoline (an error it raises is the recorder's to
  // rethrow).
  const int64_t cap = t->num_cells();
  RtCall c = call;
  c.fn = &append_call;
  c.node = t;
  c.cap = cap;
  out.bits = rt_call((uint64_t)(uintptr_t)at, 0, (uint64_t)(uintptr_t)keep_rtcall(c));
  Ref old = e.effect(IrOp::atomic, container, e.kval(1), (int64_t)Prim::i64 | kLengthAtomic);  // aop 0: add
  Ref k = e.kval((uint64_t)cap);
  if (out.bits >= (uint64_t)cap) {  // recorded on a full list: the clamp, min(old, cap)
    out.ref = e.emit(IrOp::sel, CT::i64, e.emit(IrOp::lt, CT::i64, old, k), old, k);
    return Walked::yes;
  }
  // Recorded with room: the clamp is a guard that there is room, whose exit
  // leaves after the append with its result `cap` (a length is never
  // negative, so old >=u cap is old >= cap). The trace goes on with `old`,
  // which that guard bounds: the write's index check, its level's mask and
  // its length check fold away (opt.cpp), as g++'s `if (at < CAP)` leaves
  // one compare.
  bool set = false;
  for (auto& [reg, ref] : full.regs)
    if (reg == dst) ref = k, set = true;
  if (!set) full.regs.push_back({dst, k});
  if (!e.guard(IrOp::guard_ult, old, k, std::move(full))) return Walked::abort;
  out.ref = old;
  return Walked::yes;
}

}  // namespace kiln::jit
