// Sparse SNode element addresses. Under pointer/bitmasked/dynamic SNodes an
// index has no affine address: a read (no activation) walks the tree inline,
// as Program::locate does (vm/runtime/sparse.cpp), with the layout's
// constants folded in; a cell that is not active reads zeros, as the
// runtime's kZeros. On the CPU activation allocates from the runtime's pools
// and counts activations: it calls the runtime (kiln_llvm_sparse). On the GPU
// the walk activates too: pointer and dynamic blocks come from device pools
// in the tree's own (managed) memory, allocated by the task's code
// (lower_pools.cpp).
#include <llvm/IR/MDBuilder.h>

#include "jit/llvm/lower_state.h"
#include "vm/runtime/program.h"

namespace kiln::llvmjit {

using llvm::BasicBlock;
using llvm::Value;

namespace {

// Whether the walk below can take `place`'s path (a quant_array's cells are
// bit slices of one word: the runtime's).
bool walkable(const SNode& place) {
  if (place.kind != SNodeKind::place || place.path.empty() || place.path.back() != &place) return false;
  for (const SNode* s : place.path)
    if (s->quant_array_bits) return false;
  return true;
}

}  // namespace

// C division and remainder by a layout constant (the runtime's quot and rem).
Value* Gen::quot_const(Value* a, int64_t b) { return b == 1 ? a : B.CreateSDiv(a, B.getInt64((uint64_t)b)); }
Value* Gen::rem_const(Value* a, int64_t b) { return b == 1 ? B.getInt64(0) : B.CreateSRem(a, B.getInt64((uint64_t)b)); }

Value* Gen::zeros() {
  llvm::GlobalVariable* z = M.getGlobalVariable("kiln_zeros", true);
  if (!z) {
    auto* t = llvm::ArrayType::get(B.getInt8Ty(), 64);
    z = new llvm::GlobalVariable(M, t, true, llvm::GlobalValue::PrivateLinkage, llvm::Constant::getNullValue(t),
                                 "kiln_zeros");
    z->setAlignment(llvm::Align(64));
  }
  return z;
}

Value* Gen::finish_walk(Walk& w, Value* v) {
  w.ins.push_back({v, B.GetInsertBlock()});
  B.CreateBr(w.done);
  B.SetInsertPoint(w.done);
  llvm::PHINode* phi = B.CreatePHI(B.getPtrTy(), (unsigned)w.ins.size());
  for (auto& [x, from] : w.ins) phi->addIncoming(x, from);
  return phi;
}

// Pointers to what other threads may be activating: acquire on the CPU as
// the runtime loads them; relaxed on the GPU (NVPTX), whose activations
// publish a slot with an atomic exchange.
Value* Gen::load_slot(llvm::Type* t, Value* p) {
  llvm::LoadInst* l = B.CreateLoad(t, p);
  l->setAtomic(gpu ? llvm::AtomicOrdering::Monotonic : llvm::AtomicOrdering::Acquire);
  l->setAlignment(llvm::Align(8));
  return l;
}

Value* Gen::enter_cell(const SNode& s, Value* c, Value* cell, bool activate, Walk& w,
                       const std::vector<Value*>* idx, const ir::Stmt& at) {
  llvm::Type* i64 = B.getInt64Ty();
  auto miss_if = [&](Value* missing) {
    BasicBlock* next = new_block("sparse.next");
    w.ins.push_back({w.miss, B.GetInsertBlock()});
    B.CreateCondBr(missing, w.done, next);
    B.SetInsertPoint(next);
  };
  switch (s.kind) {
    case SNodeKind::pointer: {
      Value* slot = B.CreateInBoundsGEP(i64, c, cell);
      if (activate) return slot_activate(s, slot, at);
      // A slot of 1 is being filled on the GPU (lower_pools.cpp): not active yet.
      Value* p = load_slot(i64, slot);
      miss_if(B.CreateICmpULE(p, B.getInt64(1)));
      return B.CreateIntToPtr(p, B.getPtrTy());
    }
    case SNodeKind::bitmasked: {
      Value* word = B.CreateInBoundsGEP(i64, B.CreateInBoundsGEP(B.getInt8Ty(), c, B.getInt64((uint64_t)s.mask_offset)),
                                        B.CreateAShr(cell, 6));
      Value* bit = B.CreateShl(B.getInt64(1), B.CreateAnd(cell, 63));
      if (activate) {
        // Activating walks are device pools' (the CPU's call the runtime):
        // a bit that was clear counts in the tree's device counters.
        Value* was = B.CreateAtomicRMW(llvm::AtomicRMWInst::Or, word, bit, llvm::MaybeAlign(8), llvm::AtomicOrdering::AcquireRelease);
        BasicBlock* set = new_block("sparse.set");
        BasicBlock* next = new_block("sparse.bit");
        B.CreateCondBr(B.CreateICmpEQ(B.CreateAnd(was, bit), B.getInt64(0)), set, next);
        B.SetInsertPoint(set);
        count_device(s, kDeviceActivations);
        B.CreateBr(next);
        B.SetInsertPoint(next);
      } else
        miss_if(B.CreateICmpEQ(B.CreateAnd(load_slot(i64, word), bit), B.getInt64(0)));
      return B.CreateInBoundsGEP(B.getInt8Ty(), c, B.CreateMul(cell, B.getInt64((uint64_t)s.cell_size)));
    }
    case SNodeKind::dynamic: {
      Value* chunk;
      if (activate) {
        chunk = dynamic_extend(s, c, cell, at);
      } else {
        miss_if(B.CreateICmpSGE(cell, load_slot(i64, c)));
        Value* slot = B.CreateInBoundsGEP(i64, c, B.CreateAdd(quot_const(cell, s.chunk_size), B.getInt64(1)));
        Value* bits = load_slot(i64, slot);
        // A chunk below the length not there yet: another thread is extending
        // the list. With device pools it reads as inactive; else the runtime's
        // lookup makes it, as the bytecode's would.
        if (!idx) {
          miss_if(B.CreateICmpULE(bits, B.getInt64(1)));
        } else {
          BasicBlock* have = new_block("sparse.chunk");
          BasicBlock* make = new_block("sparse.make");
          B.CreateCondBr(B.CreateICmpEQ(bits, B.getInt64(0)), make, have, llvm::MDBuilder(C).createBranchWeights(1, 1 << 20));
          B.SetInsertPoint(make);
          w.ins.push_back({sparse_call(at.access->sparse_place, false, *idx), B.GetInsertBlock()});
          B.CreateBr(w.done);
          B.SetInsertPoint(have);
        }
        chunk = B.CreateIntToPtr(bits, B.getPtrTy());
      }
      return B.CreateInBoundsGEP(B.getInt8Ty(), chunk,
                                 B.CreateMul(rem_const(cell, s.chunk_size), B.getInt64((uint64_t)s.cell_size)));
    }
    default: return B.CreateInBoundsGEP(B.getInt8Ty(), c, B.CreateMul(cell, B.getInt64((uint64_t)s.cell_size)));
  }
}

Value* Gen::sparse_walk(const SNode& target, const std::vector<Value*>& phys, bool activate, Value* miss,
                        const std::vector<Value*>* idx, const ir::Stmt& at) {
  Walk w{new_block("sparse.done"), {}, miss};
  Value* c = tree_base(target.tree, loc);
  for (size_t l = 0; l < target.path.size(); l++) {
    const SNode& s = *target.path[l];
    c = B.CreateInBoundsGEP(B.getInt8Ty(), c, B.getInt64((uint64_t)s.offset_in_cell));
    if (l + 1 == target.path.size()) break;
    c = enter_cell(s, c, cell_index(s, target.path_below[l], phys), activate, w, idx, at);
  }
  return finish_walk(w, c);
}

// The runtime's lookup (activating when asked); returns from the task after
// an error.
Value* Gen::sparse_call(int place, bool activate, const std::vector<Value*>& idx) {
  llvm::FunctionCallee fn = M.getOrInsertFunction(
      "kiln_llvm_sparse", llvm::FunctionType::get(B.getPtrTy(), {B.getPtrTy(), B.getInt32Ty(), B.getInt32Ty(),
                                                                  B.getInt32Ty(), B.getPtrTy()}, false));
  Value* p = B.CreateCall(fn, {env_field(kEnvHost), B.getInt32((uint32_t)place), B.getInt32(activate ? 1 : 0),
                               B.getInt32((uint32_t)idx.size()), reg_array(idx)});
  return_if_failed(p);
  return p;
}

void Gen::sparse_ptr(const ir::Stmt& s, const std::vector<Value*>& idx) {
  const ir::Access& acc = s.access;
  const SNode* place = prog ? prog->snode(acc.sparse_place) : nullptr;
  // Device pools (the GPU's; lower_pools.cpp): the task walks and activates
  // in its own code. Else it calls the runtime to activate (its pools are
  // the runtime's slabs).
  if (place && (!acc.activate || device_pools) && walkable(*place)) {
    // The physical index: virtual index v on axis physical_index_position[v], 0 elsewhere.
    std::vector<Value*> phys(kMaxIndices, B.getInt64(0));
    for (size_t v = 0; v < place->physical_index_position.size() && v < idx.size(); v++)
      phys[(size_t)place->physical_index_position[v]] = idx[v];
    ptr[&s] = sparse_walk(*place, phys, acc.activate, zeros(), device_pools ? nullptr : &idx, s);
    return;
  }
  if (place && !gpu && walkable(*place)) {
    // Activating on the host: the walk inline, the runtime only where it
    // misses (activating an active cell changes nothing). sparse_lists'
    // fill wrote each appended value through the runtime's lookup.
    std::vector<Value*> phys(kMaxIndices, B.getInt64(0));
    for (size_t v = 0; v < place->physical_index_position.size() && v < idx.size(); v++)
      phys[(size_t)place->physical_index_position[v]] = idx[v];
    Value* found = sparse_walk(*place, phys, false, llvm::ConstantPointerNull::get(B.getPtrTy()), &idx, s);
    BasicBlock* from = B.GetInsertBlock();
    BasicBlock* miss = new_block("sparse.activate");
    BasicBlock* done = new_block("sparse.active");
    B.CreateCondBr(B.CreateIsNull(found), miss, done, llvm::MDBuilder(C).createBranchWeights(1, 1 << 10));
    B.SetInsertPoint(miss);
    Value* made = sparse_call(acc.sparse_place, true, idx);
    BasicBlock* made_in = B.GetInsertBlock();
    B.CreateBr(done);
    B.SetInsertPoint(done);
    llvm::PHINode* p = B.CreatePHI(B.getPtrTy(), 2);
    p->addIncoming(found, from);
    p->addIncoming(made, made_in);
    ptr[&s] = p;
    return;
  }
  if (gpu) unsupported(s, "a sparse access under a quant array on the GPU");
  ptr[&s] = sparse_call(acc.sparse_place, acc.activate, idx);
}

}  // namespace kiln::llvmjit
