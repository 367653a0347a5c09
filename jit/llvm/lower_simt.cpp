// ti.simt on the GPU (NVPTX): block-shared arrays as addrspace(3) globals,
// block barriers as bar.sync (llvm.nvvm.barrier0 and its and/or/popc forms),
// and the subgroup and warp operations as shfl.sync, vote.sync, match.sync
// and activemask. The CPU lowering never sees these statements (the frontend
// refuses ti.simt there).
//
// Blocks: the engine launches a task with ti.loop_config(block_dim=N)'s N
// threads a block (else 128), and the task's grid-stride loop steps by whole
// grids, so iterations k*N .. k*N + N - 1 always run on the threads of one
// block: they share its arrays and barriers, as Taichi's blocks do.
//
// A shared array's element is the dtype's memory form (f16/bf16: 16 bits);
// its accesses go through a generic pointer, so that global_load,
// global_store and atomic take shared_ptr as they take a field's pointer
// (LLVM's address-space inference turns them back into ld/st/atom.shared).
// Indices are checked against the shape: a failed check is reported (an
// IndexError naming the array after the launch) and the thread goes on with
// element 0, so that it still reaches its block's barriers.
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <cmath>

#include "jit/llvm/lower_simt.h"

#include <llvm/IR/MDBuilder.h>

#include "jit/llvm/lower_state.h"
#include "vm/ir/simt.h"
#include "vm/support/diag.h"

