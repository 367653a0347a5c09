// IR task -> LLVM function. The IR's structured control flow maps onto basic
// blocks (if -> then/else/merge, while/range_for -> head/body/continue/exit,
// break/continue -> branches); mutable locals are allocas in the entry block,
// which mem2reg turns into SSA values. Every global access is bounds-checked
// as the bytecode checks it (unless the frontend proved it in bounds);
// lower_calls.cpp reports a failed one.
#include "jit/llvm/lower.h"

#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "jit/llvm/lower_state.h"
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

void Gen::block(const ir::Block& b) {
  for (auto& s : b.stmts) {
    ensure_open();
    stmt(*s);
  }
}

std::pair<Value*, BasicBlock*> Gen::loop_head(Value* var, llvm::Type* t, Value* end, bool is_signed, BasicBlock* exit) {
  BasicBlock* head = new_block("loop.head");
  BasicBlock* body = new_block("loop.body");
  B.CreateBr(head);
  B.SetInsertPoint(head);
  Value* cur = B.CreateLoad(t, var);
  B.CreateCondBr(is_signed ? B.CreateICmpSLT(cur, end) : B.CreateICmpULT(cur, end), body, exit);
  B.SetInsertPoint(body);
  return {cur, head};
}

// The width of fast_math's split sums in a loop's body (vm/ir/passes/
// split_sums.cpp): each add reads partial p0, the partials move down one
// (W - 1 moves: a local_store of a local_load of the next) and the sum goes
// last; 0 when the loop has none. Nested loops are their own.
static int split_sum_width(const ir::Block& b) {
  int width = 0;
  std::function<void(const ir::Block&)> scan = [&](const ir::Block& blk) {
    int run = 0;
    for (const auto& st : blk.stmts) {
      const ir::Stmt& s = *st;
      if (is_sum_move(s)) width = std::max(width, ++run + 1);
      else if (s.kind != StmtKind::local_load) run = 0;
      if (s.kind == StmtKind::range_for || s.kind == StmtKind::while_) continue;
      for (const ir::Block* inner : {s.body.get(), s.else_body.get()})
        if (inner) scan(*inner);
    }
  };
  scan(b);
  return width;
}

void Gen::range_loop(const ir::Stmt* owner, Value* begin, Value* end, Prim p, bool poll,
                     const std::function<void()>& body, bool over_cells, Value* step) {
  llvm::Type* t = type(p, owner);
  // Split sums at the top of the body: blocks of W iterations first (lower_lanes.cpp).
  bool blocked = !step && lanes_loop(owner, begin, end, p, body, over_cells);
  Value* var = EB.CreateAlloca(t);
  B.CreateStore(begin, var);
  BasicBlock* cont = new_block("for.next");
  BasicBlock* exit = new_block("for.exit");
  auto [cur, head] = loop_head(var, t, end, prim_is_signed(p), exit);
  loops[owner] = Loop{exit, cont, var, p, over_cells};
  if (poll) poll_interrupt(owner->loc);
  body();
  branch(cont);
  B.SetInsertPoint(cont);
  B.CreateStore(B.CreateAdd(cur, step ? step : llvm::ConstantInt::get(t, 1)), var);
  llvm::BranchInst* back = B.CreateBr(head);
  // Split sums rotate W partials each iteration, a recurrence the loop
  // vectorizer does not take: unrolled W times the rotation is the identity,
  // each copy adds into a partial of its own, and the SLP vectorizer packs
  // the W copies into lanes (as the JIT's vector loop does).
  if (int w = owner->body && !blocked ? split_sum_width(*owner->body) : 0; w > 1 && !gpu) {
    llvm::MDNode* count = llvm::MDNode::get(C, {llvm::MDString::get(C, "llvm.loop.unroll.count"),
                                                llvm::ConstantAsMetadata::get(B.getInt32((uint32_t)w))});
    llvm::MDNode* self = llvm::MDNode::getDistinct(C, {nullptr, count});
    self->replaceOperandWith(0, self);
    back->setMetadata(llvm::LLVMContext::MD_loop, self);
    if (!M.getModuleFlag("kiln.unrolled_sums"))  // orc.cpp optimize: a late SLP pass for these
      M.addModuleFlag(llvm::Module::Override, "kiln.unrolled_sums", 1u);
  }
  B.SetInsertPoint(exit);
}

