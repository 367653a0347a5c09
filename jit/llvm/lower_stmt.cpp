// IR statements -> LLVM IR. The IR's structured control flow maps onto basic
// blocks (if -> then/else/merge, while/range_for -> head/body/continue/exit,
// break/continue -> branches); mutable locals are allocas in the entry block,
// which mem2reg turns into SSA values.
#include "jit/llvm/lower_state.h"
#include "jit/llvm/lower_simt.h"

namespace kiln::llvmjit {

using ir::StmtKind;
using llvm::BasicBlock;
using llvm::Value;

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
                     const std::function<void()>& body, bool over_cells) {
  llvm::Type* t = type(p, owner);
  // Split sums at the top of the body: blocks of W iterations first (lower_lanes.cpp).
  // Sums in program order: their terms in lanes, blocks of W (lower_ordered.cpp).
  bool blocked = lanes_loop(owner, begin, end, p, body, over_cells) || ordered_loop(owner, begin, end, p, body, over_cells);
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
  B.CreateStore(B.CreateAdd(cur, llvm::ConstantInt::get(t, 1)), var);
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

// The thread's iterations count as an unsigned offset from begin, not as the
// index itself: begin + t0 and each step by the grid's size (~10^5 threads)
// would wrap past a range that ends near the i64 maximum (tests/lang/
// range_for_type_max: a thread then ran negative indices, or stepped for
// ever). The offset is below end - begin, and a thread leaves before a step
// would take it past the count, so it never wraps either.
void Gen::grid_stride_loop(const ir::Stmt* owner, Value* begin, Value* end, Value* t0, Value* step, bool poll,
                           const std::function<void()>& body, bool over_cells) {
  llvm::Type* t = B.getInt64Ty();
  Value* count = B.CreateSelect(B.CreateICmpSLT(begin, end), B.CreateSub(end, begin), B.getInt64(0));
  Value* offset = EB.CreateAlloca(t);
  Value* var = EB.CreateAlloca(t);
  B.CreateStore(t0, offset);
  BasicBlock* cont = new_block("for.next");
  BasicBlock* exit = new_block("for.exit");
  auto [j, head] = loop_head(offset, t, count, false, exit);
  B.CreateStore(B.CreateAdd(begin, j), var);
  loops[owner] = Loop{exit, cont, var, Prim::i64, over_cells};
  if (poll) poll_interrupt(owner->loc);
  body();
  branch(cont);
  B.SetInsertPoint(cont);
  B.CreateStore(B.CreateAdd(j, step), offset);
  B.CreateCondBr(B.CreateICmpULE(B.CreateSub(count, j), step), exit, head);
  B.SetInsertPoint(exit);
}

// Whether a loop's body holds another loop: those poll for Ctrl-C at each
// iteration (an innermost counted loop always ends; a poll would keep it from
// vectorizing).
bool has_inner_loop(const ir::Block& b) {
  bool found = false;
  ir::walk(const_cast<ir::Block&>(b), [&](ir::Stmt* s) {
    found |= s->kind == StmtKind::while_ || s->kind == StmtKind::range_for;
  });
  return found;
}

void Gen::stmt(const ir::Stmt& s) {
  if (s.loc.known()) loc = s.loc;
  if (!dropped.empty() && dropped.count(&s)) return;
  if (!ordered_terms.empty() && ordered_term(s)) return;
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
      if (s.ops[0]->type.is_ptr) {  // ti.get_addr: the element's address as a u64
        val[&s] = B.CreatePtrToInt(ptr.at(s.ops[0]), B.getInt64Ty());
        return;
      }
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
        if (s.index < 0 || s.index >= num_cell_indices - (l.bit ? 1 : 0))
          unsupported(s, "a struct-for index out of range");
        Value* k = B.CreateLoad(B.getInt64Ty(), l.var);
        Value* at = B.CreateAdd(B.CreateMul(k, B.getInt64(num_cell_indices)), B.getInt64(s.index));
        Value* idx = B.CreateLoad(B.getInt64Ty(), B.CreateInBoundsGEP(B.getInt64Ty(), cells, at));
        if (l.bit) {  // a word row's first cell: this cell is `bit` cells on
          Value* bit = B.CreateLoad(B.getInt64Ty(), l.bit);
          if (s.index == num_cell_indices - 2) idx = B.CreateAdd(idx, B.CreateMul(bit, B.getInt64((uint64_t)l.cell_size)));
          else if (s.index == l.col) idx = B.CreateAdd(idx, bit);
        }
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
    case StmtKind::shared_array: lower_shared_array(*this, s); return;
    case StmtKind::shared_ptr: lower_shared_ptr(*this, s); return;
    case StmtKind::simt:
      if (Value* v = lower_simt(*this, s)) val[&s] = v;
      return;
    default: unsupported(s, std::string("statement kind '") + ir::stmt_kind_name(s.kind) + "'");
  }
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

}  // namespace kiln::llvmjit
