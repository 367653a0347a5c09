// Sparse SNodes on the device, for trees whose sparse levels are bitmasked:
// their containers sit inline in the tree's buffer (cells, then one activity
// bit per cell in u64 words at mask_offset), laid out exactly as the host
// runtime has them (vm/runtime/sparse.cpp), so host access and the device
// share one buffer. Here:
//   - element addresses walk the place's path level by level (cell_of);
//     writes set the bits of the bitmasked levels on the way (atomic or on
//     the u32 half of the u64 mask word), reads of an inactive cell give 0;
//   - ti.activate / ti.deactivate / ti.is_active (deactivate clears the bit
//     and zeroes the cell, as the runtime's release_cell does, so the cell
//     reads 0 when it comes back);
//   - a struct-for visits every cell of the target's containers, in the
//     order of the runtime's lists (containers in list order, cells in
//     order), and runs the body on the cells that were active when it
//     started: the target's last listgen task copies the mask words of the
//     path's bitmasked levels into the context buffer (a snapshot, as the
//     runtime's lists are: cells the body activates are not visited), and
//     the other list tasks dispatch nothing.
// Pointer and dynamic levels go through their slots into device pools
// (codegen_pools.cpp); their snapshot bits are computed from the slots and
// lengths.
#include <spirv/unified1/GLSL.std.450.h>

#include <climits>
#include <cstddef>

#include "gpu/vulkan/codegen_state.h"
#include "vm/runtime/program.h"