// Whether a loop's body holds another loop: those poll for Ctrl-C at each
// iteration (an innermost counted loop always ends; a poll would keep it from
// vectorizing).
static bool has_inner_loop(const ir::Block& b) {
  bool found = false;
  ir::walk(const_cast<ir::Block&>(b), [&](ir::Stmt* s) {
    found |= s->kind == StmtKind::while_ || s->kind == StmtKind::range_for;
  });
  return found;
}

void Gen::stmt(const ir::Stmt& s) {
  if (s.loc.known()) loc = s.loc;
  if (auto o = given.find(&s); o != given.end()) {
    val[&s] = o->second;
    return;
  }
  switch (s.kind) {
    case StmtKind::const_: val[&s] = constant(s.type.prim, s.value); return;
    case StmtKind::arg_load:
      if (s.index < 0 || s.index >= (int)kernel.args.size()) unsupported(s, "an argument that does not exist");
      // An f16/bf16 argument slot holds the 16-bit pattern (as the bytecode's arg_load reads it).
      val[&s] = is_half(s.type.prim) ? half_decode(B.CreateTrunc(arg_reg(s.index), B.getInt16Ty()), s.type.prim)
                                     : from_reg(arg_reg(s.index), s.type.prim, s);
      return;
    case StmtKind::unary: {
      // f16/bf16 compute in f32 and round after every operation that can
      // leave the format (casts round once, themselves; neg, abs, floor,
      // ceil and round of a value of the format stay in it).
      Value* r = unary(s);
      using U = ir::UnaryOp;
      bool rounds = s.uop != U::cast_value && s.uop != U::cast_bits && s.uop != U::neg && s.uop != U::abs &&
                    s.uop != U::floor && s.uop != U::ceil && s.uop != U::round;
      val[&s] = is_half(s.type.prim) && rounds ? half_round(r, s.type.prim) : r;
      return;
    }
    case StmtKind::binary: {
      Value* r = binary(s);
      bool exact = s.bop == ir::BinaryOp::max || s.bop == ir::BinaryOp::min;  // one of the operands
      val[&s] = is_half(s.type.prim) && !exact ? half_round(r, s.type.prim) : r;
      return;
    }
    case StmtKind::select: {
      Value* c = to_bool(val.at(s.ops[0]), s.ops[0]->type.prim);
      val[&s] = B.CreateSelect(c, val.at(s.ops[1]), val.at(s.ops[2]));
      return;
    }
    case StmtKind::fma:  // fast_math's contraction: llvm.fma is one rounding on every target (fma.rn in PTX)
      val[&s] = B.CreateIntrinsic(llvm::Intrinsic::fma, {type(s.type.prim, &s)},
                                  {val.at(s.ops[0]), val.at(s.ops[1]), val.at(s.ops[2])});
      return;
    case StmtKind::stop_grad: val[&s] = val.at(s.ops[0]); return;
    case StmtKind::alloca: {
      if (!s.type.is_scalar()) unsupported(s, "a vector or matrix local");
      llvm::Type* t = type(s.type.prim, &s);
      Value* v = EB.CreateAlloca(t);
      // Taichi zeroes a local where it is declared (each iteration).
      B.CreateStore(llvm::Constant::getNullValue(t), v);
      ptr[&s] = v;
      return;
    }
    case StmtKind::local_load: val[&s] = B.CreateLoad(type(s.type.prim, &s), ptr.at(s.ops[0])); return;
    case StmtKind::local_store:
      if (dropped.count(&s)) return;
      B.CreateStore(val.at(s.ops[1]), ptr.at(s.ops[0])); return;
    case StmtKind::global_ptr: global_ptr(s); return;
    case StmtKind::global_temp:
      if (s.index < 0 || s.index >= kernel.num_global_temps) unsupported(s, "a global temporary that does not exist");
      ptr[&s] = B.CreateConstInBoundsGEP1_64(B.getInt64Ty(), env_field(kEnvTemps), (uint64_t)s.index);
      return;
    case StmtKind::global_load: {
      if (is_half(s.type.prim)) {
        llvm::LoadInst* l = B.CreateLoad(B.getInt16Ty(), ptr.at(s.ops[0]));
        l->setAlignment(llvm::Align(gpu ? 2 : 1));
        val[&s] = half_decode(l, s.type.prim);
        return;
      }
      llvm::LoadInst* l = B.CreateLoad(type(s.type.prim, &s), ptr.at(s.ops[0]));
      // Element layout is the runtime's: on the CPU no alignment is promised;
      // device memory holds the runtime's naturally aligned layout (layout.cpp)
      // and a GPU splits an unaligned access into bytes.
      l->setAlignment(llvm::Align(gpu ? std::max(1, prim_bits(s.type.prim) / 8) : 1));
      val[&s] = l;
      return;
    }
    case StmtKind::global_store: {
      type(s.ops[1]->type.prim, &s);
      Value* v = val.at(s.ops[1]);
      if (is_half(s.ops[1]->type.prim)) v = half_encode(v, s.ops[1]->type.prim);
      llvm::StoreInst* st = B.CreateStore(v, ptr.at(s.ops[0]));
      st->setAlignment(llvm::Align(gpu ? std::max(1, prim_bits(s.ops[1]->type.prim) / 8) : 1));
      return;
    }
    case StmtKind::atomic: {
      Value* old = atomic(s);
      if (s.has_value()) val[&s] = old;
      return;
    }
    case StmtKind::if_: {
      Value* c = to_bool(val.at(s.ops[0]), s.ops[0]->type.prim);
      BasicBlock* then = new_block("if.then");
      BasicBlock* merge = new_block("if.end");
      bool has_else = s.else_body && !s.else_body->stmts.empty();
      BasicBlock* other = has_else ? new_block("if.else") : merge;
      B.CreateCondBr(c, then, other);
      B.SetInsertPoint(then);
      if (s.body) block(*s.body);
      branch(merge);
      if (has_else) {
        B.SetInsertPoint(other);
        block(*s.else_body);
        branch(merge);
      }
      B.SetInsertPoint(merge);
      return;
    }
    case StmtKind::while_: {
      BasicBlock* head = new_block("while.head");
      BasicBlock* exit = new_block("while.exit");
      B.CreateBr(head);
      B.SetInsertPoint(head);
      loops[&s] = Loop{exit, head, nullptr, Prim::i32, false};
      poll_interrupt(s.loc);  // a while loop may run forever
      if (s.body) block(*s.body);
      branch(head);
      B.SetInsertPoint(exit);
      return;
    }
    case StmtKind::range_for: {
      if (s.snode >= 0) unsupported(s, "a struct-for over sparse SNodes");
      Prim p = s.ops[0]->type.prim;
      range_loop(&s, val.at(s.ops[0]), val.at(s.ops[1]), p, s.body && has_inner_loop(*s.body), [&] {
        if (s.body) block(*s.body);
      });
      return;
    }
    case StmtKind::loop_index: {
      auto it = loops.find(s.loop);
      if (it == loops.end() || !it->second.var) unsupported(s, "the index of a loop not enclosing it");
      const Loop& l = it->second;
      if (l.cells) {
        if (s.index < 0 || s.index >= num_cell_indices) unsupported(s, "a struct-for index out of range");
        Value* k = B.CreateLoad(B.getInt64Ty(), l.var);
        Value* at = B.CreateAdd(B.CreateMul(k, B.getInt64(num_cell_indices)), B.getInt64(s.index));
        Value* idx = B.CreateLoad(B.getInt64Ty(), B.CreateInBoundsGEP(B.getInt64Ty(), cells, at));
        if (!prim_is_int(s.type.prim)) unsupported(s, "a float struct-for index");
        val[&s] = from_reg(idx, s.type.prim, s);
        return;
      }
      if (s.index != 0) unsupported(s, "a loop index past the first");
      val[&s] = cast(B.CreateLoad(type(l.prim, &s), l.var), l.prim, s.type.prim, s);
      return;
    }
    case StmtKind::break_:
    case StmtKind::continue_: {
      auto it = loops.find(s.loop);
      if (it == loops.end()) unsupported(s, "break/continue outside its loop");
      branch(s.kind == StmtKind::break_ ? it->second.brk : it->second.cont);
      return;
    }
    case StmtKind::print: print(s); return;
    case StmtKind::assert_: assert_(s); return;
    case StmtKind::return_: ret(s); return;
    case StmtKind::random: val[&s] = random(s); return;
    case StmtKind::snode_op: {
      Value* r = snode_op(s);
      if (r) val[&s] = r;
      return;
    }
    case StmtKind::ad_stack:
    case StmtKind::ad_push:
    case StmtKind::ad_pop:
    case StmtKind::ad_top: tape_op(s); return;
    case StmtKind::call: call(s); return;
    case StmtKind::call_ret: call_ret(s); return;
    default: unsupported(s, std::string("statement kind '") + ir::stmt_kind_name(s.kind) + "'");
  }
}

