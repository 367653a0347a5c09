// IR task -> LLVM function: the function a task becomes (its arguments, the
// Env's fields and tree bases loaded once in the entry block), the task's
// loop over its chunk or cells, and lower_task, which verifies the result or
// says why the task stays bytecode. Statements and control flow are
// lower_stmt.cpp's, global addresses, bounds checks and atomics
// lower_memory.cpp's.
#include "jit/llvm/lower.h"

#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "jit/llvm/lower_state.h"
#include "vm/runtime/chunks.h"
#include "vm/runtime/pool.h"
#include "vm/runtime/program.h"

namespace kiln::llvmjit {

using ir::StmtKind;
using llvm::BasicBlock;
using llvm::Value;

void unsupported(const ir::Stmt& s, const std::string& what) {
  std::string where = s.loc.known() ? " at line " + std::to_string(s.loc.line) : "";
  throw Unsupported{what + " (statement '" + ir::stmt_kind_name(s.kind) + "'" + where + ")"};
}

Gen::Gen(llvm::Module& m, const ir::Kernel& k, TaskMeta& mt, const LowerOptions& opt)
    : C(m.getContext()), M(m), B(m.getContext()), EB(m.getContext()), kernel(k), meta(mt), gpu(opt.gpu), prog(opt.prog) {
  device_pools = gpu;
  if (prog)
    for (const SNode* s : prog->snode_by_id)
      if (s && s->pool && s->pool->region) device_pools = true;
}

BasicBlock* Gen::new_block(const char* name) { return BasicBlock::Create(C, name, F); }

void Gen::ensure_open() {
  if (B.GetInsertBlock()->getTerminator()) B.SetInsertPoint(new_block("dead"));
}

void Gen::branch(BasicBlock* to) {
  if (!B.GetInsertBlock()->getTerminator()) B.CreateBr(to);
}

Value* Gen::scratch(size_t n) { return EB.CreateAlloca(B.getInt64Ty(), B.getInt64(n ? n : 1)); }

// A load of what stays fixed for the whole launch (the Env, argument slots,
// tree bases): in the entry block, marked invariant so that LLVM keeps it out
// of loops whatever the loops store. Not in a ti.real_func: its Env and
// argument slots are its caller's locals, rewritten at each call (inlined
// into a loop, an invariant load would be hoisted above those stores).
static Value* invariant_load(Gen& g, llvm::Type* t, Value* p) {
  llvm::LoadInst* l = g.EB.CreateLoad(t, p);
  if (!g.in_func) l->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(g.C, {}));
  return l;
}

Value* Gen::env_field(EnvField f) {
  auto it = env_cache.find(f);
  if (it != env_cache.end()) return it->second;
  bool word = f == kEnvNumTrees || f == kEnvRngKey || f == kEnvTaskNo || f == kEnvDepth || f == kEnvCallKey;
  llvm::Type* t = word ? (llvm::Type*)B.getInt64Ty() : (llvm::Type*)B.getPtrTy();
  return env_cache[f] = invariant_load(*this, t, EB.CreateConstInBoundsGEP1_64(B.getInt64Ty(), env, (uint64_t)f));
}

Value* Gen::arg_reg(int index) {
  auto it = arg_cache.find(index);
  if (it != arg_cache.end()) return it->second;
  Value* p = EB.CreateConstInBoundsGEP1_64(B.getInt64Ty(), env_field(kEnvArgs), (uint64_t)index);
  return arg_cache[index] = invariant_load(*this, B.getInt64Ty(), p);
}

Value* Gen::tree_base(int tree, SourceLoc at) {
  auto it = tree_cache.find(tree);
  if (it != tree_cache.end()) return it->second;
  meta.trees.push_back({tree, at});
  Value* p = EB.CreateConstInBoundsGEP1_64(B.getPtrTy(), env_field(kEnvTrees), (uint64_t)tree);
  return tree_cache[tree] = invariant_load(*this, B.getPtrTy(), p);
}

// The type of a task's loop index: its loop_index statements' (the frontend
// gives them the bounds' type), i32 when the body reads none.
Prim task_index_prim(const ir::Stmt& task) {
  Prim p = Prim::i32;
  if (task.body)
    ir::walk(*task.body, [&](ir::Stmt* s) {
      if (s->kind == StmtKind::loop_index && s->loop == &task) p = s->type.prim;
    });
  return p;
}

