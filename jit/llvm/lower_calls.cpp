// The statements whose code calls the runtime (engine.cpp): failed checks,
// Ctrl-C polls, prints, asserts and SNode operations;
// and ti.random, whose stream is inline code, and autodiff tapes (inline
// stacks whose only runtime call is the overflow error). A call that fails has recorded
// the user's error: the task returns 1 and the engine raises it.
#include <limits>

#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/MDBuilder.h>

#include "jit/llvm/lower_state.h"
#include "vm/runtime/program.h"

namespace kiln::llvmjit {

using llvm::BasicBlock;
using llvm::Value;
using ir::StmtKind;

void Gen::fail_if(Value* failed, Check c, const std::vector<Value*>& regs) {
  int id = (int)meta.checks.size();
  meta.checks.push_back(std::move(c));
  BasicBlock* bad = new_block("fail");
  BasicBlock* ok = new_block("ok");
  B.CreateCondBr(failed, bad, ok, llvm::MDBuilder(C).createBranchWeights(1, 1 << 20));
  B.SetInsertPoint(bad);
  Value* buf = reg_array(regs);
  if (gpu) {
    llvm::FunctionCallee fn = M.getOrInsertFunction(
        "kiln_gpu_fail", llvm::FunctionType::get(B.getVoidTy(), {B.getPtrTy(), B.getInt64Ty(), B.getInt32Ty(), B.getPtrTy(),
                                                                B.getInt32Ty(), B.getInt64Ty()}, false));
    B.CreateCall(fn, {env_field(kEnvHost), env_field(kEnvTaskNo), B.getInt32(id), buf, B.getInt32((uint32_t)regs.size()),
                      log_key()});
  } else {
    llvm::FunctionCallee fn = M.getOrInsertFunction(
        "kiln_llvm_fail", llvm::FunctionType::get(B.getVoidTy(), {B.getPtrTy(), B.getInt32Ty(), B.getPtrTy()}, false));
    B.CreateCall(fn, {env_field(kEnvHost), B.getInt32(id), buf});
  }
  B.CreateRet(B.getInt32(1));
  B.SetInsertPoint(ok);
}

Value* Gen::log_key() {
  if (in_func) return env_field(kEnvCallKey);  // the calling iteration's
  auto it = task_stmt ? loops.find(task_stmt) : loops.end();
  if (it == loops.end() || !it->second.var) return B.getInt64((uint64_t)-1);
  return B.CreateLoad(B.getInt64Ty(), it->second.var);  // the GPU's task loops count in i64
}

std::pair<Value*, Value*> Gen::grid_position() {
  auto sreg = [&](llvm::Intrinsic::ID id) { return B.CreateZExt(B.CreateIntrinsic(id, {}, {}), B.getInt64Ty()); };
  Value* block = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x);
  Value* width = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x);
  Value* lane = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x);
  Value* blocks = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x);
  return {B.CreateAdd(B.CreateMul(block, width), lane), B.CreateMul(blocks, width)};
}

// A device task cannot be interrupted from the host: Ctrl-C lands when the
// launch returns.
void Gen::poll_interrupt(SourceLoc at) {
  if (gpu) return;
  llvm::LoadInst* flag = B.CreateLoad(B.getInt8Ty(), env_field(kEnvStop));
  flag->setAtomic(llvm::AtomicOrdering::Monotonic);
  flag->setAlignment(llvm::Align(1));
  Check c;
  c.kind = Check::interrupt;
  c.loc = at;
  fail_if(B.CreateICmpNE(flag, B.getInt8(0)), c, {});
}

void Gen::print(const ir::Stmt& s) {
  PrintSite site;
  site.loc = loc;
  std::vector<Value*> regs;
  for (const ir::PrintPart& part : s.rare().print_parts) {
    ir::PrintPart q = part;
    if (part.is_value) {
      if (part.op < 0 || part.op >= (int)s.ops.size()) unsupported(s, "a print part naming a missing operand");
      const ir::Stmt* o = s.ops[(size_t)part.op];
      type(o->type.prim, &s);
      q.op = (int)regs.size();
      site.prims.push_back(o->type.prim);
      regs.push_back(to_reg(val.at(o), o->type.prim));
    }
    site.parts.push_back(std::move(q));
  }
  int id = (int)meta.prints.size();
  meta.prints.push_back(std::move(site));
  Value* buf = reg_array(regs);
  if (gpu) {  // a record in the device log; the host formats it after the launch
    llvm::FunctionCallee fn = M.getOrInsertFunction(
        "kiln_gpu_print", llvm::FunctionType::get(B.getVoidTy(), {B.getPtrTy(), B.getInt64Ty(), B.getInt32Ty(), B.getPtrTy(),
                                                                 B.getInt32Ty(), B.getInt64Ty()}, false));
    B.CreateCall(fn, {env_field(kEnvHost), env_field(kEnvTaskNo), B.getInt32(id), buf,
                      B.getInt32((uint32_t)regs.size()), log_key()});
    return;
  }
  llvm::FunctionCallee fn = M.getOrInsertFunction(
      "kiln_llvm_print", llvm::FunctionType::get(B.getInt32Ty(), {B.getPtrTy(), B.getInt32Ty(), B.getPtrTy()}, false));
  return_if_failed(B.CreateCall(fn, {env_field(kEnvHost), B.getInt32(id), buf}));
}

