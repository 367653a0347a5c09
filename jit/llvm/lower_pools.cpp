// Pointer and dynamic SNodes in device code (the GPU lowering). Their cells
// (pointer) and chunks (dynamic) are blocks of a device pool: a region of the
// tree's own buffer reserved at layout for every block the SNode can hold
// (vm/runtime/device_pools.h), behind the PoolRegionHeader the host runtime
// shares (pool.h), so host accesses between launches and device code use the
// same slots, free stack and counters. The Vulkan backend uses the same
// protocol (gpu/vulkan/codegen_pools.cpp, docs/vulkan_sparse.md):
//   - allocation pops the header's free stack (version << 32 | index + 1,
//     a 64-bit compare-and-swap; links in a u32 array after the header), else
//     bumps; a full pool is the MemoryError check `pool_full`;
//   - activation claims an empty slot (0 -> 1 by compare-and-swap), then
//     stores a fresh block's address; racing threads wait for it (a slot of 1
//     reads as empty);
//   - deactivation exchanges the slot with 0, zeroes the block and pushes it;
//   - a dynamic container keeps the runtime's layout: an i64 length (atomic
//     max for writes, add for ti.append) and a slot per chunk.
// Activations and deactivations are counted, as the runtime counts them,
// in the tree's device counters (device_pools.h), which the host adds to the
// program's statistics.
#include <llvm/IR/MDBuilder.h>

#include "jit/llvm/lower_state.h"
#include "vm/runtime/pool.h"
#include "vm/runtime/program.h"

namespace kiln::llvmjit {

using llvm::BasicBlock;
using llvm::Value;

namespace {

constexpr uint64_t kHead = offsetof(PoolRegionHeader, head), kBump = offsetof(PoolRegionHeader, bump),
                   kInUse = offsetof(PoolRegionHeader, in_use);
constexpr auto kRelaxed = llvm::AtomicOrdering::Monotonic;
constexpr auto kAcqRel = llvm::AtomicOrdering::AcquireRelease;

// The free-stack link of block `idx` (i32) of the region at header `h`.
Value* link_of(llvm::IRBuilder<>& b, Value* h, Value* idx) {
  Value* off = b.CreateAdd(b.getInt64(sizeof(PoolRegionHeader)), b.CreateMul(b.CreateZExt(idx, b.getInt64Ty()), b.getInt64(4)));
  return b.CreateInBoundsGEP(b.getInt8Ty(), h, off);
}

// Replaces the free stack's head `old` by (its version + 1) << 32 | `low`
// (i32) if it is still `old`; whether it was.
Value* swap_head(llvm::IRBuilder<>& b, Value* h, Value* old, Value* low) {
  Value* fresh = b.CreateOr(b.CreateShl(b.CreateAdd(b.CreateLShr(old, 32), b.getInt64(1)), 32), b.CreateZExt(low, b.getInt64Ty()));
  Value* head = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), h, kHead);
  return b.CreateExtractValue(b.CreateAtomicCmpXchg(head, old, fresh, llvm::MaybeAlign(8), kAcqRel, kRelaxed), 1);
}

}  // namespace

const DevicePoolRegion& Gen::pool_region(const SNode& s, const ir::Stmt& at) {
  if (!prog) unsupported(at, "a pointer or dynamic SNode without its program's layout");
  auto it = regions.find(s.id);
  if (it != regions.end()) return it->second;
  std::vector<DevicePoolRegion> rs;
  device_pool_regions(*prog->trees.at((size_t)s.tree)->root, device_pool_budget(prog->config.device_memory_gb), rs);
  for (const DevicePoolRegion& r : rs) regions.emplace(r.snode->id, r);
  it = regions.find(s.id);
  if (it == regions.end()) unsupported(at, "an SNode with no device pool");
  return it->second;
}

void Gen::count_device(const SNode& s, DeviceCounter which) {
  if (!prog) return;  // (device pools come with a program: pool_region, sparse_ptr)
  int64_t at = device_counters_at(*prog->trees.at((size_t)s.tree)->root) + 8 * (int64_t)which;
  B.CreateAtomicRMW(llvm::AtomicRMWInst::Add, byte_at(tree_base(s.tree, loc), (uint64_t)at), B.getInt64(1),
                    llvm::MaybeAlign(8), kRelaxed);
}