void Gen::check_bounds(const std::vector<Value*>& idx, const std::vector<Value*>& limits, const Check& proto,
                       const std::vector<Value*>& extra) {
  for (size_t a = 0; a < idx.size(); a++) {
    Check c = proto;
    c.loc = loc;
    c.axis = (int)a;
    // Unsigned: a negative index is huge, so one compare checks both ends.
    std::vector<Value*> regs{idx[a]};
    regs.insert(regs.end(), extra.begin(), extra.end());
    fail_if(B.CreateICmpUGE(idx[a], limits[a]), c, regs);
  }
}

void Gen::global_ptr(const ir::Stmt& s) {
  const ir::Access& acc = s.access;
  if (acc.ext_arg >= 0) return ext_ptr(s);
  type(s.type.prim, &s);
  std::vector<Value*> idx(s.ops.size());
  // A proven access's indices are in bounds: exact i64 forms with no-wrap
  // arithmetic (lower_rows.cpp), which LLVM strength-reduces.
  bool exact = proven.count(&s) && proof.task;
  for (size_t a = 0; a < s.ops.size(); a++) {
    idx[a] = exact ? proven_index(s.ops[a]) : nullptr;
    exact &= idx[a] != nullptr;
    if (!idx[a]) idx[a] = to_reg(val.at(s.ops[a]), s.ops[a]->type.prim);
  }
  if (acc.checked && !proven.count(&s)) {
    if (acc.shape.size() != s.ops.size()) unsupported(s, "an access whose index count differs from the field's shape");
    Check c;
    c.kind = Check::bounds;
    c.field = acc.field;
    c.shape = acc.shape;
    c.offset = acc.index_offset;
    std::vector<Value*> limits;
    for (int64_t n : acc.shape) limits.push_back(B.getInt64((uint64_t)n));
    check_bounds(idx, limits, c);
  }
  if (acc.in_cell) {  // the struct-for's cell address plus the element's offset in it
    // (On the GPU a pointer or dynamic SNode's cells are in its device pool, tree memory.)
    Value* cell = B.CreateIntToPtr(idx.at(0), llvm::PointerType::get(B.getContext(), 0));
    ptr[&s] = B.CreateInBoundsGEP(B.getInt8Ty(), cell, B.getInt64((uint64_t)acc.offset));
    return;
  }
  if (acc.sparse_place >= 0) return sparse_ptr(s, idx);
  ptr[&s] = dense_address(s, idx, exact);
}