Value* Gen::reg_array(const std::vector<Value*>& regs) {
  Value* buf = scratch(regs.size());
  for (size_t i = 0; i < regs.size(); i++) B.CreateStore(regs[i], B.CreateConstInBoundsGEP1_64(B.getInt64Ty(), buf, i));
  return buf;
}

void Gen::return_if_failed(Value* rc) {
  BasicBlock* bad = new_block("call.fail");
  BasicBlock* ok = new_block("call.ok");
  Value* failed = rc->getType()->isPointerTy() ? B.CreateIsNull(rc) : B.CreateICmpNE(rc, llvm::ConstantInt::get(rc->getType(), 0));
  B.CreateCondBr(failed, bad, ok, llvm::MDBuilder(C).createBranchWeights(1, 1 << 20));
  B.SetInsertPoint(bad);
  B.CreateRet(B.getInt32(1));
  B.SetInsertPoint(ok);
}

// A ti.append into a list whose levels above are dense: the container's
// address and the length's atomic add inline (lower_pools.cpp), the runtime
// called only to make a new chunk, in place of Program::snode_op's lookup
// from the indices, which cost sparse_lists' fill twice the JIT's time (the
// JIT's trace walks the same way: jit/sparse_walk.cpp).
static bool host_append(const ir::Stmt& s, const Program* prog) {
  const SNode* n = prog && s.sop == ir::SNodeOpKind::append ? prog->snode(s.snode) : nullptr;
  if (!n || n->kind != SNodeKind::dynamic || n->path.empty() || n->path.back() != n) return false;
  for (const SNode* l : n->path)
    if (l->quant_array_bits || (l != n && l->kind != SNodeKind::root && l->kind != SNodeKind::dense)) return false;
  return true;
}

Value* Gen::snode_op(const ir::Stmt& s) {
  if (device_pools || host_append(s, prog)) return device_snode_op(s);
  int id = (int)meta.snode_ops.size();
  meta.snode_ops.push_back(SNodeOpSite{s.sop, s.snode, loc});
  std::vector<Value*> regs;
  for (const ir::Stmt* o : s.ops) {
    type(o->type.prim, &s);
    regs.push_back(to_reg(val.at(o), o->type.prim));
  }
  Value* out = scratch(1);
  llvm::FunctionCallee fn = M.getOrInsertFunction(
      "kiln_llvm_snode_op", llvm::FunctionType::get(B.getInt32Ty(), {B.getPtrTy(), B.getInt32Ty(), B.getInt32Ty(),
                                                                     B.getPtrTy(), B.getPtrTy()}, false));
  return_if_failed(B.CreateCall(fn, {env_field(kEnvHost), B.getInt32((uint32_t)id), B.getInt32((uint32_t)regs.size()),
                                     reg_array(regs), out}));
  if (!s.has_value()) return nullptr;
  if (!prim_is_int(s.type.prim)) unsupported(s, "an SNode operation with a float result");
  return from_reg(B.CreateLoad(B.getInt64Ty(), out), s.type.prim, s);
}

// SplitMix64's finalizer (vm/runtime/rng.h rng_mix).
Value* Gen::rng_mix(Value* z) {
  z = B.CreateMul(B.CreateXor(z, B.CreateLShr(z, 30)), B.getInt64(0xbf58476d1ce4e5b9ull));
  z = B.CreateMul(B.CreateXor(z, B.CreateLShr(z, 27)), B.getInt64(0x94d049bb133111ebull));
  return B.CreateXor(z, B.CreateLShr(z, 31));
}

Value* Gen::rng_stream() {
  if (!rng) {
    llvm::Type* i64 = B.getInt64Ty();
    rng = EB.CreateAlloca(i64, B.getInt64(2));  // [index, state]; the key is the Env's
    EB.CreateStore(B.getInt64((uint64_t)std::numeric_limits<int64_t>::min()), rng);  // no index yet
    EB.CreateStore(B.getInt64(0), EB.CreateConstInBoundsGEP1_64(i64, rng, 1));
  }
  return rng;
}