Value* Gen::byte_at(Value* p, Value* off) { return B.CreateInBoundsGEP(B.getInt8Ty(), p, off); }
Value* Gen::byte_at(Value* p, uint64_t off) { return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), p, off); }

Value* Gen::load_relaxed(llvm::Type* t, Value* p) {
  llvm::LoadInst* l = B.CreateLoad(t, p);
  l->setAtomic(kRelaxed);
  l->setAlignment(llvm::Align(t->getPrimitiveSizeInBits() / 8));
  return l;
}

Value* Gen::pool_alloc(const SNode& s, const ir::Stmt& at) {
  const DevicePoolRegion& r = pool_region(s, at);
  llvm::Type *i32 = B.getInt32Ty(), *i64 = B.getInt64Ty();
  Value* h = byte_at(tree_base(s.tree, loc), (uint64_t)r.at);
  BasicBlock* pop = new_block("pool.pop");
  BasicBlock* take = new_block("pool.take");
  BasicBlock* bump = new_block("pool.bump");
  BasicBlock* got = new_block("pool.got");
  BasicBlock* counted = new_block("pool.counted");
  B.CreateBr(pop);
  B.SetInsertPoint(pop);
  Value* old = load_relaxed(i64, byte_at(h, kHead));
  Value* top = B.CreateTrunc(old, i32);
  B.CreateCondBr(B.CreateICmpEQ(top, B.getInt32(0)), bump, take);
  B.SetInsertPoint(take);
  Value* idx = B.CreateSub(top, B.getInt32(1));
  Value* won = swap_head(B, h, old, load_relaxed(i32, link_of(B, h, idx)));
  BasicBlock* took = B.GetInsertBlock();
  B.CreateCondBr(won, got, pop);
  B.SetInsertPoint(bump);
  Value* n = B.CreateAtomicRMW(llvm::AtomicRMWInst::Add, byte_at(h, kBump), B.getInt32(1), llvm::MaybeAlign(4), kRelaxed);
  Value* full = B.CreateICmpUGE(n, B.getInt32((uint32_t)r.blocks));
  Value* bumped = B.CreateSelect(full, B.getInt32(UINT32_MAX), n);
  BasicBlock* bumped_in = B.GetInsertBlock();
  B.CreateBr(got);
  B.SetInsertPoint(got);
  llvm::PHINode* block = B.CreatePHI(i32, 2);
  block->addIncoming(idx, took);
  block->addIncoming(bumped, bumped_in);
  BasicBlock* count = new_block("pool.count");
  Value* none = B.CreateICmpEQ(block, B.getInt32(UINT32_MAX));
  B.CreateCondBr(none, counted, count);
  B.SetInsertPoint(count);
  B.CreateAtomicRMW(llvm::AtomicRMWInst::Add, byte_at(h, kInUse), B.getInt32(1), llvm::MaybeAlign(4), kRelaxed);
  B.CreateBr(counted);
  B.SetInsertPoint(counted);
  Value* addr = B.CreatePtrToInt(
      byte_at(h, B.CreateAdd(B.getInt64((uint64_t)r.blocks_at()), B.CreateMul(B.CreateZExt(block, i64), B.getInt64((uint64_t)r.block)))),
      i64);
  return B.CreateSelect(none, B.getInt64(0), addr);
}

void Gen::pool_free(const SNode& s, Value* block, const ir::Stmt& at) {
  const DevicePoolRegion& r = pool_region(s, at);
  llvm::Type *i32 = B.getInt32Ty(), *i64 = B.getInt64Ty();
  Value* h = byte_at(tree_base(s.tree, loc), (uint64_t)r.at);
  Value* p = B.CreateIntToPtr(block, B.getPtrTy());
  B.CreateMemSet(p, B.getInt8(0), B.getInt64((uint64_t)r.block), llvm::MaybeAlign(16));
  Value* idx = B.CreateTrunc(B.CreateUDiv(B.CreateSub(block, B.CreatePtrToInt(byte_at(h, (uint64_t)r.blocks_at()), i64)),
                                          B.getInt64((uint64_t)r.block)),
                             i32);
  Value* link = link_of(B, h, idx);
  BasicBlock* push = new_block("pool.push");
  BasicBlock* done = new_block("pool.pushed");
  B.CreateBr(push);
  B.SetInsertPoint(push);
  Value* old = load_relaxed(i64, byte_at(h, kHead));
  llvm::StoreInst* st = B.CreateStore(B.CreateTrunc(old, i32), link);
  st->setAtomic(kRelaxed);
  st->setAlignment(llvm::Align(4));
  B.CreateCondBr(swap_head(B, h, old, B.CreateAdd(idx, B.getInt32(1))), done, push);
  B.SetInsertPoint(done);
  B.CreateAtomicRMW(llvm::AtomicRMWInst::Sub, byte_at(h, kInUse), B.getInt32(1), llvm::MaybeAlign(4), kRelaxed);
}

