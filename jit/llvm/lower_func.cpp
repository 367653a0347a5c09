// ti.real_func calls in LLVM, as the interpreter makes them (vm/interp/interp.cpp
// call_real_func). Each function a task reaches becomes, in that task's
// module, an internal function i32 (Env*) that runs the function's serial
// tasks in order; a call builds the callee's Env in its own frame: arguments
// and return slots in the launch's register form (f16/bf16 as their 16-bit
// patterns), the caller's trees, global temporaries of its own (zeroed at
// each call), and the random key the interpreter derives from the caller's
// stream. Recursion is a real call; past kMaxCallDepth nested calls it is the
// interpreter's RecursionError. On the GPU the limit is the module's global
// kiln_call_depth_limit: kMaxCallDepth, or fewer where the call graph is
// recursive, as many levels as the thread stack the engine sets at load
// holds (gpu/cuda/engine.cpp; the error then names that limit).
#include "jit/llvm/lower_state.h"
#include "vm/interp/interp.h"  // kMaxCallDepth
#include "vm/runtime/rng.h"

namespace kiln::llvmjit {

using ir::StmtKind;
using llvm::BasicBlock;
using llvm::Value;

llvm::Function* Gen::real_func(const ir::Stmt& call) {
  const ir::Kernel& owner = *funcs->owner;
  int i = call.index;
  if (i < 0 || (size_t)i >= owner.funcs.size() || !owner.funcs[(size_t)i])
    unsupported(call, "a call of a function the kernel does not have");
  if (funcs->open.count(i)) meta.recursive = true;
  if (auto it = funcs->done.find(i); it != funcs->done.end()) return it->second;
  const ir::Kernel& fk = *owner.funcs[(size_t)i];
  std::string name = funcs->base + ".rf" + std::to_string(i);
  llvm::Function* f = llvm::Function::Create(llvm::FunctionType::get(B.getInt32Ty(), {B.getPtrTy()}, false),
                                             llvm::Function::InternalLinkage, name, M);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  funcs->made.push_back(f);
  funcs->done[i] = f;
  funcs->open.insert(i);
  // The function's tasks, each a TaskFn lowered by a Gen of its own.
  std::vector<llvm::Function*> tasks;
  for (auto& t : fk.root.stmts) {
    if (t->kind != StmtKind::offloaded || t->task != ir::Task::serial)
      unsupported(call, "a ti.real_func whose body is not serial tasks");
    llvm::Function* tf = llvm::Function::Create(task_fn_type(C), llvm::Function::InternalLinkage,
                                                name + ".t" + std::to_string(tasks.size()), M);
    funcs->made.push_back(tf);
    Gen g(M, fk, meta, options());
    g.funcs = funcs;
    g.in_func = true;
    g.loc = t->loc;
    g.open_function(tf);
    g.finish(*t);
    tasks.push_back(tf);
  }
  funcs->open.erase(i);
  // The body: task n draws from the key rng_task_key(call's key, n), as the
  // tasks of a launch do; a task that failed (its error recorded) ends the call.
  llvm::IRBuilderBase::InsertPointGuard keep(B);
  B.SetInsertPoint(BasicBlock::Create(C, "entry", f));
  llvm::Type* i64 = B.getInt64Ty();
  Value* env = f->getArg(0);
  Value* key_p = B.CreateConstInBoundsGEP1_64(i64, env, kEnvRngKey);
  Value* key = B.CreateLoad(i64, key_p);
  for (size_t n = 0; n < tasks.size(); n++) {
    B.CreateStore(rng_mix(B.CreateAdd(key, B.getInt64((n + 1) * kRngGamma))), key_p);
    Value* rc = B.CreateCall(tasks[n], {env, B.getInt64(0), B.getInt64(0), llvm::ConstantPointerNull::get(B.getPtrTy())});
    BasicBlock* failed = BasicBlock::Create(C, "failed", f);
    BasicBlock* next = BasicBlock::Create(C, "next", f);
    B.CreateCondBr(B.CreateICmpNE(rc, B.getInt32(0)), failed, next);
    B.SetInsertPoint(failed);
    B.CreateRet(B.getInt32(1));
    B.SetInsertPoint(next);
  }
  B.CreateRet(B.getInt32(0));
  return f;
}

void Gen::call(const ir::Stmt& s) {
  llvm::Function* f = real_func(s);
  const ir::Kernel& fk = *funcs->owner->funcs[(size_t)s.index];
  if (s.ops.size() != fk.args.size()) unsupported(s, "a call whose argument count differs from the function's");
  llvm::Type* i64 = B.getInt64Ty();
  Value* depth = in_func ? env_field(kEnvDepth) : B.getInt64(0);
  Check c;
  c.kind = Check::recursion;
  c.loc = loc;
  c.text = s.rare().text;
  if (gpu) {
    c.axis = 1;  // the limit is the failure's value
    Value* limit = B.CreateLoad(B.getInt64Ty(), depth_limit());
    fail_if(B.CreateICmpUGE(depth, limit), c, {limit});
  } else {
    fail_if(B.CreateICmpUGE(depth, B.getInt64(interp::kMaxCallDepth)), c, {});
  }
  std::vector<Value*> regs;
  for (const ir::Stmt* a : s.ops) {
    Prim p = a->type.prim;
    type(p, &s);
    regs.push_back(is_half(p) ? B.CreateZExt(half_encode(val.at(a), p), i64) : to_reg(val.at(a), p));
  }
  Value* args = reg_array(regs);
  Value* rets = scratch(fk.rets.size());
  Value* temps = scratch((size_t)fk.num_global_temps);
  if (fk.num_global_temps > 0) B.CreateMemSet(temps, B.getInt8(0), (uint64_t)fk.num_global_temps * 8, llvm::MaybeAlign(8));
  // The caller's stream advances by one step and keys the callee's draws.
  Value* stream = rng_stream();
  Value* state_p = B.CreateConstInBoundsGEP1_64(i64, stream, 1);
  Value* state = B.CreateAdd(B.CreateLoad(i64, state_p), B.getInt64(kRngGamma));
  B.CreateStore(state, state_p);
  Value* key = rng_mix(B.CreateXor(B.CreateXor(env_field(kEnvRngKey), rng_mix(state)), B.CreateLoad(i64, stream)));
  Value* sub = scratch(kEnvFields);
  auto set = [&](EnvField field, Value* v) { B.CreateStore(v, B.CreateConstInBoundsGEP1_64(i64, sub, (uint64_t)field)); };
  set(kEnvArgs, args);
  set(kEnvRets, rets);
  set(kEnvTrees, env_field(kEnvTrees));
  set(kEnvTemps, temps);
  set(kEnvStop, env_field(kEnvStop));
  set(kEnvHost, env_field(kEnvHost));
  set(kEnvNumTrees, env_field(kEnvNumTrees));
  set(kEnvRngKey, key);
  set(kEnvTaskNo, env_field(kEnvTaskNo));
  set(kEnvDepth, B.CreateAdd(depth, B.getInt64(1)));
  set(kEnvCallKey, gpu ? log_key() : B.getInt64((uint64_t)-1));
  return_if_failed(B.CreateCall(f, {sub}));
  call_rets[&s] = rets;
}

llvm::GlobalVariable* Gen::depth_limit() {
  if (llvm::GlobalVariable* g = M.getGlobalVariable(kDepthLimitSymbol)) return g;
  // In global memory (address space 1), visible to cuModuleGetGlobal.
  return new llvm::GlobalVariable(M, B.getInt64Ty(), false, llvm::GlobalValue::ExternalLinkage,
                                  B.getInt64(interp::kMaxCallDepth), kDepthLimitSymbol, nullptr,
                                  llvm::GlobalValue::NotThreadLocal, 1);
}

void Gen::call_ret(const ir::Stmt& s) {
  auto it = call_rets.find(s.ops[0]);
  if (it == call_rets.end()) unsupported(s, "a call result before its call");
  const ir::Kernel& fk = *funcs->owner->funcs[(size_t)s.ops[0]->index];
  if (s.index < 0 || (size_t)s.index >= fk.rets.size()) unsupported(s, "a call result the function does not return");
  Prim p = s.type.prim;
  type(p, &s);
  Value* r = B.CreateLoad(B.getInt64Ty(), B.CreateConstInBoundsGEP1_64(B.getInt64Ty(), it->second, (uint64_t)s.index));
  val[&s] = is_half(p) ? half_decode(B.CreateTrunc(r, B.getInt16Ty()), p) : from_reg(r, p, s);
}

}  // namespace kiln::llvmjit
