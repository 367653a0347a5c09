// Sparse SNode element addresses. Under pointer/bitmasked/dynamic SNodes an
// index has no affine address: a read (no activation) walks the tree inline,
// as Program::locate does (vm/runtime/sparse.cpp), with the layout's
// constants folded in; a cell that is not active reads zeros, as the
// runtime's kZeros. Activation allocates from the runtime's pools and counts
// activations: it calls the runtime (kiln_llvm_sparse) on the CPU, and keeps
// a GPU task on the host. On the GPU the walk is taken where the path has no
// pointer or dynamic level: their blocks are in the runtime's pools, host
// memory, while bitmasked and dense levels are in the tree's (managed) memory.
#include <llvm/IR/MDBuilder.h>

#include "jit/llvm/lower_state.h"
#include "vm/runtime/program.h"

namespace kiln::llvmjit {

using llvm::BasicBlock;
using llvm::Value;

namespace {

bool pooled(SNodeKind k) { return k == SNodeKind::pointer || k == SNodeKind::dynamic; }

// Whether the walk below can take `place`'s path (a quant_array's cells are
// bit slices of one word: the runtime's).
bool walkable(const SNode& place, bool gpu) {
  if (place.kind != SNodeKind::place || place.path.empty() || place.path.back() != &place) return false;
  for (const SNode* s : place.path) {
    if (s->quant_array_bits) return false;
    if (gpu && pooled(s->kind)) return false;
  }
  return true;
}

}  // namespace

bool Gen::cells_in_tree_memory(int snode) const {
  const SNode* s = prog && snode >= 0 ? prog->snode(snode) : nullptr;
  if (!s) return false;
  for (const SNode* l : s->path)
    if (pooled(l->kind)) return false;
  return true;
}

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

Value* Gen::sparse_walk(const SNode& place, const std::vector<Value*>& idx) {
  llvm::Type* i64 = B.getInt64Ty();
  // The physical index: virtual index v on axis physical_index_position[v], 0 elsewhere.
  std::vector<Value*> phys(kMaxIndices, B.getInt64(0));
  for (size_t v = 0; v < place.physical_index_position.size() && v < idx.size(); v++)
    phys[(size_t)place.physical_index_position[v]] = idx[v];
  // Pointers to what other threads may be activating: acquire on the CPU as
  // the runtime loads them; the GPU never activates during a launch.
  auto load = [&](llvm::Type* t, Value* p) {
    llvm::LoadInst* l = B.CreateLoad(t, p);
    l->setAtomic(gpu ? llvm::AtomicOrdering::Monotonic : llvm::AtomicOrdering::Acquire);
    l->setAlignment(llvm::Align(8));
    return l;
  };
  BasicBlock* done = new_block("sparse.done");
  std::vector<std::pair<Value*, BasicBlock*>> ins;
  auto miss_if = [&](Value* missing, Value* instead) {
    BasicBlock* next = new_block("sparse.next");
    ins.push_back({instead, B.GetInsertBlock()});
    B.CreateCondBr(missing, done, next);
    B.SetInsertPoint(next);
  };
  Value* c = tree_base(place.tree, loc);
  for (size_t l = 0; l < place.path.size(); l++) {
    const SNode& s = *place.path[l];
    c = B.CreateInBoundsGEP(B.getInt8Ty(), c, B.getInt64((uint64_t)s.offset_in_cell));
    if (l + 1 == place.path.size()) break;
    Value* cell = B.getInt64(0);
    for (int p : s.split_axes) {
      int64_t ext = s.extent[(size_t)p];
      cell = B.CreateAdd(B.CreateMul(cell, B.getInt64((uint64_t)ext)),
                         rem_const(quot_const(phys[(size_t)p], place.path_below[l][(size_t)p]), ext));
    }
    switch (s.kind) {
      case SNodeKind::pointer: {
        Value* p = load(B.getPtrTy(), B.CreateInBoundsGEP(i64, c, cell));
        miss_if(B.CreateIsNull(p), zeros());
        c = p;
        break;
      }
      case SNodeKind::bitmasked: {
        Value* w = B.CreateInBoundsGEP(i64, B.CreateInBoundsGEP(B.getInt8Ty(), c, B.getInt64((uint64_t)s.mask_offset)),
                                       B.CreateAShr(cell, 6));
        Value* bit = B.CreateShl(B.getInt64(1), B.CreateAnd(cell, 63));
        miss_if(B.CreateICmpEQ(B.CreateAnd(load(i64, w), bit), B.getInt64(0)), zeros());
        c = B.CreateInBoundsGEP(B.getInt8Ty(), c, B.CreateMul(cell, B.getInt64((uint64_t)s.cell_size)));
        break;
      }
      case SNodeKind::dynamic: {
        miss_if(B.CreateICmpSGE(cell, load(i64, c)), zeros());
        Value* slot = B.CreateInBoundsGEP(i64, c, B.CreateAdd(quot_const(cell, s.chunk_size), B.getInt64(1)));
        Value* chunk = load(B.getPtrTy(), slot);
        // A chunk below the length not there yet: another thread is extending
        // the list; the runtime's lookup makes it, as the bytecode's would.
        BasicBlock* have = new_block("sparse.chunk");
        BasicBlock* make = new_block("sparse.make");
        B.CreateCondBr(B.CreateIsNull(chunk), make, have, llvm::MDBuilder(C).createBranchWeights(1, 1 << 20));
        B.SetInsertPoint(make);
        ins.push_back({sparse_call(place.id, false, idx), B.GetInsertBlock()});
        B.CreateBr(done);
        B.SetInsertPoint(have);
        c = B.CreateInBoundsGEP(B.getInt8Ty(), chunk,
                                B.CreateMul(rem_const(cell, s.chunk_size), B.getInt64((uint64_t)s.cell_size)));
        break;
      }
      default: c = B.CreateInBoundsGEP(B.getInt8Ty(), c, B.CreateMul(cell, B.getInt64((uint64_t)s.cell_size))); break;
    }
  }
  ins.push_back({c, B.GetInsertBlock()});
  B.CreateBr(done);
  B.SetInsertPoint(done);
  llvm::PHINode* phi = B.CreatePHI(B.getPtrTy(), (unsigned)ins.size());
  for (auto& [v, from] : ins) phi->addIncoming(v, from);
  return phi;
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
  if (place && !acc.activate && walkable(*place, gpu)) {
    ptr[&s] = sparse_walk(*place, idx);
    return;
  }
  if (gpu) unsupported(s, acc.activate ? "a sparse SNode activation on the GPU" : "a sparse access through pointer or dynamic SNodes on the GPU");
  ptr[&s] = sparse_call(acc.sparse_place, acc.activate, idx);
}

}  // namespace kiln::llvmjit