// A draw of ti.random (rng.h rng_next + rng_to_reg): the stream lives in
// three words set up once per call of the task (as the bytecode's rng_init
// at function entry); a new iteration index starts afresh.
Value* Gen::random(const ir::Stmt& s) {
  Prim p = s.type.prim;
  if (p != Prim::f32 && p != Prim::f64 && p != Prim::i32 && p != Prim::u32 && p != Prim::i64 && p != Prim::u64)
    unsupported(s, std::string("ti.random of ") + std::string(prim_name(p)));
  llvm::Type* i64 = B.getInt64Ty();
  Value* stream = rng_stream();
  Value* idx = to_reg(val.at(s.ops[0]), s.ops[0]->type.prim);
  Value* state_p = B.CreateConstInBoundsGEP1_64(i64, stream, 1);
  Value* fresh = B.CreateICmpNE(idx, B.CreateLoad(i64, stream));
  Value* reset = rng_mix(B.CreateXor(env_field(kEnvRngKey), rng_mix(idx)));
  Value* st = B.CreateSelect(fresh, reset, B.CreateLoad(i64, state_p));
  st = B.CreateAdd(st, B.getInt64(0x9e3779b97f4a7c15ull));
  B.CreateStore(idx, stream);
  B.CreateStore(st, state_p);
  Value* bits = rng_mix(st);
  switch (p) {  // floats uniform in [0, 1) from the top 24 / 53 bits, ints the full range
    case Prim::f32:
      return B.CreateFMul(B.CreateUIToFP(B.CreateLShr(bits, 40), B.getFloatTy()), const_float(p, 0x1.0p-24));
    case Prim::f64:
      return B.CreateFMul(B.CreateUIToFP(B.CreateLShr(bits, 11), B.getDoubleTy()), const_float(p, 0x1.0p-53));
    case Prim::i32:
    case Prim::u32: return B.CreateTrunc(B.CreateLShr(bits, 32), B.getInt32Ty());
    default: return bits;
  }
}

void Gen::assert_(const ir::Stmt& s) {
  Check c;
  c.kind = Check::assertion;
  c.loc = loc;
  c.text = s.rare().text;
  std::vector<Value*> regs;
  for (size_t i = 1; i < s.ops.size(); i++) {
    type(s.ops[i]->type.prim, &s);
    c.prims.push_back(s.ops[i]->type.prim);
    regs.push_back(to_reg(val.at(s.ops[i]), s.ops[i]->type.prim));
  }
  Value* failed = B.CreateNot(to_bool(val.at(s.ops[0]), s.ops[0]->type.prim));
  fail_if(failed, std::move(c), regs);
}

// An autodiff tape (ad_stack) is an array of its values and a count, both in
// the entry block (a local of the thread, like the bytecode's frame slots),
// emptied where the statement stands: an iteration starts with an empty tape.
// Past kMaxTapeBytes per task the task stays bytecode, whose frame has room.
static constexpr uint64_t kMaxTapeBytes = 16 << 10;

void Gen::tape_op(const ir::Stmt& s) {
  if (s.kind == StmtKind::ad_stack) {
    Tape t;
    t.t = type(s.type.prim, &s);
    t.capacity = (uint32_t)s.index;
    tape_bytes += (uint64_t)t.capacity * (uint64_t)M.getDataLayout().getTypeAllocSize(t.t);
    // A recursive ti.real_func would stack a tape per level: its caller stays bytecode.
    if (in_func) unsupported(s, "an autodiff tape in a ti.real_func");
    if (s.index <= 0 || tape_bytes > kMaxTapeBytes)
      unsupported(s, "autodiff tapes of more than " + std::to_string(kMaxTapeBytes >> 10) + " KiB in one task");
    t.values = EB.CreateAlloca(t.t, B.getInt32(t.capacity));
    t.count = EB.CreateAlloca(B.getInt32Ty());
    B.CreateStore(B.getInt32(0), t.count);
    tapes[&s] = t;
    return;
  }
  const Tape& t = tapes.at(s.ops[0]);
  Value* n = B.CreateLoad(B.getInt32Ty(), t.count);
  if (s.kind == StmtKind::ad_push) {
    Check c;
    c.kind = Check::tape_full;
    c.loc = loc;
    c.axis = (int)t.capacity;
    fail_if(B.CreateICmpUGE(n, B.getInt32(t.capacity)), c, {});
    B.CreateStore(val.at(s.ops[1]), B.CreateInBoundsGEP(t.t, t.values, n));
    B.CreateStore(B.CreateAdd(n, B.getInt32(1)), t.count);
    return;
  }
  // The reverse pass pops and reads only what it pushed; the check keeps a
  // lowering bug from reading outside the tape.
  Check c;
  c.kind = Check::tape_empty;
  c.loc = loc;
  fail_if(B.CreateICmpEQ(n, B.getInt32(0)), c, {});
  Value* top = B.CreateSub(n, B.getInt32(1));
  if (s.kind == StmtKind::ad_pop)
    B.CreateStore(top, t.count);
  else
    val[&s] = B.CreateLoad(t.t, B.CreateInBoundsGEP(t.t, t.values, top));
}

}  // namespace kiln::llvmjit
