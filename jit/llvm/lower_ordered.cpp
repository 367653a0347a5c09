// Loops holding float sums kept in program order, in blocks of W iterations
// whose terms the loop vectorizer computes in lanes (ordered_loop).
//
// A float sum that fast_math did not split (fast_math=False, or a field
// element's sum that promote_elements keeps in a local: Taichi's n-body
// example's `force[i] += f` over j) is a chain of adds, each rounding the
// one before. LLVM vectorizes such a chain only where its target asks for
// in-order reductions (not x86), and never an fma chain (fast_math's
// contraction of `s += a * b`), so the whole loop ran scalar: sqrt and
// division one pair at a time, where g++ computes 16 terms in a zmm and then
// adds them into the sum one lane after another (a fold-left reduction).
//
// When every value the loop carries is such a sum (one `s = s + t`,
// `t + s`, `s - t` or `fma(a, b, s)` in the body, maybe under `if`s, whose
// read of s feeds only that op), the loop runs as blocks: a counted loop of
// W iterations computes each iteration's terms into arrays (lane l is
// iteration first + l), which LLVM vectorizes, then the block folds them
// into the sums lane by lane, in iteration order; the last n % W iterations
// run as written. An iteration whose `if` skips the sum leaves the neutral
// term: -0.0 for an add (x + -0.0 is x), +0.0 for a sub, fma(-0.0, +0.0, s)
// for an fma; every value stays as it was but a signalling NaN, which comes
// out quiet (the JIT's ordered lanes do the same: jit/vector.h). Each sum
// rounds as the interpreter's, in the same order: the same bits. Other
// effects of the body (loads, stores, the checks) keep their order, as the
// lanes run the iterations in order; only the sums' adds come later, and
// nothing in the body reads a sum but its own add.
//
// The accesses the body checks must be proven in bounds for the blocks (at
// the first and last iteration they cover, their indices being the loop's
// index plus invariants): a check is an exit, which would keep the block's
// loop scalar. Where an end is out of bounds the blocks do not run and the
// loop runs as written, failing where the interpreter fails.
#include "jit/llvm/lower_state.h"