Value* Gen::slot_activate(const SNode& s, Value* slot, const ir::Stmt& at) {
  llvm::Type* i64 = B.getInt64Ty();
  BasicBlock* head = new_block("slot.head");
  BasicBlock* empty = new_block("slot.empty");
  BasicBlock* fill = new_block("slot.fill");
  BasicBlock* done = new_block("slot.done");
  B.CreateBr(head);
  B.SetInsertPoint(head);
  Value* v = load_relaxed(i64, slot);
  BasicBlock* had = B.GetInsertBlock();
  BasicBlock* not_full = new_block("slot.set");
  // > 1: a block; 1: another thread is filling it (wait); 0: claim it.
  B.CreateCondBr(B.CreateICmpUGT(v, B.getInt64(1)), done, not_full);
  B.SetInsertPoint(not_full);
  B.CreateCondBr(B.CreateICmpEQ(v, B.getInt64(0)), empty, head);
  B.SetInsertPoint(empty);
  Value* won = B.CreateExtractValue(
      B.CreateAtomicCmpXchg(slot, B.getInt64(0), B.getInt64(1), llvm::MaybeAlign(8), kAcqRel, kRelaxed), 1);
  B.CreateCondBr(won, fill, head);
  B.SetInsertPoint(fill);
  Value* blk = pool_alloc(s, at);
  // A full pool leaves the slot empty again: every thread that needs it fails too.
  B.CreateAtomicRMW(llvm::AtomicRMWInst::Xchg, slot, blk, llvm::MaybeAlign(8), kAcqRel);
  Check c;
  c.kind = Check::pool_full;
  c.loc = loc;
  c.field = s.name();
  c.axis = (int)pool_region(s, at).blocks;
  fail_if(B.CreateICmpEQ(blk, B.getInt64(0)), c, {});
  count_device(s, kDeviceActivations);  // a pointer cell or dynamic chunk made, as ensure_block counts
  BasicBlock* filled = B.GetInsertBlock();
  B.CreateBr(done);
  B.SetInsertPoint(done);
  llvm::PHINode* r = B.CreatePHI(i64, 2);
  r->addIncoming(v, had);
  r->addIncoming(blk, filled);
  return B.CreateIntToPtr(r, B.getPtrTy());
}

Value* Gen::dynamic_extend(const SNode& s, Value* c, Value* cell, const ir::Stmt& at) {
  llvm::Type* i64 = B.getInt64Ty();
  Value* want = B.CreateAdd(cell, B.getInt64(1));
  Value* old = B.CreateAtomicRMW(llvm::AtomicRMWInst::Max, c, want, llvm::MaybeAlign(8), kAcqRel);
  // Every cell below the length is active: the chunks from the old length's
  // to the cell's must exist (only the cell's when the list was longer).
  Value* first = quot_const(B.CreateSelect(B.CreateICmpSLT(old, want), old, cell), s.chunk_size);
  Value* last = quot_const(cell, s.chunk_size);
  BasicBlock* pre = B.GetInsertBlock();
  BasicBlock* body = new_block("dyn.chunk");
  BasicBlock* done = new_block("dyn.chunks");
  B.CreateBr(body);
  B.SetInsertPoint(body);
  llvm::PHINode* k = B.CreatePHI(i64, 2);
  k->addIncoming(first, pre);
  Value* chunk = slot_activate(s, byte_at(c, B.CreateMul(B.CreateAdd(k, B.getInt64(1)), B.getInt64(8))), at);
  Value* next = B.CreateAdd(k, B.getInt64(1));
  k->addIncoming(next, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpSGT(next, last), done, body);
  B.SetInsertPoint(done);
  return chunk;
}