void Gen::task_body(const ir::Stmt& task) {
  auto tls = [&](const ir::Block* b) {
    if (b) block(*b);
    ensure_open();
  };
  auto body = [&] {
    if (task.body) block(*task.body);
  };
  Value* begin = F->getArg(1);
  Value* end = F->getArg(2);
  task_stmt = &task;
  switch (task.task) {
    case ir::Task::serial: body(); return;
    case ir::Task::range_for: {
      Prim p = task_index_prim(task);
      if (!prim_is_int(p)) unsupported(task, "a float loop index");
      llvm::Type* t = type(p, &task);
      if (gpu) {
        // A grid-stride loop in i64 (grid_stride_loop: an offset from begin that
        // cannot wrap); loop_index truncates to the index's type.
        auto [t0, n] = grid_position();
        // A float sum that the CPU runs as one chunk runs in thread 0 alone,
        // in iteration order, so that it has the CPU's bits (vm/runtime/
        // chunks.h); the other threads leave before the TLS prologue.
        if (int64_t below = device_one_chunk_below(task, prog)) {
          Value* one = B.CreateICmpSLT(B.CreateSub(end, begin), B.getInt64(below));
          llvm::BasicBlock* idle = new_block("one_chunk_idle");
          llvm::BasicBlock* go = new_block("one_chunk_go");
          B.CreateCondBr(B.CreateAnd(one, B.CreateICmpNE(t0, B.getInt64(0))), idle, go);
          B.SetInsertPoint(idle);
          B.CreateRet(B.getInt32(0));
          B.SetInsertPoint(go);
          n = B.CreateSelect(one, B.getInt64(1), n);
        }
        tls(task.tls_prologue());
        grid_stride_loop(&task, begin, end, t0, n, task.body && has_inner_loop(*task.body), body, false);
        tls(task.tls_epilogue());
        return;
      }
      // A chunk of constant bounds lies within them: LLVM then knows the
      // index's range (sparse_lists' `k % 1000` on a counter from 0 became
      // an unsigned remainder, without the floor mod's sign fix).
      if (task.rare().begin_const && task.rare().end_const && task.begin <= task.end) {
        llvm::ConstantRange r(llvm::APInt(64, (uint64_t)task.begin, true), llvm::APInt(64, (uint64_t)task.end + 1, true));
        if (!r.isFullSet() && !r.isEmptySet())
          for (unsigned a : {1u, 2u}) F->addParamAttr(a, llvm::Attribute::get(C, llvm::Attribute::Range, r));
      }
      tls(task.tls_prologue());
      Value* b = B.CreateTrunc(begin, t);
      Value* e = B.CreateTrunc(end, t);
      bool poll = task.body && has_inner_loop(*task.body);
      if (!rows_of_flat_range(task, b, e, p, poll, body)) range_checked_at_ends(task, b, e, p, poll, body);
      tls(task.tls_epilogue());
      return;
    }
    case ir::Task::struct_for: {
      cells = F->getArg(3);
      // The cell table (the launcher's, or the generated list functions')
      // is read-only here and nothing the task writes is in it: LLVM may then
      // keep a row's address and indices in registers across the body's
      // stores, which a full word's counted loop needs to vectorize.
      F->addParamAttr(3, llvm::Attribute::NoAlias);
      // A row per cell: its indices, then its address (the launcher's table).
      num_cell_indices = (task.rare().num_loop_indices < 1 ? 1 : task.rare().num_loop_indices) + 1;
      tls(task.tls_prologue());
      if (word_rows_loop(task, begin, end, body)) {
        tls(task.tls_epilogue());
        return;
      }
      if (gpu) {
        auto [t0, n] = grid_position();
        grid_stride_loop(&task, begin, end, t0, n, task.body && has_inner_loop(*task.body), body, true);
      } else {
        range_loop(&task, begin, end, Prim::i64, task.body && has_inner_loop(*task.body), body, true);
      }
      tls(task.tls_epilogue());
      return;
    }
    default: unsupported(task, std::string("offloaded ") + ir::task_name(task.task) + " tasks");
  }
}

llvm::FunctionType* task_fn_type(llvm::LLVMContext& C) {
  llvm::Type* ptr = llvm::PointerType::get(C, 0);
  llvm::Type* i64 = llvm::Type::getInt64Ty(C);
  return llvm::FunctionType::get(llvm::Type::getInt32Ty(C), {ptr, i64, i64, ptr}, false);
}

void Gen::open_function(llvm::Function* f) {
  F = f;
  F->addParamAttr(0, llvm::Attribute::NoAlias);
  F->addFnAttr(llvm::Attribute::NoUnwind);
  env = F->getArg(0);
  EB.SetInsertPoint(new_block("entry"));
  B.SetInsertPoint(new_block("start"));
}

void Gen::finish(const ir::Stmt& task) {
  task_body(task);
  if (!B.GetInsertBlock()->getTerminator()) B.CreateRet(B.getInt32(0));
  EB.CreateBr(&*std::next(F->begin()));  // entry -> start (the function's first two blocks)
}

std::string lower_task(llvm::Module& m, const ir::Kernel& k, const ir::Stmt& task, const std::string& name,
                       TaskMeta& meta, const LowerOptions& opt) {
  FuncState funcs;
  funcs.owner = &k;
  funcs.base = name;
  Gen g(m, k, meta, opt);
  g.funcs = &funcs;
  g.loc = task.loc;
  // On the GPU the task is inlined into its kernel entry (gpu/cuda/ptx.cpp).
  g.open_function(llvm::Function::Create(task_fn_type(m.getContext()), opt.gpu ? llvm::Function::InternalLinkage
                                                                               : llvm::Function::ExternalLinkage, name, m));
  if (opt.gpu) g.F->addFnAttr(llvm::Attribute::AlwaysInline);
  auto drop = [&] {  // the task and the functions it made, which may call each other
    funcs.made.push_back(g.F);
    for (llvm::Function* f : funcs.made) f->dropAllReferences();
    for (llvm::Function* f : funcs.made) f->eraseFromParent();
  };
  try {
    g.finish(task);
  } catch (const Unsupported& u) {
    drop();
    return u.why;
  }
  std::string err;
  llvm::raw_string_ostream os(err);
  bool bad = llvm::verifyFunction(*g.F, &os);
  for (llvm::Function* f : funcs.made) bad = bad || llvm::verifyFunction(*f, &os);
  if (bad) {
    drop();
    return "the LLVM verifier rejected the lowering (an internal error): " + os.str();
  }
  return "";
}

}  // namespace kiln::llvmjit
