// Pointer and dynamic SNodes on the device. Their cells (pointer) and chunks
// (dynamic) are blocks of a device pool: a region of the tree's own buffer
// reserved at materialization for every block the SNode can hold, behind a
// header the host runtime shares (vm/runtime/pool.h's PoolRegionHeader). A
// slot holds a block's host address, as the runtime's slots do, so host
// access and the device read one layout; the block's byte offset in the
// buffer is region + blocks_at + (slot - header.base).
//   - allocation pops the header's free stack (version << 32 | index + 1,
//     compare-and-swap on the u64; links in a u32 array after the header), else
//     bumps; a full pool is a MemoryError after the launch;
//   - activation claims an empty slot (0 -> 1, a 64-bit compare-and-swap),
//     then stores a fresh block's address in it; others wait for that;
//   - deactivation exchanges the slot with 0, zeroes the block and pushes it;
//   - a dynamic container is the runtime's: an i64 length (its low word is
//     what shaders update: atomic max for writes, add for ti.append) and a
//     slot per chunk; the chunks up to a written cell are activated.
#include <cstddef>

#include "gpu/vulkan/codegen_state.h"
#include "vm/runtime/program.h"

namespace kiln::vk {

using spv::Op;

namespace {

constexpr uint32_t kBase = offsetof(PoolRegionHeader, base), kHead = offsetof(PoolRegionHeader, head),
                   kBump = offsetof(PoolRegionHeader, bump), kInUse = offsetof(PoolRegionHeader, in_use),
                   kLinks = sizeof(PoolRegionHeader);

Id scope(Gen& g) { return g.cu32((uint32_t)spv::Scope::Device); }
Id add(Gen& g, Id a, Id b) { return g.m.op(Op::OpIAdd, g.u32(), {a, b}); }
Id mul(Gen& g, Id a, uint32_t k) { return g.m.op(Op::OpIMul, g.u32(), {a, g.cu32(k)}); }
BufPtr word_at(Gen& g, int binding, Id byte) {
  return BufPtr{binding, g.m.op(Op::OpShiftRightLogical, g.u32(), {byte, g.cu32(2)}), Prim::u32};
}
BufPtr dword_at(Gen& g, int binding, Id byte) {
  return BufPtr{binding, g.m.op(Op::OpShiftRightLogical, g.u32(), {byte, g.cu32(3)}), Prim::u64};
}
Id atomic32(Gen& g, Op op, int binding, Id byte, Id v) {
  return g.m.op(op, g.u32(), {g.chain(word_at(g, binding, byte)), scope(g), g.cu32(0), v});
}

}  // namespace

uint32_t pool_blocks_at(const SNode& sn) {
  return (uint32_t)(sn.pool->region->base - (uint64_t)(uintptr_t)sn.pool->region);
}

uint32_t Gen::pool_region(const ir::Stmt& s, const SNode& sn) {
  if (!sn.pool || !sn.pool->region)
    unsupported(s, std::string(snode_kind_name(sn.kind)) + " SNodes of a program not created for arch=vulkan");
  if (!caps.int64_atomics) unsupported(s, std::string(snode_kind_name(sn.kind)) + " SNodes (they need 64-bit atomics)");
  m.capability(spv::Capability::Int64Atomics);
  return (uint32_t)(reinterpret_cast<uint8_t*>(sn.pool->region) - prog->trees.at((size_t)sn.tree)->memory);
}

Id Gen::ld64(int binding, Id byte) {
  return m.op(Op::OpAtomicLoad, u64(), {chain(dword_at(*this, binding, byte)), scope(*this), cu32(0)});
}

Id Gen::cas64(int binding, Id byte, Id desired, Id expected) {
  return m.op(Op::OpAtomicCompareExchange, u64(),
              {chain(dword_at(*this, binding, byte)), scope(*this), cu32(0), cu32(0), desired, expected});
}

// The byte offset of the block slot value `slot` points at (0 for an empty slot).
Id Gen::block_offset(int binding, const SNode& sn, Id slot, const ir::Stmt& s) {
  uint32_t region = pool_region(s, sn);
  Id base = ld64(binding, cu32(region + kBase));
  Id off = m.op(Op::OpUConvert, u32(), {m.op(Op::OpISub, u64(), {slot, base})});
  Id empty = m.op(Op::OpULessThanEqual, m.t_bool(), {slot, m.c_bits(u64(), 64, 1)});  // 1: being filled
  return m.op(Op::OpSelect, u32(), {empty, cu32(0), add(*this, cu32(region + pool_blocks_at(sn)), off)});
}

// A block of sn's pool: its index (u32), and in `ok` whether there was one.
Id Gen::pool_alloc(int binding, const SNode& sn, const ir::Stmt& s, Id& ok) {
  uint32_t r = pool_region(s, sn);
  Id bt = m.t_bool(), none = cu32(0xffffffffu);
  Id got = m.function_var(m.t_ptr(spv::StorageClass::Function, u32()));
  Id go = m.function_var(m.t_ptr(spv::StorageClass::Function, bt));
  m.op_void(Op::OpStore, {got, none});
  m.op_void(Op::OpStore, {go, m.c_bool(true)});
  loop(*this, &s, [&] { return m.op(Op::OpLoad, bt, {go}); }, [&] {
    m.op_void(Op::OpStore, {go, m.c_bool(false)});
    Id old = ld64(binding, cu32(r + kHead));
    Id top = m.op(Op::OpUConvert, u32(), {old});
    if_then(m.op(Op::OpINotEqual, bt, {top, cu32(0)}), [&] {
      Id idx = m.op(Op::OpISub, u32(), {top, cu32(1)});
      Id next = load(word_at(*this, binding, add(*this, cu32(r + kLinks), mul(*this, idx, 4))));
      Id ver = m.op(Op::OpIAdd, u64(), {m.op(Op::OpShiftRightLogical, u64(), {old, cu32(32)}), m.c_bits(u64(), 64, 1)});
      Id fresh = m.op(Op::OpBitwiseOr, u64(), {m.op(Op::OpShiftLeftLogical, u64(), {ver, cu32(32)}),
                                                m.op(Op::OpUConvert, u64(), {next})});
      Id won = m.op(Op::OpIEqual, bt, {cas64(binding, cu32(r + kHead), fresh, old), old});
      m.op_void(Op::OpStore, {got, m.op(Op::OpSelect, u32(), {won, idx, none})});
      m.op_void(Op::OpStore, {go, m.op(Op::OpLogicalNot, bt, {won})});
    });
  }, [] {});
  if_then(m.op(Op::OpIEqual, bt, {m.op(Op::OpLoad, u32(), {got}), none}), [&] {
    Id n = atomic32(*this, Op::OpAtomicIAdd, binding, cu32(r + kBump), cu32(1));
    uint32_t cap = sn.pool->region->capacity;
    Id full = m.op(Op::OpUGreaterThanEqual, bt, {n, cu32(cap)});
    CheckInfo c{CheckInfo::pool_full, s.loc};
    c.field = sn.name();
    c.capacity = cap;
    out.checks.push_back(c);
    fail_if(full, (int)out.checks.size() - 1, {});
    m.op_void(Op::OpStore, {got, m.op(Op::OpSelect, u32(), {full, none, n})});
  });
  Id idx = m.op(Op::OpLoad, u32(), {got});
  ok = m.op(Op::OpINotEqual, bt, {idx, none});
  if_then(ok, [&] {
    atomic32(*this, Op::OpAtomicIAdd, binding, cu32(r + kInUse), cu32(1));
  });
  return idx;
}

// Zeroes block `idx` of sn's pool and pushes it on the free stack.
void Gen::pool_free(int binding, const SNode& sn, Id idx, const ir::Stmt& s) {
  uint32_t r = pool_region(s, sn), block = (uint32_t)sn.pool->block_bytes;
  Id bt = m.t_bool();
  Id at = add(*this, cu32(r + pool_blocks_at(sn)), mul(*this, idx, block));
  zero_words(binding, m.op(Op::OpShiftRightLogical, u32(), {at, cu32(2)}), block / 4, s);
  Id go = m.function_var(m.t_ptr(spv::StorageClass::Function, bt));
  m.op_void(Op::OpStore, {go, m.c_bool(true)});
  loop(*this, &s, [&] { return m.op(Op::OpLoad, bt, {go}); }, [&] {
    Id old = ld64(binding, cu32(r + kHead));
    store(word_at(*this, binding, add(*this, cu32(r + kLinks), mul(*this, idx, 4))), m.op(Op::OpUConvert, u32(), {old}));
    Id ver = m.op(Op::OpIAdd, u64(), {m.op(Op::OpShiftRightLogical, u64(), {old, cu32(32)}), m.c_bits(u64(), 64, 1)});
    Id fresh = m.op(Op::OpBitwiseOr, u64(), {m.op(Op::OpShiftLeftLogical, u64(), {ver, cu32(32)}),
                                              m.op(Op::OpUConvert, u64(), {add(*this, idx, cu32(1))})});
    Id won = m.op(Op::OpIEqual, bt, {cas64(binding, cu32(r + kHead), fresh, old), old});
    m.op_void(Op::OpStore, {go, m.op(Op::OpLogicalNot, bt, {won})});
  }, [] {});
  atomic32(*this, Op::OpAtomicISub, binding, cu32(r + kInUse), cu32(1));
}

// Empties the slot at byte `slot`: its block, if any, goes back to the pool
// (a pointer cell's is one deactivation; a dynamic list counts once, whole).
void Gen::slot_release(int binding, const SNode& sn, Id slot, const ir::Stmt& s) {
  for (auto& ch : sn.children)
    if (ch->has_sparse_below)
      unsupported(s, "deactivating " + sn.name() + " cells that hold sparse SNodes (" + ch->name() + ")");
  uint32_t r = pool_region(s, sn);
  Id v = m.op(Op::OpAtomicExchange, u64(), {chain(dword_at(*this, binding, slot)), scope(*this), cu32(0), m.c_bits(u64(), 64, 0)});
  if_then(m.op(Op::OpUGreaterThan, m.t_bool(), {v, m.c_bits(u64(), 64, 1)}), [&] {
    Id off = m.op(Op::OpISub, u32(), {block_offset(binding, sn, v, s), cu32(r + pool_blocks_at(sn))});
    pool_free(binding, sn, m.op(Op::OpUDiv, u32(), {off, cu32((uint32_t)sn.pool->block_bytes)}), s);
    if (sn.kind == SNodeKind::pointer) count_stat(kStatDeactivations, cu32(1));
  });
}

// The slot at byte `slot`, filled with a fresh block when empty (u64: the
// block's host address; 0 only when the pool is full). The filler claims the
// slot first (0 -> 1 by compare-and-swap) and the others wait for its block:
// allocating first and giving the losers' blocks back would need more blocks
// than cells at once (16 invocations racing for 4 cells overran the pool).
Id Gen::slot_activate(int binding, const SNode& sn, Id slot, const ir::Stmt& s) {
  uint32_t r = pool_region(s, sn);
  Id bt = m.t_bool(), zero = m.c_bits(u64(), 64, 0), one = m.c_bits(u64(), 64, 1);
  Id res = m.function_var(m.t_ptr(spv::StorageClass::Function, u64()));
  Id go = m.function_var(m.t_ptr(spv::StorageClass::Function, bt));
  Id waited = par_state && cur_site ? m.function_var(m.t_ptr(spv::StorageClass::Function, u32())) : 0;
  m.op_void(Op::OpStore, {go, m.c_bool(true)});
  if (waited) m.op_void(Op::OpStore, {waited, cu32(0)});
  loop(*this, &s, [&] { return m.op(Op::OpLoad, bt, {go}); }, [&] {
    Id v = ld64(binding, slot);
    m.op_void(Op::OpStore, {res, v});
    m.op_void(Op::OpStore, {go, m.op(Op::OpIEqual, bt, {v, one})});  // being filled: wait
    // (a resumable parallel task's invocation stops rather than wait long)
    if (waited) wait_checkpoint(m.op(Op::OpIEqual, bt, {v, one}), waited);
    if_then(m.op(Op::OpIEqual, bt, {v, zero}), [&] {
      Id won = m.op(Op::OpIEqual, bt, {cas64(binding, slot, one, zero), zero});
      m.op_void(Op::OpStore, {go, m.op(Op::OpLogicalNot, bt, {won})});
      if_then(won, [&] {
        Id ok = 0;
        Id idx = pool_alloc(binding, sn, s, ok);
        Id base = ld64(binding, cu32(r + kBase));
        Id addr = m.op(Op::OpIAdd, u64(), {base, m.op(Op::OpIMul, u64(), {m.op(Op::OpUConvert, u64(), {idx}),
                                                                          m.c_bits(u64(), 64, sn.pool->block_bytes)})});
        addr = m.op(Op::OpSelect, u64(), {ok, addr, zero});
        count_stat(kStatActivations, m.op(Op::OpSelect, u32(), {ok, cu32(1), cu32(0)}));
        m.op(Op::OpAtomicExchange, u64(), {chain(dword_at(*this, binding, slot)), scope(*this), cu32(0), addr});
        m.op_void(Op::OpStore, {res, addr});
      });
    });
  }, [] {});
  return m.op(Op::OpLoad, u64(), {res});
}

// Writing cell `cell` of dynamic container `c` extends its length to cell + 1
// (never shrinks it) and activates the chunks the new length covers.
void Gen::dynamic_extend(int binding, const SNode& sn, Id c, Id cell, const ir::Stmt& s) {
  Id bt = m.t_bool();
  Id want = add(*this, cell, cu32(1));
  Id old = atomic32(*this, Op::OpAtomicUMax, binding, c, want);
  uint32_t chunk = (uint32_t)sn.chunk_size;
  Id first = m.op(Op::OpUDiv, u32(), {m.op(Op::OpSelect, u32(), {m.op(Op::OpULessThan, bt, {old, want}), old, cell}), cu32(chunk)});
  Id last = m.op(Op::OpUDiv, u32(), {cell, cu32(chunk)});
  Id k = m.function_var(m.t_ptr(spv::StorageClass::Function, u32()));
  // A wait site's run that stopped waiting for a chunk goes on from that
  // chunk (the length it extended is no longer below the cell: `first`
  // would skip the chunks between).
  if (site_chunk) {
    Id at = m.op(Op::OpLoad, u32(), {site_chunk});
    first = m.op(Op::OpSelect, u32(), {m.op(Op::OpIEqual, bt, {at, cu32(kNoProgress)}), first, at});
  }
  m.op_void(Op::OpStore, {k, first});
  Id cur = 0;
  loop(*this, &s, [&] {
    cur = m.op(Op::OpLoad, u32(), {k});
    return m.op(Op::OpULessThanEqual, bt, {cur, last});
  }, [&] {
    if (site_chunk) m.op_void(Op::OpStore, {site_chunk, cur});
    slot_activate(binding, sn, add(*this, c, add(*this, cu32(8), mul(*this, cur, 8))), s);
  }, [&] { m.op_void(Op::OpStore, {k, add(*this, cur, cu32(1))}); });
}

// The byte offset of cell `cell` of level lv's container at byte `c`; for
// pointer and dynamic levels through the slot, `on` telling whether the cell
// is active (0 for other levels: always).
Id Gen::enter_cell(int binding, const SNode& lv, Id c, Id cell, bool activate, Id& on, const ir::Stmt& s) {
  on = 0;
  Id bt = m.t_bool();
  if (lv.kind == SNodeKind::pointer) {
    Id slot = add(*this, c, mul(*this, cell, 8));
    Id v = activate ? slot_activate(binding, lv, slot, s) : ld64(binding, slot);
    on = m.op(Op::OpUGreaterThan, bt, {v, m.c_bits(u64(), 64, 1)});
    return block_offset(binding, lv, v, s);
  }
  if (lv.kind == SNodeKind::dynamic) {
    uint32_t chunk = (uint32_t)lv.chunk_size;
    if (activate) dynamic_extend(binding, lv, c, cell, s);
    Id len = m.op(Op::OpAtomicLoad, u32(), {chain(word_at(*this, binding, c)), scope(*this), cu32(0)});
    Id k = m.op(Op::OpUDiv, u32(), {cell, cu32(chunk)});
    Id v = ld64(binding, add(*this, c, add(*this, cu32(8), mul(*this, k, 8))));
    on = m.op(Op::OpLogicalAnd, bt, {m.op(Op::OpULessThan, bt, {cell, len}), m.op(Op::OpUGreaterThan, bt, {v, m.c_bits(u64(), 64, 1)})});
    Id at = add(*this, block_offset(binding, lv, v, s),
                mul(*this, m.op(Op::OpUMod, u32(), {cell, cu32(chunk)}), (uint32_t)lv.cell_size));
    return m.op(Op::OpSelect, u32(), {on, at, cu32(0)});
  }
  return add(*this, c, mul(*this, cell, (uint32_t)lv.cell_size));
}

// ti.activate / deactivate / is_active / append / length on a pointer or
// dynamic SNode whose container is at byte `c` (cell `cell` of it), when
// `run` (0: always).
void Gen::pool_snode_op(const ir::Stmt& s, const SNode& sn, Id c, Id cell, Id run) {
  int binding = out.tree_binding(sn.tree);
  Id bt = m.t_bool();
  auto guarded = [&](auto&& body) {
    if (run) if_then(run, body);
    else body();
  };
  auto result = [&](Id on) {  // ti.is_active's 1 / 0 (0 when not run)
    if (run) on = m.op(Op::OpLogicalAnd, bt, {run, on});
    val[&s] = from_bool(on, s.type.prim);
  };
  bool ptr_kind = sn.kind == SNodeKind::pointer;
  uint32_t cap = (uint32_t)sn.num_cells();
  switch (s.sop) {
    case ir::SNodeOpKind::activate: {
      guarded([&] {
        Id on = 0;
        enter_cell(binding, sn, c, cell, true, on, s);
      });
      return;
    }
    case ir::SNodeOpKind::is_active: {
      if (ptr_kind) {
        result(m.op(Op::OpUGreaterThan, bt, {ld64(binding, add(*this, c, mul(*this, cell, 8))), m.c_bits(u64(), 64, 1)}));
        return;
      }
      // A dynamic cell is active below the length.
      Id len = m.op(Op::OpAtomicLoad, u32(), {chain(word_at(*this, binding, c)), scope(*this), cu32(0)});
      result(m.op(Op::OpULessThan, bt, {cell, len}));
      return;
    }
    case ir::SNodeOpKind::deactivate: {
      guarded([&] {
        if (ptr_kind) {
          slot_release(binding, sn, add(*this, c, mul(*this, cell, 8)), s);
          return;
        }
        // A dynamic list is deactivated whole: its chunks go back, length 0.
        uint32_t chunks = (uint32_t)((sn.num_cells() + sn.chunk_size - 1) / sn.chunk_size);
        Id k = m.function_var(m.t_ptr(spv::StorageClass::Function, u32()));
        m.op_void(Op::OpStore, {k, cu32(0)});
        Id cur = 0;
        loop(*this, &s, [&] {
          cur = m.op(Op::OpLoad, u32(), {k});
          return m.op(Op::OpULessThan, bt, {cur, cu32(chunks)});
        }, [&] { slot_release(binding, sn, add(*this, c, add(*this, cu32(8), mul(*this, cur, 8))), s); },
             [&] { m.op_void(Op::OpStore, {k, add(*this, cur, cu32(1))}); });
        Id len = m.op(Op::OpAtomicExchange, u64(), {chain(dword_at(*this, binding, c)), scope(*this), cu32(0), m.c_bits(u64(), 64, 0)});
        count_stat(kStatDeactivations, m.op(Op::OpSelect, u32(), {m.op(Op::OpINotEqual, bt, {len, m.c_bits(u64(), 64, 0)}), cu32(1), cu32(0)}));
      });
      return;
    }
    case ir::SNodeOpKind::length: {
      Id len = m.op(Op::OpAtomicLoad, u32(), {chain(word_at(*this, binding, c)), scope(*this), cu32(0)});
      len = m.op(Op::OpSelect, u32(), {m.op(Op::OpULessThan, bt, {len, cu32(cap)}), len, cu32(cap)});
      if (run) len = m.op(Op::OpSelect, u32(), {run, len, cu32(0)});
      val[&s] = cast(len, Prim::u32, s.type.prim, s);
      return;
    }
    case ir::SNodeOpKind::append: {
      // One add, never retried: a full list's length may run past its
      // capacity (readers clamp it), and the caller's bounds check reports
      // the index `cap` given back.
      // A wait site's run that stopped waiting for the index's chunk keeps
      // the index it claimed (the add is not redone).
      Id l = site_claim ? site_claim : m.function_var(m.t_ptr(spv::StorageClass::Function, u32()));
      auto claim = [&] {
        m.op_void(Op::OpStore, {l, cu32(cap)});
        guarded([&] {
          Id n = atomic32(*this, Op::OpAtomicIAdd, binding, c, cu32(1));
          m.op_void(Op::OpStore, {l, m.op(Op::OpSelect, u32(), {m.op(Op::OpUGreaterThanEqual, bt, {n, cu32(cap)}), cu32(cap), n})});
        });
      };
      if (site_claim) if_then(m.op(Op::OpIEqual, bt, {m.op(Op::OpLoad, u32(), {l}), cu32(kNoProgress)}), claim);
      else claim();
      Id n = m.op(Op::OpLoad, u32(), {l});
      if_then(m.op(Op::OpULessThan, bt, {n, cu32(cap)}), [&] {
        Id k = m.op(Op::OpUDiv, u32(), {n, cu32((uint32_t)sn.chunk_size)});
        slot_activate(binding, sn, add(*this, c, add(*this, cu32(8), mul(*this, k, 8))), s);
      });
      val[&s] = cast(m.op(Op::OpLoad, u32(), {l}), Prim::u32, s.type.prim, s);
      return;
    }
  }
}

}  // namespace kiln::vk