// Empties pointer slot `slot`: its block, if any, goes back to the pool.
void Gen::slot_release(const SNode& s, Value* slot, const ir::Stmt& at, bool count) {
  for (auto& ch : s.children)
    if (ch->has_sparse_below) unsupported(at, "deactivating " + s.name() + " cells that hold sparse SNodes on the GPU");
  Value* v = B.CreateAtomicRMW(llvm::AtomicRMWInst::Xchg, slot, B.getInt64(0), llvm::MaybeAlign(8), kAcqRel);
  BasicBlock* give = new_block("slot.give");
  BasicBlock* done = new_block("slot.given");
  B.CreateCondBr(B.CreateICmpUGT(v, B.getInt64(1)), give, done);
  B.SetInsertPoint(give);
  pool_free(s, v, at);
  if (count) count_device(s, kDeviceDeactivations);
  B.CreateBr(done);
  B.SetInsertPoint(done);
}

Value* Gen::cell_index(const SNode& s, const std::array<int64_t, kMaxIndices>& below, const std::vector<Value*>& phys) {
  Value* cell = B.getInt64(0);
  for (int p : s.split_axes) {
    int64_t ext = s.extent[(size_t)p];
    cell = B.CreateAdd(B.CreateMul(cell, B.getInt64((uint64_t)ext)), rem_const(quot_const(phys[(size_t)p], below[(size_t)p]), ext));
  }
  return cell;
}