Value* Gen::dense_address(const ir::Stmt& s, const std::vector<Value*>& idx, bool in_bounds) {
  const ir::Access& acc = s.access;
  Value* off = B.getInt64((uint64_t)acc.offset);
  for (const ir::IndexTerm& t : acc.terms) {
    if (t.axis < 0 || (size_t)t.axis >= idx.size() || t.div == 0) unsupported(s, "a malformed address term");
    Value* x = idx[t.axis];
    if (t.div != 1) x = B.CreateSDiv(x, B.getInt64((uint64_t)t.div));
    if (t.mod != 0) x = B.CreateSRem(x, B.getInt64((uint64_t)t.mod));
    // In bounds, an offset is within the tree's buffer: no wrap.
    off = B.CreateAdd(off, B.CreateMul(x, B.getInt64((uint64_t)t.stride), "", in_bounds, in_bounds), "", in_bounds,
                      in_bounds);
  }
  return B.CreateInBoundsGEP(B.getInt8Ty(), tree_base(acc.tree, loc), off);
}

// An ndarray argument's element: the data pointer is argument ext_arg, the
// shape the arguments after it; C order, a vector's components innermost.
void Gen::ext_ptr(const ir::Stmt& s) {
  const ir::Access& acc = s.access;
  size_t n = s.ops.size();
  if (acc.ext_arg + (int)n >= (int)kernel.args.size()) unsupported(s, "ndarray argument slots out of range");
  std::vector<Value*> shape(n), idx(n);
  for (size_t k = 0; k < n; k++) {
    shape[k] = arg_reg(acc.ext_arg + 1 + (int)k);
    idx[k] = to_reg(val.at(s.ops[k]), s.ops[k]->type.prim);
  }
  if (acc.checked) {
    Check c;
    c.kind = Check::ext_bounds;
    c.field = acc.field;
    c.ext_arg = acc.ext_arg;
    c.ndim = (int)n;
    // A function's ndarray shape is in its own argument slots, which the
    // message cannot read after the call: the failure reports it.
    c.shape_in_values = in_func;
    check_bounds(idx, shape, c, in_func ? shape : std::vector<Value*>{});
  }
  Value* d = n ? idx[0] : B.getInt64(0);
  for (size_t k = 1; k < n; k++) d = B.CreateAdd(B.CreateMul(d, shape[k]), idx[k]);
  int64_t size = prim_bits(s.type.prim) / 8;
  type(s.type.prim, &s);
  d = B.CreateMul(d, B.getInt64((uint64_t)(acc.ext_comps * size)));
  if (acc.ext_comp) d = B.CreateAdd(d, B.getInt64((uint64_t)(acc.ext_comp * size)));
  ptr[&s] = B.CreateGEP(B.getInt8Ty(), B.CreateIntToPtr(arg_reg(acc.ext_arg), B.getPtrTy()), d);
}