namespace kiln::llvmjit {

using ir::SimtOp;
using llvm::Value;

namespace {

// CUDA's static shared memory per block (ptxas refuses more).
constexpr uint64_t kMaxSharedBytes = 48 * 1024;

std::string shared_what(const ir::Stmt& arr) {
  return arr.access->field.empty() ? "shared array" : "shared array '" + arr.access->field + "'";
}

}  // namespace

void lower_shared_array(Gen& g, const ir::Stmt& s) {
  if (!g.gpu) unsupported(s, "a ti.simt shared array off the GPU");
  llvm::IRBuilder<>& B = g.B;
  llvm::Module& M = g.M;
  Prim p = s.type.prim;
  llvm::Type* elem = is_half(p) ? (llvm::Type*)B.getInt16Ty() : g.type(p, &s);
  auto* arr_t = llvm::ArrayType::get(elem, (uint64_t)s.index);
  std::string name = (g.F->getName() + ".shared").str();
  uint64_t bytes = M.getDataLayout().getTypeAllocSize(arr_t);
  for (llvm::GlobalVariable& v : M.globals())  // the task's other arrays
    if (v.getAddressSpace() == 3 && v.getName().starts_with(name)) bytes += M.getDataLayout().getTypeAllocSize(v.getValueType());
  if (bytes > kMaxSharedBytes)
    raise("ValueError",
          "shared arrays of " + std::to_string(bytes) + " bytes in a task: a CUDA block has at most " +
              std::to_string(kMaxSharedBytes) + " bytes of static shared memory",
          s.loc);
  // Not cleared: what a block reads before it writes is undefined, as on every GPU.
  auto* arr = new llvm::GlobalVariable(M, arr_t, false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(arr_t),
                                       name, nullptr, llvm::GlobalValue::NotThreadLocal, 3);
  arr->setAlignment(llvm::Align(16));
  g.ptr[&s] = arr;
}

// Gen::fail_if's report on the GPU, after which the thread goes on (to its
// block's barriers) instead of returning.
static void report_if(Gen& g, Value* failed, Check c, const std::vector<Value*>& regs) {
  llvm::IRBuilder<>& B = g.B;
  int id = (int)g.meta.checks.size();
  g.meta.checks.push_back(std::move(c));
  llvm::BasicBlock* bad = g.new_block("fail");
  llvm::BasicBlock* ok = g.new_block("ok");
  B.CreateCondBr(failed, bad, ok, llvm::MDBuilder(g.C).createBranchWeights(1, 1 << 20));
  B.SetInsertPoint(bad);
  Value* buf = g.reg_array(regs);
  llvm::FunctionCallee fn = g.M.getOrInsertFunction(
      "kiln_gpu_fail", llvm::FunctionType::get(B.getVoidTy(), {B.getPtrTy(), B.getInt64Ty(), B.getInt32Ty(), B.getPtrTy(),
                                                              B.getInt32Ty(), B.getInt64Ty()}, false));
  B.CreateCall(fn, {g.env_field(kEnvHost), g.env_field(kEnvTaskNo), B.getInt32(id), buf, B.getInt32((uint32_t)regs.size()),
                    g.log_key()});
  B.CreateBr(ok);
  B.SetInsertPoint(ok);
}

void lower_shared_ptr(Gen& g, const ir::Stmt& s) {
  llvm::IRBuilder<>& B = g.B;
  const ir::Stmt* arr = s.ops[0];
  auto it = g.ptr.find(arr);
  auto* var = it == g.ptr.end() ? nullptr : llvm::dyn_cast<llvm::GlobalVariable>(it->second);
  if (!var) unsupported(s, "a shared array made outside this task");
  const std::vector<int64_t>& shape = arr->access->shape;
  if (shape.size() + 1 != s.ops.size()) unsupported(s, "a shared array indexed with the wrong number of indices");
  Value* flat = B.getInt64(0);
  Value* ok = nullptr;
  for (size_t a = 0; a < shape.size(); a++) {
    const ir::Stmt* i = s.ops[a + 1];
    Value* v = g.to_reg(g.val.at(i), i->type.prim);  // sign-extended: a negative index is past the end unsigned
    Value* in = B.CreateICmpULT(v, B.getInt64((uint64_t)shape[a]));
    Check c;
    c.kind = Check::bounds;
    c.loc = s.loc.known() ? s.loc : g.loc;
    c.field = arr->access->field;
    c.text = shared_what(*arr);
    c.axis = (int)a;
    c.shape = shape;
    report_if(g, B.CreateNot(in), c, {v});
    ok = ok ? B.CreateAnd(ok, in) : in;
    flat = B.CreateAdd(B.CreateMul(flat, B.getInt64((uint64_t)shape[a])), v);
  }
  Value* index = B.CreateAdd(B.CreateMul(flat, B.getInt64((uint64_t)arr->access->ext_comps)), B.getInt64((uint64_t)s.index));
  if (ok) index = B.CreateSelect(ok, index, B.getInt64(0));  // after a failed check: element 0
  Value* at = B.CreateInBoundsGEP(var->getValueType(), var, {B.getInt64(0), index});
  g.ptr[&s] = B.CreateAddrSpaceCast(at, B.getPtrTy());
}

namespace {

using llvm::Intrinsic::ID;

// shfl.sync of one 32-bit word.
Value* shfl_word(llvm::IRBuilder<>& B, SimtOp op, Value* mask, Value* word, Value* lane) {
  ID id = op == SimtOp::shuffle_xor    ? llvm::Intrinsic::nvvm_shfl_sync_bfly_i32
          : op == SimtOp::shuffle_up   ? llvm::Intrinsic::nvvm_shfl_sync_up_i32
          : op == SimtOp::shuffle_down ? llvm::Intrinsic::nvvm_shfl_sync_down_i32
                                       : llvm::Intrinsic::nvvm_shfl_sync_idx_i32;
  // c: the lane clamp (31 for a whole warp; 0 for up, whose lower bound it is).
  Value* c = B.getInt32(op == SimtOp::shuffle_up ? 0 : 31);
  return B.CreateIntrinsic(id, {}, {mask, word, lane, c});
}

}  // namespace

// A value of any width through shfl.sync: 64-bit values as two words,
// narrower ones widened to a word (f16/bf16 are f32 registers here).
static Value* shuffle(llvm::IRBuilder<>& B, SimtOp op, Value* mask, Value* x, Prim p, Value* lane) {
  llvm::Type* t = x->getType();
  if (prim_bits(p) == 64) {
    Value* bits = t->isIntegerTy() ? x : B.CreateBitCast(x, B.getInt64Ty());
    Value* lo = shfl_word(B, op, mask, B.CreateTrunc(bits, B.getInt32Ty()), lane);
    Value* hi = shfl_word(B, op, mask, B.CreateTrunc(B.CreateLShr(bits, 32), B.getInt32Ty()), lane);
    Value* r = B.CreateOr(B.CreateZExt(lo, B.getInt64Ty()), B.CreateShl(B.CreateZExt(hi, B.getInt64Ty()), 32));
    return t->isIntegerTy() ? r : B.CreateBitCast(r, t);
  }
  if (t->isFloatTy()) return B.CreateBitCast(shfl_word(B, op, mask, B.CreateBitCast(x, B.getInt32Ty()), lane), t);
  if (t->getIntegerBitWidth() < 32) return B.CreateTrunc(shfl_word(B, op, mask, B.CreateZExt(x, B.getInt32Ty()), lane), t);
  return shfl_word(B, op, mask, x, lane);
}

// A subgroup reduction or scan over the active lanes, whichever they are:
// each lane reads every lane's value in turn (32 shuffles in a loop) and
// combines those of the active lanes (a scan: those below it, and its own
// for an inclusive one), starting from the op's identity.
static Value* scan(Gen& g, const ir::Stmt& s, SimtOp op, Value* x, Prim p) {
  llvm::IRBuilder<>& B = g.B;
  llvm::Type* t = x->getType();
  Value* identity = nullptr;
  int bits = prim_bits(p);
  bool f = prim_is_float(p), sg = prim_is_signed(p);
  switch (s.aop) {
    case ir::AtomicOp::mul: identity = f ? g.const_float(p, 1) : g.const_int(p, 1); break;
    case ir::AtomicOp::min:
      identity = f ? g.const_float(p, INFINITY)
                   : llvm::ConstantInt::get(t, sg ? llvm::APInt::getSignedMaxValue(bits) : llvm::APInt::getMaxValue(bits));
      break;
    case ir::AtomicOp::max:
      identity = f ? g.const_float(p, -INFINITY)
                   : llvm::ConstantInt::get(t, sg ? llvm::APInt::getSignedMinValue(bits) : llvm::APInt::getMinValue(bits));
      break;
    case ir::AtomicOp::bit_and: identity = llvm::ConstantInt::get(t, llvm::APInt::getAllOnes(bits)); break;
    default: identity = f ? g.const_float(p, 0) : g.const_int(p, 0); break;  // add, or, xor
  }
  Value* mask = B.CreateIntrinsic(llvm::Intrinsic::nvvm_activemask, {}, {});
  Value* lane = B.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_laneid, {}, {});
  llvm::BasicBlock* pre = B.GetInsertBlock();
  llvm::BasicBlock* head = g.new_block("subgroup.scan");
  llvm::BasicBlock* done = g.new_block("subgroup.scan.done");
  B.CreateBr(head);
  B.SetInsertPoint(head);
  llvm::PHINode* k = B.CreatePHI(B.getInt32Ty(), 2);
  llvm::PHINode* acc = B.CreatePHI(t, 2);
  k->addIncoming(B.getInt32(0), pre);
  acc->addIncoming(identity, pre);
  Value* v = shuffle(B, SimtOp::shuffle, mask, x, p, k);
  Value* take = B.CreateICmpNE(B.CreateAnd(B.CreateLShr(mask, k), B.getInt32(1)), B.getInt32(0));
  if (op != SimtOp::reduce)
    take = B.CreateAnd(take, op == SimtOp::inclusive ? B.CreateICmpULE(k, lane) : B.CreateICmpULT(k, lane));
  Value* next = B.CreateSelect(take, g.binary_op(ir::binary_of(s.aop), p, acc, v, s), acc);
  Value* k1 = B.CreateAdd(k, B.getInt32(1));
  k->addIncoming(k1, B.GetInsertBlock());
  acc->addIncoming(next, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpULT(k1, B.getInt32(32)), head, done);
  B.SetInsertPoint(done);
  return next;
}