// ti.activate, ti.deactivate, ti.is_active, ti.append and ti.length in device
// code, as Program::snode_op does them on the host.
Value* Gen::device_snode_op(const ir::Stmt& st) {
  const SNode* sp = prog ? prog->snode(st.snode) : nullptr;
  if (!sp) unsupported(st, "an SNode operation without its program's layout");
  const SNode& s = *sp;
  for (const SNode* l : s.path)
    if (l->quant_array_bits) unsupported(st, "an SNode operation under a quant array on the GPU");
  llvm::Type* i64 = B.getInt64Ty();
  // Indices are the SNode's own coordinates; each is checked as the runtime
  // checks it, then scaled to the first element of the cell.
  std::vector<Value*> phys(kMaxIndices, B.getInt64(0));
  std::vector<int64_t> shape = s.shape();
  for (size_t v = 0; v < s.physical_index_position.size(); v++) {
    int p = s.physical_index_position[v];
    int64_t n = 1;
    for (const SNode* a = &s; a; a = a->parent) n *= a->extent[(size_t)p] > 0 ? a->extent[(size_t)p] : 1;
    Value* x = v < st.ops.size() ? to_reg(val.at(st.ops[v]), st.ops[v]->type.prim) : B.getInt64(0);
    Check c;
    c.kind = Check::snode_bounds;
    c.loc = loc;
    c.field = s.name();
    c.axis = (int)v;
    c.shape = shape;
    fail_if(B.CreateICmpUGE(x, B.getInt64((uint64_t)n)), c, {x});
    phys[(size_t)p] = B.CreateMul(x, B.getInt64((uint64_t)s.below[(size_t)p]));
  }
  const auto& below = s.path_below.back();
  auto op = st.sop;
  bool act = op == ir::SNodeOpKind::activate || op == ir::SNodeOpKind::append;
  Value* null = llvm::ConstantPointerNull::get(B.getPtrTy());
  Value* c = sparse_walk(s, phys, act, null, nullptr, st);  // s's container, or null
  Value* cell = s.kind == SNodeKind::place ? nullptr : cell_index(s, below, phys);
  Value* result = nullptr;
  // Runs `then` where the container exists; its value (i64) or 0 elsewhere.
  auto where_present = [&](const std::function<Value*()>& then) -> Value* {
    BasicBlock* yes = new_block("sop.present");
    BasicBlock* done = new_block("sop.done");
    BasicBlock* from = B.GetInsertBlock();
    B.CreateCondBr(B.CreateIsNull(c), done, yes);
    B.SetInsertPoint(yes);
    Value* r = then();
    BasicBlock* end = B.GetInsertBlock();
    B.CreateBr(done);
    B.SetInsertPoint(done);
    llvm::PHINode* phi = B.CreatePHI(i64, 2);
    phi->addIncoming(B.getInt64(0), from);
    phi->addIncoming(r ? r : B.getInt64(0), end);
    return phi;
  };
  switch (op) {
    case ir::SNodeOpKind::activate:
      if (s.kind != SNodeKind::place) {
        Walk w{new_block("sop.entered"), {}, null};
        finish_walk(w, enter_cell(s, c, cell, true, w, nullptr, st));
      }
      break;
    case ir::SNodeOpKind::is_active:
      result = where_present([&]() -> Value* {
        if (s.kind == SNodeKind::place) return B.getInt64(1);
        Walk w{new_block("sop.entered"), {}, null};
        Value* e = finish_walk(w, enter_cell(s, c, cell, false, w, nullptr, st));
        return B.CreateZExt(B.CreateIsNotNull(e), i64);
      });
      break;
    case ir::SNodeOpKind::deactivate:
      where_present([&]() -> Value* {
        for (auto& ch : s.children)
          if (ch->has_sparse_below) unsupported(st, "deactivating " + s.name() + " cells that hold sparse SNodes on the GPU");
        if (s.kind == SNodeKind::pointer) {
          slot_release(s, byte_at(c, B.CreateMul(cell, B.getInt64(8))), st, true);
        } else if (s.kind == SNodeKind::bitmasked) {
          Value* w = byte_at(c, B.CreateAdd(B.getInt64((uint64_t)s.mask_offset), B.CreateMul(B.CreateAShr(cell, 6), B.getInt64(8))));
          Value* bit = B.CreateShl(B.getInt64(1), B.CreateAnd(cell, 63));
          Value* was = B.CreateAtomicRMW(llvm::AtomicRMWInst::And, w, B.CreateNot(bit), llvm::MaybeAlign(8), kAcqRel);
          BasicBlock* zero = new_block("sop.zero");
          BasicBlock* done = new_block("sop.zeroed");
          B.CreateCondBr(B.CreateICmpNE(B.CreateAnd(was, bit), B.getInt64(0)), zero, done);
          B.SetInsertPoint(zero);
          B.CreateMemSet(byte_at(c, B.CreateMul(cell, B.getInt64((uint64_t)s.cell_size))), B.getInt8(0),
                         B.getInt64((uint64_t)s.cell_size), llvm::MaybeAlign(1));
          count_device(s, kDeviceDeactivations);
          B.CreateBr(done);
          B.SetInsertPoint(done);
        } else if (s.kind == SNodeKind::dynamic) {  // the whole list: every chunk, then the length
          int64_t chunks = (s.num_cells() + s.chunk_size - 1) / s.chunk_size;
          BasicBlock* pre = B.GetInsertBlock();
          BasicBlock* body = new_block("sop.chunk");
          BasicBlock* done = new_block("sop.chunks");
          B.CreateBr(body);
          B.SetInsertPoint(body);
          llvm::PHINode* k = B.CreatePHI(i64, 2);
          k->addIncoming(B.getInt64(0), pre);
          slot_release(s, byte_at(c, B.CreateMul(B.CreateAdd(k, B.getInt64(1)), B.getInt64(8))), st, false);
          Value* next = B.CreateAdd(k, B.getInt64(1));
          k->addIncoming(next, B.GetInsertBlock());
          B.CreateCondBr(B.CreateICmpSGE(next, B.getInt64((uint64_t)chunks)), done, body);
          B.SetInsertPoint(done);
          // (An exchange: NVPTX selects no release store.) A list that had
          // cells is one deactivation, as release_container counts it.
          Value* len = B.CreateAtomicRMW(llvm::AtomicRMWInst::Xchg, c, B.getInt64(0), llvm::MaybeAlign(8), kAcqRel);
          BasicBlock* had = new_block("sop.had");
          BasicBlock* emptied = new_block("sop.emptied");
          B.CreateCondBr(B.CreateICmpSGT(len, B.getInt64(0)), had, emptied);
          B.SetInsertPoint(had);
          count_device(s, kDeviceDeactivations);
          B.CreateBr(emptied);
          B.SetInsertPoint(emptied);
        }
        return nullptr;
      });
      break;
    case ir::SNodeOpKind::length:
      result = where_present([&]() -> Value* {
        Value* len = load_relaxed(i64, c);
        Value* cap = B.getInt64((uint64_t)s.num_cells());
        return B.CreateSelect(B.CreateICmpSLT(len, cap), len, cap);
      });
      break;
    case ir::SNodeOpKind::append: {
      // One atomic add, never retried: a full list's length may run past its
      // capacity and every reader clamps it; the caller's bounds check reports it.
      Value* cap = B.getInt64((uint64_t)s.num_cells());
      Value* l = B.CreateAtomicRMW(llvm::AtomicRMWInst::Add, c, B.getInt64(1), llvm::MaybeAlign(8), kAcqRel);
      BasicBlock* room = new_block("append.room");
      BasicBlock* done = new_block("append.done");
      BasicBlock* from = B.GetInsertBlock();
      // (Unsigned: a length is never negative, and LLVM then knows the new
      // cell's is not: its chunk's number is a shift.)
      B.CreateCondBr(B.CreateICmpUGE(l, cap), done, room);
      B.SetInsertPoint(room);
      Value* slot = byte_at(c, B.CreateMul(B.CreateAdd(quot_const(l, s.chunk_size), B.getInt64(1)), B.getInt64(8)));
      Value* cell_at = nullptr;  // the new cell's address (the host's pools)
      if (device_pools) {
        slot_activate(s, slot, st);
      } else {
        // The host's pools (lower_calls.cpp host_append): append_in inline,
        // the runtime called only where the cell's chunk is not made yet
        // (one append in chunk_size), to make it. A call per append cost
        // sparse_lists' fill 1.5x the C++'s time.
        int site = (int)meta.snode_ops.size();
        meta.snode_ops.push_back(SNodeOpSite{st.sop, st.snode, loc});
        BasicBlock* make = new_block("append.chunk");
        BasicBlock* have = new_block("append.have");
        Value* found = load_slot(B.getInt64Ty(), slot);
        BasicBlock* room_end = B.GetInsertBlock();
        B.CreateCondBr(B.CreateICmpEQ(found, B.getInt64(0)), make, have, llvm::MDBuilder(C).createBranchWeights(1, 1 << 10));
        B.SetInsertPoint(make);
        llvm::FunctionCallee fn = M.getOrInsertFunction(
            "kiln_llvm_append_chunk", llvm::FunctionType::get(B.getInt32Ty(), {B.getPtrTy(), B.getInt32Ty(), B.getPtrTy(), i64}, false));
        return_if_failed(B.CreateCall(fn, {env_field(kEnvHost), B.getInt32((uint32_t)site), c, l}));
        Value* made = load_slot(B.getInt64Ty(), slot);
        BasicBlock* made_in = B.GetInsertBlock();
        B.CreateBr(have);
        B.SetInsertPoint(have);
        llvm::PHINode* chunk = B.CreatePHI(i64, 2);
        chunk->addIncoming(found, room_end);
        chunk->addIncoming(made, made_in);
        cell_at = B.CreateInBoundsGEP(B.getInt8Ty(), B.CreateIntToPtr(chunk, B.getPtrTy()),
                                      B.CreateMul(rem_const(l, s.chunk_size), B.getInt64((uint64_t)s.cell_size)));
      }
      BasicBlock* end = B.GetInsertBlock();
      B.CreateBr(done);
      B.SetInsertPoint(done);
      llvm::PHINode* phi = B.CreatePHI(i64, 2);
      phi->addIncoming(cap, from);
      phi->addIncoming(l, end);
      result = phi;
      if (cell_at) {
        llvm::PHINode* at = B.CreatePHI(B.getPtrTy(), 2);
        at->addIncoming(llvm::ConstantPointerNull::get(B.getPtrTy()), from);
        at->addIncoming(cell_at, end);
        append_cells[&st] = at;
      }
      break;
    }
  }
  if (!st.has_value()) return nullptr;
  return from_reg(result ? result : B.getInt64(0), st.type.prim, st);
}

}  // namespace kiln::llvmjit
