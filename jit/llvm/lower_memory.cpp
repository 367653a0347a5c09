// Global memory: a field element's address (dense layouts inline, sparse
// ones through lower_sparse.cpp, ndarray arguments from their data pointer
// and shape), bounds-checked as the bytecode checks it unless the frontend or
// lower_rows.cpp proved it in bounds (lower_calls.cpp reports a failed check),
// and atomics, read-modify-write or compare-and-swap loops.
#include "jit/llvm/lower_state.h"
#include "vm/runtime/program.h"

namespace kiln::llvmjit {

using ir::StmtKind;
using llvm::BasicBlock;
using llvm::Value;

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

// A cell's address (an i64 sum: the struct-for row's cell address plus
// offsets) as a pointer: each base once through inttoptr, each added offset
// a GEP from it. An inttoptr of the whole sum hides from LLVM that a dense
// block's consecutive cells are consecutive addresses: sparse_grid's loop
// over a block's 64 cells stayed scalar (16 scalar add-and-stores a turn).
static Value* cell_pointer(llvm::IRBuilder<>& B, Value* addr) {
  auto* add = llvm::dyn_cast<llvm::BinaryOperator>(addr);
  if (!add || add->getOpcode() != llvm::Instruction::Add)
    return B.CreateIntToPtr(addr, llvm::PointerType::get(B.getContext(), 0));
  auto offset_like = [](Value* v) {
    if (llvm::isa<llvm::Constant>(v)) return true;
    auto* o = llvm::dyn_cast<llvm::BinaryOperator>(v);
    return o && (o->getOpcode() == llvm::Instruction::Mul || o->getOpcode() == llvm::Instruction::Shl);
  };
  Value *base = add->getOperand(0), *off = add->getOperand(1);
  if (offset_like(base) && !offset_like(off)) std::swap(base, off);
  return B.CreateInBoundsGEP(B.getInt8Ty(), cell_pointer(B, base), off);
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
  if (!staged.empty() && staged.count(&s)) {
    ptr[&s] = staged_address(s, idx[0]);
    return;
  }
  if (acc.in_cell) {  // the struct-for's cell address plus the element's offset in it
    // (On the GPU a pointer or dynamic SNode's cells are in its device pool, tree memory.)
    Value* cell = cell_pointer(B, idx.at(0));
    ptr[&s] = B.CreateInBoundsGEP(B.getInt8Ty(), cell, B.getInt64((uint64_t)acc.offset));
    return;
  }
  if (acc.sparse_place >= 0) {
    if (Value* at = acc.checked ? appended_cell(s) : nullptr) {
      ptr[&s] = at;
      return;
    }
    return sparse_ptr(s, idx);
  }
  ptr[&s] = dense_address(s, idx, exact);
}

// The element a ti.append writes its value to: a place under the list at
// the append's indices with the append's result on the list's axis. Its
// address is the new cell's, which the append found or made
// (lower_pools.cpp), plus the place's offset: no second walk reloading the
// length and the chunk. Only for a checked access: a full list's result
// (the capacity) fails the bounds check before the address is used.
Value* Gen::appended_cell(const ir::Stmt& s) {
  const SNode* place = prog ? prog->snode(s.access->sparse_place) : nullptr;
  if (!place || place->kind != SNodeKind::place || !place->parent) return nullptr;
  for (size_t v = 0; v < s.ops.size(); v++) {
    const ir::Stmt* a = s.ops[v];
    auto hit = append_cells.find(a);
    if (hit == append_cells.end() || a->snode != place->parent->id || a->ops.size() != s.ops.size()) continue;
    bool same = true;
    for (size_t u = 0; u < s.ops.size(); u++) same &= u == v || a->ops[u] == s.ops[u];
    if (same) return B.CreateInBoundsGEP(B.getInt8Ty(), hit->second, B.getInt64((uint64_t)place->offset_in_cell));
  }
  return nullptr;
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

}  // namespace kiln::llvmjit