Value* lower_simt(Gen& g, const ir::Stmt& s) {
  if (!g.gpu) unsupported(s, "a ti.simt operation off the GPU");
  llvm::IRBuilder<>& B = g.B;
  auto to_bool = [&](Value* v, Prim p) { return g.to_bool(v, p); };
  auto from_bool = [&](Value* v, Prim p) { return g.from_bool(v, p); };
  auto op = (SimtOp)s.index;
  std::string what = std::string("ti.simt ") + ir::simt_op_name(op);
  auto sreg = [&](ID id) { return B.CreateIntrinsic(id, {}, {}); };
  auto active = [&] { return sreg(llvm::Intrinsic::nvvm_activemask); };
  // The warp forms carry their member mask last; the subgroup forms act on
  // the threads that are active.
  bool warp_form = false;
  switch (op) {
    case SimtOp::shuffle: case SimtOp::shuffle_xor: case SimtOp::shuffle_up: case SimtOp::shuffle_down:
    case SimtOp::broadcast: warp_form = s.ops.size() == 3; break;
    case SimtOp::all_true: case SimtOp::any_true: case SimtOp::all_equal: warp_form = s.ops.size() == 2; break;
    case ir::kSimtMatchAny: case ir::kSimtMatchAll: warp_form = true; break;
    default: break;
  }
  Value* mask = warp_form ? g.val.at(s.ops.back()) : nullptr;
  auto member_mask = [&] { return mask ? mask : active(); };
  Prim p = s.ops.empty() ? Prim::i32 : s.ops[0]->type.prim;
  Value* x = s.ops.empty() ? nullptr : g.val.at(s.ops[0]);
  auto i32_result = [&](Value* b) { return from_bool(b, Prim::i32); };
  switch (op) {
    case SimtOp::block_sync: B.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {}); return nullptr;
    case SimtOp::block_mem_sync:
    case SimtOp::subgroup_memory_barrier: B.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_cta, {}, {}); return nullptr;
    case SimtOp::subgroup_barrier: B.CreateIntrinsic(llvm::Intrinsic::nvvm_bar_warp_sync, {}, {active()}); return nullptr;
    case ir::kSimtWarpSync: B.CreateIntrinsic(llvm::Intrinsic::nvvm_bar_warp_sync, {}, {g.val.at(s.ops[0])}); return nullptr;
    case ir::kSimtSyncAll:
    case ir::kSimtSyncAny:
    case ir::kSimtSyncCount: {
      ID id = op == ir::kSimtSyncAll   ? llvm::Intrinsic::nvvm_barrier0_and
              : op == ir::kSimtSyncAny ? llvm::Intrinsic::nvvm_barrier0_or
                                               : llvm::Intrinsic::nvvm_barrier0_popc;
      Value* r = B.CreateIntrinsic(id, {}, {from_bool(to_bool(x, p), Prim::i32)});
      return op == ir::kSimtSyncCount ? r : i32_result(B.CreateICmpNE(r, B.getInt32(0)));
    }
    case SimtOp::thread_idx: return sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x);
    case SimtOp::global_thread_idx:
      return B.CreateAdd(B.CreateMul(sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x),
                                     sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x)),
                         sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x));
    case SimtOp::group_size: return sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_warpsize);
    case SimtOp::invocation_id: return sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_laneid);
    case ir::kSimtActiveMask: return active();
    case SimtOp::elect: {  // the lowest active lane
      Value* first = B.CreateIntrinsic(llvm::Intrinsic::cttz, {B.getInt32Ty()}, {active(), B.getTrue()});
      return i32_result(B.CreateICmpEQ(sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_laneid), first));
    }
    case SimtOp::all_true:
    case SimtOp::any_true:
      return i32_result(B.CreateIntrinsic(op == SimtOp::all_true ? llvm::Intrinsic::nvvm_vote_all_sync
                                                                 : llvm::Intrinsic::nvvm_vote_any_sync,
                                          {}, {member_mask(), to_bool(x, p)}));
    case ir::kSimtBallot: return B.CreateIntrinsic(llvm::Intrinsic::nvvm_vote_ballot_sync, {}, {active(), to_bool(x, p)});
    case SimtOp::all_equal: {  // every member's value equals the first member's (floats: as ==)
      Value* m = member_mask();
      if (warp_form) {  // warp.unique: the predicates' truth
        x = from_bool(to_bool(x, p), Prim::i32);
        p = Prim::i32;
      }
      Value* first = B.CreateIntrinsic(llvm::Intrinsic::cttz, {B.getInt32Ty()}, {m, B.getTrue()});
      Value* y = shuffle(B, SimtOp::shuffle, m, x, p, first);
      Value* eq = prim_is_float(p) ? B.CreateFCmpOEQ(x, y) : B.CreateICmpEQ(x, y);
      return i32_result(B.CreateIntrinsic(llvm::Intrinsic::nvvm_vote_all_sync, {}, {m, eq}));
    }
    case SimtOp::broadcast_first: {
      Value* m = active();
      return shuffle(B, SimtOp::shuffle, m, x, p, B.CreateIntrinsic(llvm::Intrinsic::cttz, {B.getInt32Ty()}, {m, B.getTrue()}));
    }
    case SimtOp::broadcast:
    case SimtOp::shuffle:
    case SimtOp::shuffle_xor:
    case SimtOp::shuffle_up:
    case SimtOp::shuffle_down:
      return shuffle(B, op == SimtOp::broadcast ? SimtOp::shuffle : op, member_mask(), x, p, g.val.at(s.ops[1]));
    case ir::kSimtMatchAny:
    case ir::kSimtMatchAll: {  // the members holding the same bits (match_all: the mask when all do, else 0)
      bool wide = prim_bits(p) == 64;
      Value* bits = x->getType()->isIntegerTy() ? x : B.CreateBitCast(x, wide ? B.getInt64Ty() : B.getInt32Ty());
      if (!wide && bits->getType()->getIntegerBitWidth() < 32) bits = B.CreateZExt(bits, B.getInt32Ty());
      if (op == ir::kSimtMatchAny)
        return B.CreateIntrinsic(wide ? llvm::Intrinsic::nvvm_match_any_sync_i64 : llvm::Intrinsic::nvvm_match_any_sync_i32,
                                 {}, {mask, bits});
      Value* r = B.CreateIntrinsic(wide ? llvm::Intrinsic::nvvm_match_all_sync_i64p : llvm::Intrinsic::nvvm_match_all_sync_i32p,
                                   {}, {mask, bits});
      return B.CreateExtractValue(r, {0});
    }
    case SimtOp::reduce:
    case SimtOp::inclusive:
    case SimtOp::exclusive: return scan(g, s, op, x, p);
    default: unsupported(s, what + " on CUDA");
  }
}

}  // namespace kiln::llvmjit