Value* Gen::atomic(const ir::Stmt& s) {
  if (s.ops[0]->kind == StmtKind::alloca) unsupported(s, "an atomic on a local variable");
  Value* p = ptr.at(s.ops[0]);
  Prim ep = s.ops[1]->type.prim;
  llvm::Type* t = type(ep, &s);
  Value* v = val.at(s.ops[1]);
  llvm::Align align(prim_bits(ep) / 8);
  auto seq = llvm::AtomicOrdering::SequentiallyConsistent;
  using RMW = llvm::AtomicRMWInst::BinOp;
  bool sg = prim_is_signed(ep);
  bool mul = s.aop == ir::AtomicOp::mul;  // no RMW instruction: the compare-and-swap loop below
  if (prim_is_int(ep) && !mul) {
    RMW op;
    switch (s.aop) {
      case ir::AtomicOp::add: op = RMW::Add; break;
      case ir::AtomicOp::sub: op = RMW::Sub; break;
      case ir::AtomicOp::min: op = sg ? RMW::Min : RMW::UMin; break;
      case ir::AtomicOp::max: op = sg ? RMW::Max : RMW::UMax; break;
      case ir::AtomicOp::bit_and: op = RMW::And; break;
      case ir::AtomicOp::bit_or: op = RMW::Or; break;
      default: op = RMW::Xor; break;
    }
    return B.CreateAtomicRMW(op, p, v, align, seq);
  }
  bool half = is_half(ep);
  if (!half && s.aop == ir::AtomicOp::add) return B.CreateAtomicRMW(RMW::FAdd, p, v, align, seq);
  if (!half && s.aop == ir::AtomicOp::sub) return B.CreateAtomicRMW(RMW::FSub, p, v, align, seq);
  bool addsub = s.aop == ir::AtomicOp::add || s.aop == ir::AtomicOp::sub;
  if (s.aop != ir::AtomicOp::min && s.aop != ir::AtomicOp::max && !mul && !addsub)
    unsupported(s, std::string("atomic ") + ir::atomic_op_name(s.aop) + " on a float");
  // min/max (and mul; every op on f16/bf16, computed in f32 and rounded to
  // the 16-bit word): compare-and-swap until no other thread got in between,
  // so that the update is exactly the non-atomic maximumNumber/minimumNumber/multiply.
  llvm::Type* it = B.getIntNTy(prim_bits(ep));
  BasicBlock* pre = B.GetInsertBlock();
  llvm::LoadInst* first = B.CreateLoad(it, p);
  first->setAtomic(llvm::AtomicOrdering::Monotonic);
  first->setAlignment(align);
  BasicBlock* head = new_block("cas.head");
  BasicBlock* done = new_block("cas.done");
  B.CreateBr(head);
  B.SetInsertPoint(head);
  llvm::PHINode* old_bits = B.CreatePHI(it, 2);
  Value* old = half ? half_decode(old_bits, ep) : B.CreateBitCast(old_bits, t);
  Value* upd = s.aop == ir::AtomicOp::add ? B.CreateFAdd(old, v)
               : s.aop == ir::AtomicOp::sub ? B.CreateFSub(old, v)
               : !mul ? maxmin(old, v, s.aop == ir::AtomicOp::max)
               : prim_is_int(ep) ? B.CreateMul(old, v) : B.CreateFMul(old, v);
  Value* nv = half ? half_encode(upd, ep) : B.CreateBitCast(upd, it);
  llvm::AtomicCmpXchgInst* x = B.CreateAtomicCmpXchg(p, old_bits, nv, align, seq, seq);
  Value* got = B.CreateExtractValue(x, 0);
  old_bits->addIncoming(first, pre);
  old_bits->addIncoming(got, head);
  B.CreateCondBr(B.CreateExtractValue(x, 1), done, head);
  B.SetInsertPoint(done);
  return old;
}