namespace kiln::vk {

using spv::Op;

// The SNode `id` names, with a clear error when its path has a level the
// device cannot walk.
const SNode& Gen::device_snode(const ir::Stmt& s, int id) {
  if (!prog) unsupported(s, "sparse SNodes without a program");
  const SNode* sn = prog->snode(id);
  for (const SNode* l : sn->path)
    if (l->kind == SNodeKind::pointer || l->kind == SNodeKind::dynamic) pool_region(s, *l);
  return *sn;
}

// Cell number of level `l` from full-resolution physical indices: row-major
// over its split axes of (phys / below) % extent.
static Id cell_of(Gen& g, const SNode& l, const std::array<int64_t, kMaxIndices>& below, const std::vector<Id>& phys) {
  SpirvModule& m = g.m;
  Id cell = g.cu32(0);
  for (int p : l.split_axes) {
    Id x = m.op(Op::OpUDiv, g.u32(), {phys[(size_t)p], g.cu32((uint32_t)below[(size_t)p])});
    x = m.op(Op::OpUMod, g.u32(), {x, g.cu32((uint32_t)l.extent[(size_t)p])});
    cell = m.op(Op::OpIAdd, g.u32(), {m.op(Op::OpIMul, g.u32(), {cell, g.cu32((uint32_t)l.extent[(size_t)p])}), x});
  }
  return cell;
}

// The u32 word of a bitmasked container at byte `cbase` holding `cell`'s bit,
// and the bit's mask.
static std::pair<BufPtr, Id> mask_bit(Gen& g, int binding, const SNode& l, Id cbase, Id cell) {
  SpirvModule& m = g.m;
  Id word = m.op(Op::OpIAdd, g.u32(),
                 {m.op(Op::OpShiftRightLogical, g.u32(), {m.op(Op::OpIAdd, g.u32(), {cbase, g.cu32((uint32_t)l.mask_offset)}), g.cu32(2)}),
                  m.op(Op::OpShiftRightLogical, g.u32(), {cell, g.cu32(5)})});
  Id bit = m.op(Op::OpShiftLeftLogical, g.u32(), {g.cu32(1), m.op(Op::OpBitwiseAnd, g.u32(), {cell, g.cu32(31)})});
  return {BufPtr{binding, word, Prim::u32}, bit};
}

Id Gen::mask_test(int binding, const SNode& l, Id cbase, Id cell) {
  auto [w, bit] = mask_bit(*this, binding, l, cbase, cell);
  Id bits = m.op(Op::OpAtomicLoad, u32(), {chain(w), cu32((uint32_t)spv::Scope::Device), cu32(0)});
  return m.op(Op::OpINotEqual, m.t_bool(), {m.op(Op::OpBitwiseAnd, u32(), {bits, bit}), cu32(0)});
}

// Sets (or clears) the bit; returns whether it was set before.
Id Gen::mask_update(int binding, const SNode& l, Id cbase, Id cell, bool set) {
  auto [w, bit] = mask_bit(*this, binding, l, cbase, cell);
  Id operand = set ? bit : m.op(Op::OpNot, u32(), {bit});
  Id old = m.op(set ? Op::OpAtomicOr : Op::OpAtomicAnd, u32(),
                {chain(w), cu32((uint32_t)spv::Scope::Device), cu32(0), operand});
  return m.op(Op::OpINotEqual, m.t_bool(), {m.op(Op::OpBitwiseAnd, u32(), {old, bit}), cu32(0)});
}

// Walks `target`'s path from the tree's start to the container of its last
// level (byte offset, returned) for full-resolution indices `phys`: the
// bitmasked levels above it are set when `activate`, else their bits are
// and-ed into `active` (0 when there is none to test); pointer and dynamic
// levels are entered through their slots (activated when `activate`).
Id Gen::walk_path(const SNode& target, const std::vector<Id>& phys, bool activate, Id& active, const ir::Stmt& s) {
  int binding = out.tree_binding(target.tree);
  out.num_trees = std::max(out.num_trees, target.tree + 1);
  Id c = cu32(0);
  active = 0;
  for (size_t l = 0; l < target.path.size(); l++) {
    const SNode& lv = *target.path[l];
    c = m.op(Op::OpIAdd, u32(), {c, cu32((uint32_t)lv.offset_in_cell)});
    if (l + 1 == target.path.size()) break;
    Id cell = cell_of(*this, lv, target.path_below[l], phys);
    Id on = 0;
    if (lv.kind == SNodeKind::bitmasked) {
      if (activate) count_activation(mask_update(binding, lv, c, cell, true));
      else on = mask_test(binding, lv, c, cell);
    }
    Id pool_on = 0;
    c = enter_cell(binding, lv, c, cell, activate, pool_on, s);
    if (!activate && pool_on) on = pool_on;
    if (on) active = active ? m.op(Op::OpLogicalAnd, m.t_bool(), {active, on}) : on;
  }
  return c;
}

// u32 indices, physical: phys[physical_index_position[v]] = idx[v] * scale[p].
static std::vector<Id> to_physical(Gen& g, const SNode& s, const std::vector<Id>& idx, bool cell_coords) {
  std::vector<Id> phys(kMaxIndices, g.cu32(0));
  for (size_t v = 0; v < s.physical_index_position.size() && v < idx.size(); v++) {
    int p = s.physical_index_position[v];
    phys[(size_t)p] = cell_coords ? g.m.op(Op::OpIMul, g.u32(), {idx[v], g.cu32((uint32_t)s.below[(size_t)p])}) : idx[v];
  }
  return phys;
}

void Gen::sparse_ptr(const ir::Stmt& s, const std::vector<Id>& idx32, Id ok) {
  const ir::Access& acc = s.access;
  Prim p = s.type.prim;
  int binding = out.tree_binding(acc.tree);
  out.num_trees = std::max(out.num_trees, acc.tree + 1);
  Id addr = 0, active = 0;
  if (acc.in_cell) {  // a struct-for's own cell: ops[0] is its address
    addr = m.op(Op::OpIAdd, u32(),
                {m.op(Op::OpUConvert, u32(), {m.op(Op::OpBitcast, u64(), {val.at(s.ops[0])})}), cu32((uint32_t)acc.offset)});
  } else {
    const SNode& place = device_snode(s, acc.sparse_place);
    addr = walk_path(place, to_physical(*this, place, idx32, false), acc.activate, active, s);
  }
  Id index = m.op(Op::OpUDiv, u32(), {addr, cu32((uint32_t)(prim_bits(p) / 8))});
  if (ok) index = m.op(Op::OpSelect, u32(), {ok, index, cu32(0)});
  ptr[&s] = BufPtr{binding, index, p, active};
}

void Gen::snode_op(const ir::Stmt& s) {
  const SNode& sn = device_snode(s, s.snode);
  bool pooled = sn.kind == SNodeKind::pointer || sn.kind == SNodeKind::dynamic;
  if (s.sop != ir::SNodeOpKind::activate && s.sop != ir::SNodeOpKind::deactivate && s.sop != ir::SNodeOpKind::is_active &&
      !(sn.kind == SNodeKind::dynamic && (s.sop == ir::SNodeOpKind::append || s.sop == ir::SNodeOpKind::length)))
    unsupported(s, std::string("ti.") + ir::snode_op_name(s.sop) + " on " + snode_kind_name(sn.kind) + " SNodes");
  // The SNode's own coordinates, checked as the runtime does.
  Id bt = m.t_bool();
  std::vector<int64_t> shape = sn.shape();
  std::vector<Id> idx;
  Id ok = 0;
  for (size_t v = 0; v < s.ops.size() && v < shape.size(); v++) {
    Prim q = s.ops[v]->type.prim;
    Id x = cast(val.at(s.ops[v]), q, Prim::i64, s);
    Id in = m.op(Op::OpLogicalAnd, bt, {m.op(Op::OpSGreaterThanEqual, bt, {x, const_int(Prim::i64, 0)}),
                                        m.op(Op::OpSLessThan, bt, {x, const_int(Prim::i64, shape[v])})});
    CheckInfo c{CheckInfo::snode_bounds, s.loc};
    c.field = sn.name();
    c.axis = (int)v;
    c.shape = shape;
    out.checks.push_back(c);
    fail_if(m.op(Op::OpLogicalNot, bt, {in}), (int)out.checks.size() - 1, {m.op(Op::OpBitcast, u64(), {x})});
    ok = ok ? m.op(Op::OpLogicalAnd, bt, {ok, in}) : in;
    idx.push_back(m.op(Op::OpSelect, u32(), {in, m.op(Op::OpUConvert, u32(), {m.op(Op::OpBitcast, u64(), {x})}), cu32(0)}));
  }
  std::vector<Id> phys = to_physical(*this, sn, idx, true);
  int binding = out.tree_binding(sn.tree);
  bool act = s.sop == ir::SNodeOpKind::activate || s.sop == ir::SNodeOpKind::append;
  Id active = 0;
  Id c = walk_path(sn, phys, act, active, s);
  if (pooled) {
    Id run = ok;
    if (active) run = run ? m.op(Op::OpLogicalAnd, bt, {run, active}) : active;
    pool_snode_op(s, sn, c, cell_of(*this, sn, sn.path_below.back(), phys), run);
    return;
  }
  if (sn.kind != SNodeKind::bitmasked) {  // dense or place: active where its parents are
    if (s.sop == ir::SNodeOpKind::is_active) {
      Id on = active ? active : m.c_bool(true);
      if (ok) on = m.op(Op::OpLogicalAnd, bt, {ok, on});
      val[&s] = from_bool(on, s.type.prim);
    }
    return;
  }
  Id cell = cell_of(*this, sn, sn.path_below.back(), phys);
  Id run = ok;
  if (active) run = run ? m.op(Op::OpLogicalAnd, bt, {run, active}) : active;
  if (s.sop == ir::SNodeOpKind::is_active) {
    Id on = mask_test(binding, sn, c, cell);
    if (run) on = m.op(Op::OpLogicalAnd, bt, {run, on});
    val[&s] = from_bool(on, s.type.prim);
    return;
  }
  auto body = [&] {
    if (act) {
      count_activation(mask_update(binding, sn, c, cell, true));
      return;
    }
    // Deactivate: clear the bit; if it was set, zero the cell (word by word).
    Id was = mask_update(binding, sn, c, cell, false);
    if_then(was, [&] {
      count_stat(kStatDeactivations, cu32(1));
      Id base = m.op(Op::OpShiftRightLogical, u32(),
                     {m.op(Op::OpIAdd, u32(), {c, m.op(Op::OpIMul, u32(), {cell, cu32((uint32_t)sn.cell_size)})}), cu32(2)});
      zero_words(binding, base, (uint32_t)(sn.cell_size / 4), s);
    });
  };
  if (run) if_then(run, body);
  else body();
}

void Gen::count_stat(StatWord w, Id n) {
  out.counts = true;
  m.op(Op::OpAtomicIAdd, u32(), {chain(BufPtr{0, cu32((uint32_t)(out.stat_word() + w)), Prim::u32}),
                                 cu32((uint32_t)spv::Scope::Device), cu32(0), n});
}

// A bit that was clear before the write: one activation.
void Gen::count_activation(Id was) {
  if_then(m.op(Op::OpLogicalNot, m.t_bool(), {was}), [&] { count_stat(kStatActivations, cu32(1)); });
}

// Stores 0 to `n` u32 words from word `base` of `binding`: a loop (counted
// like any other) unless there are only a few; 32 words a pass when n allows,
// so that a 4 MiB block takes 32768 passes, within lavapipe's loop limit.
void Gen::zero_words(int binding, Id base, uint32_t n, const ir::Stmt& s) {
  if (n <= 16) {
    for (uint32_t w = 0; w < n; w++) store(BufPtr{binding, m.op(Op::OpIAdd, u32(), {base, cu32(w)}), Prim::u32}, cu32(0));
    return;
  }
  uint32_t step = n % 32 == 0 ? 32 : 1;
  Id var = m.function_var(m.t_ptr(spv::StorageClass::Function, u32()));
  m.op_void(Op::OpStore, {var, cu32(0)});
  Id w = 0;
  loop(*this, &s, [&] {
    w = m.op(Op::OpLoad, u32(), {var});
    return m.op(Op::OpULessThan, m.t_bool(), {w, cu32(n)});
  }, [&] {
    Id at = m.op(Op::OpIAdd, u32(), {base, w});
    for (uint32_t q = 0; q < step; q++) store(BufPtr{binding, m.op(Op::OpIAdd, u32(), {at, cu32(q)}), Prim::u32}, cu32(0));
  }, [&] { m.op_void(Op::OpStore, {var, m.op(Op::OpIAdd, u32(), {w, cu32(step)})}); });
}

// The struct-for's visit of cell `u` (u32) of the target's containers:
// per level its cell number (row-major, levels outer to inner), the loop's
// indices (the target's own coordinates) and the cell's byte offset into
// sf_index / sf_cell, and whether every bitmasked level has it (0: always).
Id Gen::struct_for_cell(const ir::Stmt& task, Id u) {
  const SNode& t = device_snode(task, task.snode);
  int binding = out.tree_binding(t.tree);
  out.num_trees = std::max(out.num_trees, t.tree + 1);
  size_t nl = t.path.size();
  std::vector<Id> cells(nl);
  // Cell numbers of levels [from, to) from n, row-major (the last fastest).
  auto split = [&](Id n, size_t from, size_t to) {
    for (size_t l = to; l-- > from;) {
      uint32_t k = (uint32_t)t.path[l]->num_cells();
      cells[l] = l == from ? n : m.op(Op::OpUMod, u32(), {n, cu32(k)});
      if (l > from) n = m.op(Op::OpUDiv, u32(), {n, cu32(k)});
    }
  };
  std::vector<SnapshotLevel> snap = list_snapshot(out, *prog, task.snode);
  BlockWalk bw;
  Id owned = 0, want = 0;  // a block walk: the block's cell is known; the block's byte offset
  if (block_walk(*prog, task.snode, bw)) {
    // u = block * per_block + cell in it; the block's owner at the snapshot
    // gives the cells above (garbage or stale entries fail the slot test).
    const SnapshotLevel* sl = nullptr;
    for (const SnapshotLevel& x : snap)
      if (x.level == bw.level) sl = &x;
    const SNode& p = *t.path[bw.level];
    Id b = m.op(Op::OpUDiv, u32(), {u, cu32(bw.per_block)});
    Id k = load(BufPtr{0, m.op(Op::OpIAdd, u32(), {cu32((uint32_t)out.list_word() + sl->owner), b}), Prim::u32});
    owned = m.op(Op::OpULessThan, m.t_bool(), {k, cu32(sl->containers * (uint32_t)p.num_cells())});
    split(m.op(Op::OpSelect, u32(), {owned, k, cu32(0)}), 0, bw.level + 1);
    split(m.op(Op::OpUMod, u32(), {u, cu32(bw.per_block)}), bw.level + 1, nl);
    want = m.op(Op::OpIAdd, u32(), {cu32(pool_region(task, p) + pool_blocks_at(p)), m.op(Op::OpIMul, u32(), {b, cu32((uint32_t)p.pool->block_bytes)})});
  } else {
    split(u, 0, nl);
  }
  // Coordinates along each physical axis, in units of the target's cells.
  std::vector<Id> coord(kMaxIndices, cu32(0));
  Id c = cu32(0), active = owned;
  size_t next_snap = 0;
  Id container = cu32(0);  // the level's container number, in list order
  for (size_t l = 0; l < nl; l++) {
    const SNode& lv = *t.path[l];
    c = m.op(Op::OpIAdd, u32(), {c, cu32((uint32_t)lv.offset_in_cell)});
    Id cell = cells[l];
    Id r = cell;
    for (size_t k = lv.split_axes.size(); k-- > 0;) {
      int p = lv.split_axes[k];
      uint32_t e = (uint32_t)lv.extent[(size_t)p];
      Id ci = k == 0 ? r : m.op(Op::OpUMod, u32(), {r, cu32(e)});
      if (k) r = m.op(Op::OpUDiv, u32(), {r, cu32(e)});
      coord[(size_t)p] = m.op(Op::OpIAdd, u32(), {m.op(Op::OpIMul, u32(), {coord[(size_t)p], cu32(e)}), ci});
    }
    if (lv.kind == SNodeKind::bitmasked || lv.kind == SNodeKind::pointer || lv.kind == SNodeKind::dynamic) {
      const SnapshotLevel& sl = snap.at(next_snap++);
      Id word = m.op(Op::OpIAdd, u32(), {cu32((uint32_t)out.list_word() + sl.base),
                                         m.op(Op::OpIAdd, u32(), {m.op(Op::OpIMul, u32(), {container, cu32(sl.words)}),
                                                                  m.op(Op::OpShiftRightLogical, u32(), {cell, cu32(5)})})});
      Id bit = m.op(Op::OpShiftLeftLogical, u32(), {cu32(1), m.op(Op::OpBitwiseAnd, u32(), {cell, cu32(31)})});
      Id on = m.op(Op::OpINotEqual, m.t_bool(), {m.op(Op::OpBitwiseAnd, u32(), {load(BufPtr{0, word, Prim::u32}), bit}), cu32(0)});
      active = active ? m.op(Op::OpLogicalAnd, m.t_bool(), {active, on}) : on;
    }
    container = m.op(Op::OpIAdd, u32(), {m.op(Op::OpIMul, u32(), {container, cu32((uint32_t)lv.num_cells())}), cell});
    Id on = 0;  // a pointer cell deactivated since the snapshot is not visited
    c = enter_cell(binding, lv, c, cell, false, on, task);
    if (want && l == bw.level) on = m.op(Op::OpLogicalAnd, m.t_bool(), {on, m.op(Op::OpIEqual, m.t_bool(), {c, want})});
    if (on) active = active ? m.op(Op::OpLogicalAnd, m.t_bool(), {active, on}) : on;
  }
  // Levels that do not split an axis leave it alone; coord[p] counts the
  // target's cells along p from the tree's start.
  sf_index.assign((size_t)task.rare().num_loop_indices, cu32(0));
  const auto& pip = t.physical_index_position;
  for (int v = 0; v < task.rare().num_loop_indices; v++) {
    int p = v < (int)pip.size() ? pip[(size_t)v] : v;
    sf_index[(size_t)v] = coord[(size_t)p];
  }
  sf_cell = c;
  return active;
}

std::vector<SnapshotLevel> list_snapshot(KernelShaders& out, const Program& prog, int snode) {
  const SNode* t = prog.snode(snode);
  std::vector<SnapshotLevel> levels;
  uint32_t at = 0, containers = 1;
  BlockWalk bw;
  bool walk = block_walk(prog, snode, bw);
  for (size_t l = 0; l < t->path.size(); l++) {
    const SNode& lv = *t->path[l];
    if (lv.kind == SNodeKind::bitmasked || lv.kind == SNodeKind::pointer || lv.kind == SNodeKind::dynamic) {
      uint32_t words = (uint32_t)((lv.num_cells() + 63) / 64 * 2);
      levels.push_back(SnapshotLevel{l, at, containers, words});
      at += containers * words;
      if (walk && l == bw.level) {
        levels.back().owner = at;
        at += bw.capacity;
      }
    }
    containers *= (uint32_t)lv.num_cells();
  }
  auto it = out.list_base.find(snode);
  uint32_t base = it != out.list_base.end() ? it->second : out.list_words;
  if (it == out.list_base.end()) {
    out.list_base[snode] = base;
    out.list_words += at;
  }
  for (SnapshotLevel& sl : levels) {
    sl.base += base;
    if (sl.owner != SnapshotLevel::kNoOwner) sl.owner += base;
  }
  return levels;
}

uint32_t snapshot_words(const std::vector<SnapshotLevel>& levels) {
  uint32_t n = 0;
  for (const SnapshotLevel& sl : levels) n = std::max(n, sl.containers * sl.words);
  return n;
}

// Word `i` of each level's snapshot (when it has that many): container
// i / words (its cells of the levels above, row-major) gives the address of
// its mask, word i % words of it.
void Gen::snapshot_copy(const ir::Stmt& task, Id i) {
  const SNode& t = device_snode(task, task.snode);
  int binding = out.tree_binding(t.tree);
  out.num_trees = std::max(out.num_trees, t.tree + 1);
  for (const SnapshotLevel& sl : list_snapshot(out, *prog, task.snode)) {
    if_then(m.op(Op::OpULessThan, m.t_bool(), {i, cu32(sl.containers * sl.words)}), [&] {
      Id k = m.op(Op::OpUDiv, u32(), {i, cu32(sl.words)});
      Id w = m.op(Op::OpUMod, u32(), {i, cu32(sl.words)});
      std::vector<Id> cells(sl.level);
      for (size_t l = sl.level; l-- > 0;) {
        uint32_t n = (uint32_t)t.path[l]->num_cells();
        cells[l] = m.op(Op::OpUMod, u32(), {k, cu32(n)});
        k = m.op(Op::OpUDiv, u32(), {k, cu32(n)});
      }
      // The level's container: through the slots of pointer/dynamic levels
      // above it (none there: no active cells).
      Id c = cu32(0), there = 0;
      for (size_t l = 0; l < sl.level; l++) {
        c = m.op(Op::OpIAdd, u32(), {c, cu32((uint32_t)t.path[l]->offset_in_cell)});
        Id on = 0;
        c = enter_cell(binding, *t.path[l], c, cells[l], false, on, task);
        if (on) there = there ? m.op(Op::OpLogicalAnd, m.t_bool(), {there, on}) : on;
      }
      const SNode& lv = *t.path[sl.level];
      c = m.op(Op::OpIAdd, u32(), {c, cu32((uint32_t)lv.offset_in_cell)});
      Id bits = level_bits(binding, lv, c, w, task);
      if (there) bits = m.op(Op::OpSelect, u32(), {there, bits, cu32(0)});
      store(BufPtr{0, m.op(Op::OpIAdd, u32(), {cu32((uint32_t)out.list_word() + sl.base), i}), Prim::u32}, bits);
      // The lists the launch's listgen tasks make below this level (as far
      // as the next sparse one): each active cell is a container of each.
      if (uint32_t per = list_elements_per_cell(t, sl.level))
        count_stat(kStatListgen, m.op(Op::OpIMul, u32(), {m.op(Op::OpBitCount, u32(), {bits}), cu32(per)}));
      if (sl.owner != SnapshotLevel::kNoOwner) record_owners(binding, lv, sl, c, i, bits, task);
    });
  }
}

// A block walk's owners: each active cell of word i of a pointer level's
// snapshot (its 32 slots at container byte c) writes its number, in list
// order, at its block's entry of the level's owner array.
void Gen::record_owners(int binding, const SNode& lv, const SnapshotLevel& sl, Id c, Id i, Id bits, const ir::Stmt& task) {
  Id bt = m.t_bool();
  uint32_t blocks = pool_region(task, lv) + pool_blocks_at(lv);
  Id k = m.op(Op::OpIAdd, u32(), {m.op(Op::OpIMul, u32(), {m.op(Op::OpUDiv, u32(), {i, cu32(sl.words)}), cu32((uint32_t)lv.num_cells())}),
                                  m.op(Op::OpShiftLeftLogical, u32(), {m.op(Op::OpUMod, u32(), {i, cu32(sl.words)}), cu32(5)})});
  for (uint32_t j = 0; j < 32; j++) {
    Id on = m.op(Op::OpINotEqual, bt, {m.op(Op::OpBitwiseAnd, u32(), {bits, cu32(1u << j)}), cu32(0)});
    if_then(on, [&] {
      Id cell = m.op(Op::OpIAdd, u32(), {m.op(Op::OpUMod, u32(), {k, cu32((uint32_t)lv.num_cells())}), cu32(j)});
      Id slot = m.op(Op::OpIAdd, u32(), {c, m.op(Op::OpIMul, u32(), {cell, cu32(8)})});
      Id off = m.op(Op::OpISub, u32(), {block_offset(binding, lv, ld64(binding, slot), task), cu32(blocks)});
      Id b = m.op(Op::OpUDiv, u32(), {off, cu32((uint32_t)lv.pool->block_bytes)});
      b = m.op(Op::OpSelect, u32(), {m.op(Op::OpULessThan, bt, {b, cu32(lv.pool->region->capacity)}), b, cu32(0)});
      store(BufPtr{0, m.op(Op::OpIAdd, u32(), {cu32((uint32_t)out.list_word() + sl.owner), b}), Prim::u32},
            m.op(Op::OpIAdd, u32(), {k, cu32(j)}));
    });
  }
}

// Word `w` (cells 32w .. 32w + 31) of the activity bits of lv's container at
// byte `c`: a bitmasked level's mask word, a pointer level's non-empty
// slots, a dynamic level's cells below its length.
Id Gen::level_bits(int binding, const SNode& lv, Id c, Id w, const ir::Stmt& task) {
  Id bt = m.t_bool();
  auto scope = cu32((uint32_t)spv::Scope::Device);
  uint32_t n = (uint32_t)lv.num_cells();
  if (lv.kind == SNodeKind::bitmasked) {
    Id src = m.op(Op::OpIAdd, u32(), {m.op(Op::OpShiftRightLogical, u32(), {m.op(Op::OpIAdd, u32(), {c, cu32((uint32_t)lv.mask_offset)}), cu32(2)}), w});
    return m.op(Op::OpAtomicLoad, u32(), {chain(BufPtr{binding, src, Prim::u32}), scope, cu32(0)});
  }
  Id first = m.op(Op::OpShiftLeftLogical, u32(), {w, cu32(5)});
  if (lv.kind == SNodeKind::dynamic) {
    Id len = m.op(Op::OpAtomicLoad, u32(), {chain(BufPtr{binding, m.op(Op::OpShiftRightLogical, u32(), {c, cu32(2)}), Prim::u32}), scope, cu32(0)});
    len = m.op(Op::OpSelect, u32(), {m.op(Op::OpULessThan, bt, {len, cu32(n)}), len, cu32(n)});
    Id cnt = m.op(Op::OpSelect, u32(), {m.op(Op::OpUGreaterThan, bt, {len, first}), m.op(Op::OpISub, u32(), {len, first}), cu32(0)});
    Id low = m.op(Op::OpISub, u32(), {m.op(Op::OpShiftLeftLogical, u32(), {cu32(1), cnt}), cu32(1)});
    return m.op(Op::OpSelect, u32(), {m.op(Op::OpUGreaterThanEqual, bt, {cnt, cu32(32)}), cu32(0xffffffffu), low});
  }
  pool_region(task, lv);
  Id bits = cu32(0);
  for (uint32_t j = 0; j < 32; j++) {
    Id cell = m.op(Op::OpIAdd, u32(), {first, cu32(j)});
    Id in = m.op(Op::OpULessThan, bt, {cell, cu32(n)});
    Id slot = m.op(Op::OpIAdd, u32(), {c, m.op(Op::OpIMul, u32(), {m.op(Op::OpSelect, u32(), {in, cell, cu32(0)}), cu32(8)})});
    Id on = m.op(Op::OpLogicalAnd, bt, {in, m.op(Op::OpUGreaterThan, bt, {ld64(binding, slot), m.c_bits(u64(), 64, 1)})});
    bits = m.op(Op::OpBitwiseOr, u32(), {bits, m.op(Op::OpSelect, u32(), {on, cu32(1u << j), cu32(0)})});
  }
  return bits;
}

// Listgen of level l lists the containers of path[l]: for l = 0 the root's
// cell, else the active cells of path[l - 1]'s listed containers. A
// struct-for's tasks list levels 0 .. n - 1 of its n-level path (the root is
// not in it). Per active cell of sparse level
// j, the levels it adds to (up to the next sparse level) with the dense
// cells between; levels with no sparse level above add a constant.
static bool sparse_level(const SNode& s) {
  return s.kind == SNodeKind::bitmasked || s.kind == SNodeKind::pointer || s.kind == SNodeKind::dynamic;
}

uint32_t list_elements_per_cell(const SNode& t, size_t j) {
  int64_t sum = 0, mult = 1;
  for (size_t l = j + 1; l < t.path.size(); l++) {
    sum += mult;
    if (sparse_level(*t.path[l])) break;
    mult *= t.path[l]->num_cells();
  }
  return (uint32_t)std::min<int64_t>(sum, UINT32_MAX);
}

int64_t list_elements_const(const SNode& t) {
  int64_t sum = 0, mult = 1;
  for (size_t l = 0; l < t.path.size(); l++) {
    sum += mult;
    if (sparse_level(*t.path[l])) break;
    mult *= t.path[l]->num_cells();
  }
  return sum;
}

bool block_walk(const Program& prog, int snode, BlockWalk& w) {
  int64_t total = struct_for_cells(prog, snode);
  if (total <= INT32_MAX) return false;
  const SNode* t = prog.snode(snode);
  int64_t per = 1;  // cells of the levels below l
  for (size_t l = t->path.size(); l-- > 0;) {
    const SNode& lv = *t->path[l];
    if (lv.kind == SNodeKind::pointer && l + 1 < t->path.size()) {
      if (!lv.pool || !lv.pool->region) return false;
      int64_t cap = lv.pool->region->capacity;
      // Blocks x cells an i32, the level's cells (list order) a u32.
      if (per * cap > INT32_MAX || total / per >= (int64_t)UINT32_MAX) return false;
      w = BlockWalk{l, (uint32_t)per, (uint32_t)cap};
      return true;
    }
    if (lv.kind != SNodeKind::dense) return false;
    per *= lv.num_cells();
    if (per > INT32_MAX) return false;
  }
  return false;
}

Id Gen::struct_for_end(const ir::Stmt& task) {
  BlockWalk bw;
  if (!block_walk(*prog, task.snode, bw)) return 0;
  const SNode& p = *prog->snode(task.snode)->path[bw.level];
  int binding = out.tree_binding(p.tree);
  Id bump = m.op(Op::OpAtomicLoad, u32(), {chain(BufPtr{binding, cu32((pool_region(task, p) + (uint32_t)offsetof(PoolRegionHeader, bump)) / 4), Prim::u32}),
                                           cu32((uint32_t)spv::Scope::Device), cu32(0)});
  Id blocks = m.ext(GLSLstd450UMin, u32(), {bump, cu32(bw.capacity)});
  return m.op(Op::OpBitcast, i32(), {m.op(Op::OpIMul, u32(), {blocks, cu32(bw.per_block)})});
}

// Cells a struct-for over `snode` visits: every cell of every container.
int64_t struct_for_cells(const Program& prog, int snode) {
  const SNode* t = prog.snode(snode);
  int64_t n = 1;
  for (const SNode* l : t->path)
    if (__builtin_mul_overflow(n, l->num_cells(), &n)) return INT64_MAX;
  return n;
}

}  // namespace kiln::vk