namespace kiln::llvmjit {

using ir::StmtKind;
using llvm::BasicBlock;
using llvm::Value;

namespace {

bool inside(const ir::Stmt* s, const ir::Block& b) {
  for (const ir::Block* p = s->parent; p; p = p->owner ? p->owner->parent : nullptr)
    if (p == &b) return true;
  return false;
}

// The body's statements that keep a loop from taking lanes or from running
// its iterations' sums late: early exits, inner loops, calls and runtime
// calls, and what LLVM does not vectorize anyway.
bool blocks_lanes(const ir::Stmt& s) {
  switch (s.kind) {
    case StmtKind::break_:
    case StmtKind::continue_:
    case StmtKind::return_:
    case StmtKind::while_:
    case StmtKind::range_for:
    case StmtKind::offloaded:
    case StmtKind::print:
    case StmtKind::assert_:
    case StmtKind::random:
    case StmtKind::snode_op:
    case StmtKind::atomic:
    case StmtKind::call:
    case StmtKind::call_ret:
    case StmtKind::ad_stack:
    case StmtKind::ad_push:
    case StmtKind::ad_pop:
    case StmtKind::ad_top:
    case StmtKind::shared_array:
    case StmtKind::shared_ptr:
    case StmtKind::simt: return true;
    case StmtKind::global_ptr:
      return s.access->ext_arg >= 0 || s.access->sparse_place >= 0 || s.access->in_cell;
    default: return false;
  }
}

}  // namespace

// The in-order sums of `owner`'s body when every value it carries is one
// (and there is at least one), else an empty list.
std::vector<Gen::OrderedSum> Gen::ordered_sums(const ir::Stmt& owner) {
  const ir::Block& body = *owner.body;
  bool ok = true;
  std::unordered_map<const ir::Stmt*, int> uses;
  std::unordered_map<const ir::Stmt*, std::vector<const ir::Stmt*>> loads, stores;  // outer allocas
  ir::walk(const_cast<ir::Block&>(body), [&](ir::Stmt* s) {
    if (blocks_lanes(*s)) ok = false;
    for (const ir::Stmt* o : s->ops) uses[o]++;
    if ((s->kind == StmtKind::local_load || s->kind == StmtKind::local_store) && !inside(s->ops[0], body))
      (s->kind == StmtKind::local_load ? loads : stores)[s->ops[0]].push_back(s);
  });
  if (!ok || stores.empty()) return {};
  std::vector<OrderedSum> out;
  for (auto& [slot, st] : stores) {
    Prim p = slot->type.prim;
    if ((p != Prim::f32 && p != Prim::f64) || st.size() != 1 || loads[slot].size() != 1) return {};
    OrderedSum sum{slot, loads[slot][0], st[0]->ops[1], st[0]};
    const ir::Stmt *r = sum.read, *op = sum.op;
    if (r->parent != sum.write->parent || uses[r] != 1 || uses[op] != 1 || op->type.prim != p) return {};
    if (op->kind == StmtKind::binary && op->bop == ir::BinaryOp::add && (op->ops[0] == r) != (op->ops[1] == r)) {
      sum.kind = op->ops[0] == r ? OrderedSum::add : OrderedSum::add_first;
    } else if (op->kind == StmtKind::binary && op->bop == ir::BinaryOp::sub && op->ops[0] == r && op->ops[1] != r) {
      sum.kind = OrderedSum::sub;
    } else if (op->kind == StmtKind::fma && op->ops[2] == r && op->ops[0] != r && op->ops[1] != r) {
      sum.kind = OrderedSum::fma;
    } else {
      return {};
    }
    out.push_back(sum);
  }
  return out;
}

// Whether inner_affine takes `e` (it emits nothing).
bool Gen::is_inner_affine(const ir::Stmt* e, const ir::Stmt& owner) {
  Prim p = e->type.prim;
  if (!prim_is_int(p) || prim_bits(p) > 32) return false;
  if ((e->kind == StmtKind::loop_index && e->loop == &owner && e->index == 0) || e->kind == StmtKind::const_ ||
      !inside(e, *owner.body))
    return true;
  if (e->kind != StmtKind::binary || (e->bop != ir::BinaryOp::add && e->bop != ir::BinaryOp::sub)) return false;
  bool av = varies_in(e->ops[0], owner), bv = varies_in(e->ops[1], owner);
  if (bv && (av || e->bop == ir::BinaryOp::sub)) return false;
  return is_inner_affine(e->ops[0], owner) && is_inner_affine(e->ops[1], owner);
}

// Whether `e` depends on owner's index (through statements of its body).
bool Gen::varies_in(const ir::Stmt* e, const ir::Stmt& owner) {
  if (e->kind == StmtKind::loop_index && e->loop == &owner) return true;
  if (!inside(e, *owner.body)) return false;
  for (const ir::Stmt* o : e->ops)
    if (varies_in(o, owner)) return true;
  return false;
}

// Index `e` of an access in owner's body as an exact i64 at index j (an
// i64), when it is the loop's index plus or minus invariants (constants,
// values from outside the loop) with slope 0 or 1; null otherwise.
Value* Gen::inner_affine(const ir::Stmt* e, const ir::Stmt& owner, Value* j) {
  Prim p = e->type.prim;
  if (!prim_is_int(p) || prim_bits(p) > 32) return nullptr;
  if (e->kind == StmtKind::loop_index && e->loop == &owner && e->index == 0) return j;
  if (e->kind == StmtKind::const_) return B.getInt64((uint64_t)e->value.i);
  if (!inside(e, *owner.body)) {
    Value* v = val.at(e);
    return prim_is_signed(p) ? B.CreateSExt(v, B.getInt64Ty()) : B.CreateZExt(v, B.getInt64Ty());
  }
  if (!is_inner_affine(e, owner)) return nullptr;
  Value* a = inner_affine(e->ops[0], owner, j);
  Value* b = inner_affine(e->ops[1], owner, j);
  return e->bop == ir::BinaryOp::add ? B.CreateNSWAdd(a, b) : B.CreateNSWSub(a, b);
}

bool Gen::ordered_loop(const ir::Stmt* owner, Value*& begin, Value* end, Prim p, const std::function<void()>& body,
                       bool over_cells) {
  if (gpu || over_cells || !owner->body || !prim_is_int(p) || prim_bits(p) > 32) return false;
  std::vector<OrderedSum> sums = ordered_sums(*owner);
  if (sums.empty()) return false;
  // Every checked access must be affine in the index: checked at the blocks' two ends.
  std::vector<const ir::Stmt*> checked;
  bool affine = true;
  ir::walk(const_cast<ir::Block&>(*owner->body), [&](ir::Stmt* s) {
    if (s->kind != StmtKind::global_ptr || !s->access->checked || proven.count(s)) return;
    if (s->access->shape.size() != s->ops.size()) affine = false;
    for (const ir::Stmt* o : s->ops) affine &= is_inner_affine(o, *owner);
    checked.push_back(s);
  });
  if (!affine) return false;
  bool f32 = false;
  for (const OrderedSum& s : sums) f32 |= s.slot->type.prim == Prim::f32;
  const uint64_t w = f32 ? 16 : 8;  // one 512-bit vector of f32 terms (fast_math's split width)
  llvm::Type* t = type(p, owner);
  bool is_signed = prim_is_signed(p);
  Value* more = is_signed ? B.CreateICmpSLT(begin, end) : B.CreateICmpULT(begin, end);
  Value* n = B.CreateSelect(more, B.CreateSub(end, begin), llvm::ConstantInt::get(t, 0));
  Value* blocks_end = B.CreateAdd(begin, B.CreateAnd(n, llvm::ConstantInt::get(t, ~(w - 1))));
  if (!checked.empty()) {
    Value* in = B.getTrue();
    auto wide = [&](Value* v) { return is_signed ? B.CreateSExt(v, B.getInt64Ty()) : B.CreateZExt(v, B.getInt64Ty()); };
    Value* first = wide(begin);
    Value* last = B.CreateSub(wide(blocks_end), B.getInt64(1));
    for (const ir::Stmt* s : checked)
      for (size_t a = 0; a < s->ops.size(); a++) {
        Value* lo = inner_affine(s->ops[a], *owner, first);
        Value* hi = inner_affine(s->ops[a], *owner, last);
        Value* lim = B.getInt64((uint64_t)s->access->shape[a]);
        in = B.CreateAnd(in, B.CreateAnd(B.CreateICmpULT(lo, lim), B.CreateICmpULT(hi, lim)));
      }
    // Out of bounds somewhere: no blocks (nor with none to run: then last is begin - 1).
    blocks_end = B.CreateSelect(in, blocks_end, begin);
  }
  llvm::Type* i64 = B.getInt64Ty();
  // Per sum: its terms' arrays (an fma's two factors) and the lane's term slots.
  struct Terms {
    llvm::Type* elt;
    Value* arr[2] = {nullptr, nullptr};
    Value* slot[2] = {nullptr, nullptr};
  };
  std::vector<Terms> terms(sums.size());
  for (size_t k = 0; k < sums.size(); k++) {
    Terms& tm = terms[k];
    tm.elt = type(sums[k].slot->type.prim, sums[k].slot);
    for (int f = 0; f < (sums[k].kind == OrderedSum::fma ? 2 : 1); f++) {
      llvm::AllocaInst* a = EB.CreateAlloca(llvm::ArrayType::get(tm.elt, w));
      a->setAlignment(llvm::Align(64));
      tm.arr[f] = a;
      tm.slot[f] = EB.CreateAlloca(tm.elt);
      ordered_terms[sums[k].op].slot[f] = tm.slot[f];
    }
    ordered_terms[sums[k].op].read = sums[k].read;
    dropped.insert(sums[k].read);
    dropped.insert(sums[k].write);
  }
  stage_interleaved(*owner);
  LaneBlocks lb = open_lane_blocks(owner, begin, blocks_end, p, w, false, {});
  // A lane that skips its sum keeps the neutral term.
  for (size_t k = 0; k < sums.size(); k++) {
    bool sub = sums[k].kind == OrderedSum::sub;
    B.CreateStore(llvm::ConstantFP::get(terms[k].elt, sub ? 0.0 : -0.0), terms[k].slot[0]);
    if (terms[k].slot[1]) B.CreateStore(llvm::ConstantFP::get(terms[k].elt, 0.0), terms[k].slot[1]);
  }
  std::vector<const ir::Stmt*> added;  // proven here (the blocks' range is in bounds)
  for (const ir::Stmt* s : checked)
    if (proven.insert(s).second) added.push_back(s);
  body();
  for (const ir::Stmt* s : added) proven.erase(s);
  staged.clear();
  branch(lb.lanes_next);
  B.SetInsertPoint(lb.lanes_next);
  Value* lane = B.CreateZExt(lb.lane, i64);
  for (Terms& tm : terms)
    for (int f = 0; f < 2 && tm.slot[f]; f++)
      B.CreateStore(B.CreateLoad(tm.elt, tm.slot[f]), B.CreateInBoundsGEP(llvm::ArrayType::get(tm.elt, w), tm.arr[f],
                                                                         {B.getInt64(0), lane}));
  close_lanes(lb);
  // The fold: each sum takes its W terms in iteration order.
  std::vector<Value*> acc;
  for (size_t k = 0; k < sums.size(); k++) acc.push_back(B.CreateLoad(terms[k].elt, ptr.at(sums[k].slot)));
  for (uint64_t x = 0; x < w; x++)
    for (size_t k = 0; k < sums.size(); k++) {
      const Terms& tm = terms[k];
      auto term = [&](int f) {
        return B.CreateLoad(tm.elt, B.CreateConstInBoundsGEP2_64(llvm::ArrayType::get(tm.elt, w), tm.arr[f], 0, x));
      };
      switch (sums[k].kind) {
        case OrderedSum::add: acc[k] = B.CreateFAdd(acc[k], term(0)); break;
        case OrderedSum::add_first: acc[k] = B.CreateFAdd(term(0), acc[k]); break;
        case OrderedSum::sub: acc[k] = B.CreateFSub(acc[k], term(0)); break;
        case OrderedSum::fma:
          acc[k] = B.CreateIntrinsic(llvm::Intrinsic::fma, {tm.elt}, {term(0), term(1), acc[k]});
          break;
      }
    }
  for (size_t k = 0; k < sums.size(); k++) B.CreateStore(acc[k], ptr.at(sums[k].slot));
  next_block(lb);
  for (const OrderedSum& s : sums) {
    ordered_terms.erase(s.op);
    dropped.erase(s.read);
    dropped.erase(s.write);
  }
  begin = blocks_end;  // the caller runs the rest as written
  return true;
}

// An ordered sum's op inside ordered_loop's lanes: its term (or an fma's
// two factors) into the lane's slots instead of the add.
bool Gen::ordered_term(const ir::Stmt& s) {
  auto it = ordered_terms.find(&s);
  if (it == ordered_terms.end()) return false;
  const OrderedTerm& o = it->second;
  if (s.kind == StmtKind::fma) {
    B.CreateStore(val.at(s.ops[0]), o.slot[0]);
    B.CreateStore(val.at(s.ops[1]), o.slot[1]);
  } else {  // add or sub: the operand that is not the sum's read
    B.CreateStore(val.at(s.ops[0] == o.read ? s.ops[1] : s.ops[0]), o.slot[0]);
  }
  return true;
}

}  // namespace kiln::llvmjit