void Gen::ret(const ir::Stmt& s) {
  if (s.ops.size() > kernel.rets.size()) unsupported(s, "a return of more values than the kernel declares");
  for (size_t i = 0; i < s.ops.size(); i++) {
    Prim p = s.ops[i]->type.prim;
    type(p, &s);
    // An f16/bf16 return slot holds the 16-bit pattern (the bytecode's lower_return).
    Value* r = is_half(p) ? B.CreateZExt(half_encode(val.at(s.ops[i]), p), B.getInt64Ty()) : to_reg(val.at(s.ops[i]), p);
    B.CreateStore(r, B.CreateConstInBoundsGEP1_64(B.getInt64Ty(), env_field(kEnvRets), i));
  }
  B.CreateRet(B.getInt32(0));
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
  auto tls = [&](const std::unique_ptr<ir::Block>& b) {
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
      tls(task.tls_prologue);
      if (gpu) {
        // A grid-stride loop in i64 (an i32 counter stepping by the grid's size
        // could wrap past the end); loop_index truncates to the index's type.
        auto [t0, n] = grid_position();
        range_loop(&task, B.CreateAdd(begin, t0), end, Prim::i64, task.body && has_inner_loop(*task.body), body, false, n);
        tls(task.tls_epilogue);
        return;
      }
      Value* b = B.CreateTrunc(begin, t);
      Value* e = B.CreateTrunc(end, t);
      bool poll = task.body && has_inner_loop(*task.body);
      if (!rows_of_flat_range(task, b, e, p, poll, body)) range_checked_at_ends(task, b, e, p, poll, body);
      tls(task.tls_epilogue);
      return;
    }
    case ir::Task::struct_for: {
      cells = F->getArg(3);
      // A row per cell: its indices, then its address (the launcher's table).
      num_cell_indices = (task.num_loop_indices < 1 ? 1 : task.num_loop_indices) + 1;
      tls(task.tls_prologue);
      Value* step = nullptr;
      if (gpu) {
        auto [t0, n] = grid_position();
        begin = B.CreateAdd(begin, t0);
        step = n;
      }
      range_loop(&task, begin, end, Prim::i64, task.body && has_inner_loop(*task.body), body, true, step);
      tls(task.tls_epilogue);
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
