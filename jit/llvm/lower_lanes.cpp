// Loops holding fast_math's split sums, in blocks of W iterations that the
// loop vectorizer takes (lanes_loop).
//
// split_sums (vm/ir/passes/split_sums.cpp) gives a sum W partials that
// rotate: each add reads p0, the partials move down one and the sum goes to
// p(W-1). That recurrence is not a reduction LLVM's loop vectorizer knows.
// When every add of the loop's sums sits at the top of its body (one add per
// iteration) and nothing leaves an iteration early, W consecutive iterations
// from any point add, in order, into the partials that were p0, p1, ...,
// p(W-1) when the block began, and leave them where they were. So the loop
// runs as blocks: an outer loop over blocks of W iterations, and inside it a
// counted loop of W iterations whose l-th adds into element l of an array of
// the partials (copied in before the blocks and back after them); then the
// last n % W iterations run as written. Same adds in the same order: the
// results are the interpreter's bits whether LLVM vectorizes or not. The
// inner loop is W independent lanes with consecutive (or interleaved, for a
// vector field's components) accesses, which the loop vectorizer packs into
// one W-wide iteration, the whole block; an unroller must not take it first.
//
// W is fast_math's: 16 f32 or 8 f64 partials, one 512-bit vector. On AVX-512
// hosts a block is then one zmm iteration (bench/nbody's divisions and square
// roots 16 lanes wide, three fmas into the sums, as g++'s); where the module
// prefers 256-bit vectors LLVM splits it into two ymm halves, two independent
// chains per sum.
#include <llvm/IR/Intrinsics.h>

#include "jit/llvm/lower_state.h"
#include "jit/llvm/prefetch.h"

namespace kiln::llvmjit {

using ir::StmtKind;
using llvm::BasicBlock;
using llvm::Value;

bool is_sum_move(const ir::Stmt& s) {
  return s.kind == StmtKind::local_store && s.ops.size() == 2 && s.ops[1]->kind == StmtKind::local_load &&
         s.ops[1]->ops[0] != s.ops[0] && prim_is_float(s.ops[1]->type.prim);
}

namespace {

struct LaneSum {
  std::vector<const ir::Stmt*> parts;  // the allocas p0..pW-1
  const ir::Stmt* read = nullptr;      // the add's load of p0
  const ir::Stmt* write = nullptr;     // the store of the sum into pW-1
};

// The split sums of `owner`'s body when they all have the shape above (and
// there is at least one), else an empty list.
std::vector<LaneSum> lane_sums(const ir::Stmt& owner) {
  const ir::Block& body = *owner.body;
  bool ok = true;
  std::unordered_map<const ir::Stmt*, const ir::Stmt*> next;  // move target -> its source
  std::unordered_map<const ir::Stmt*, int> loads, stores;     // accesses per alloca, anywhere in the body
  std::unordered_map<const ir::Stmt*, const ir::Stmt*> top_load, top_store;
  std::vector<const ir::Stmt*> moves;
  ir::walk(const_cast<ir::Block&>(body), [&](ir::Stmt* s) {
    switch (s->kind) {
      case StmtKind::break_:
      case StmtKind::continue_:
      case StmtKind::return_:
      case StmtKind::range_for:
      case StmtKind::while_: ok = false; return;
      case StmtKind::local_load:
        loads[s->ops[0]]++;
        if (s->parent == &body) top_load[s->ops[0]] = s;
        return;
      case StmtKind::local_store:
        stores[s->ops[0]]++;
        if (is_sum_move(*s)) {
          if (s->parent != &body) ok = false;  // a sum inside an `if`: not one add per iteration
          next[s->ops[0]] = s->ops[1]->ops[0];
          moves.push_back(s);
        } else if (s->parent == &body) {
          top_store[s->ops[0]] = s;
        }
        return;
      default: return;
    }
  });
  if (!ok || moves.empty()) return {};
  std::unordered_set<const ir::Stmt*> sources;
  for (auto& [to, from] : next) sources.insert(from);
  std::vector<LaneSum> out;
  size_t chained = 0;
  for (const ir::Stmt* m : moves) {
    const ir::Stmt* head = m->ops[0];
    if (sources.count(head)) continue;  // not p0
    LaneSum sum;
    for (const ir::Stmt* a = head;; a = next.at(a)) {
      sum.parts.push_back(a);
      if (!next.count(a)) break;
      if (sum.parts.size() > 64) return {};
    }
    const ir::Stmt* last = sum.parts.back();
    auto r = top_load.find(head);
    auto w = top_store.find(last);
    if (r == top_load.end() || w == top_store.end()) return {};
    sum.read = r->second;
    sum.write = w->second;
    bool uses_read = false;
    for (const ir::Stmt* o : sum.write->ops[1]->ops) uses_read |= o == sum.read;
    if (!uses_read || (!out.empty() && out[0].parts.size() != sum.parts.size())) return {};
    // Each partial: one load (the add's, or a move's) and one store in the body.
    for (const ir::Stmt* a : sum.parts)
      if (loads[a] != 1 || stores[a] != 1) return {};
    chained += sum.parts.size() - 1;
    out.push_back(std::move(sum));
  }
  size_t w = out.empty() ? 0 : out[0].parts.size();
  if (chained != moves.size() || w < 2 || (w & (w - 1))) return {};
  return out;
}

}  // namespace

bool Gen::lanes_loop(const ir::Stmt* owner, Value*& begin, Value* end, Prim p, const std::function<void()>& body,
                     bool over_cells) {
  if (gpu || !owner->body) return false;
  std::vector<LaneSum> sums = lane_sums(*owner);
  if (sums.empty()) return false;
  // (A partial not lowered yet, one the loop's own body declares, is no sum
  // carried around it: the loop runs as written. kiln-fuzz seed 33238: a
  // min in a loop that never runs, in a serialized loop.)
  for (const LaneSum& sum : sums)
    for (const ir::Stmt* a : sum.parts)
      if (!ptr.count(a)) return false;
  const uint64_t w = sums[0].parts.size();
  llvm::Type* t = type(p, owner);
  llvm::Type* elt = type(sums[0].parts[0]->type.prim, sums[0].parts[0]);
  bool is_signed = prim_is_signed(p);
  // The blocks end at begin + (the trip count rounded down to a block); the count
  // end - begin is exact as an unsigned number of the loop's width.
  Value* more = is_signed ? B.CreateICmpSLT(begin, end) : B.CreateICmpULT(begin, end);
  Value* n = B.CreateSelect(more, B.CreateSub(end, begin), llvm::ConstantInt::get(t, 0));
  Value* blocks_end = B.CreateAdd(begin, B.CreateAnd(n, llvm::ConstantInt::get(t, ~(w - 1))));
  std::vector<Value*> arrays;
  auto copy = [&](bool in) {
    for (size_t k = 0; k < sums.size(); k++)
      for (uint64_t l = 0; l < w; l++) {
        Value* slot = B.CreateConstInBoundsGEP2_64(llvm::ArrayType::get(elt, w), arrays[k], 0, l);
        Value* part = ptr.at(sums[k].parts[l]);
        in ? B.CreateStore(B.CreateLoad(elt, part), slot) : B.CreateStore(B.CreateLoad(elt, slot), part);
      }
  };
  for (size_t k = 0; k < sums.size(); k++) {
    arrays.push_back(EB.CreateAlloca(llvm::ArrayType::get(elt, w)));
    llvm::cast<llvm::AllocaInst>(arrays.back())->setAlignment(llvm::Align(64));
  }
  copy(true);
  stage_interleaved(*owner);
  LaneBlocks lb = open_lane_blocks(owner, begin, blocks_end, p, w, over_cells,
                                   [&](Value* first) { prefetch_ahead(*owner, first); });
  Value* lane = B.CreateZExt(lb.lane, B.getInt64Ty());
  std::vector<std::pair<const ir::Stmt*, Value*>> saved;
  for (size_t k = 0; k < sums.size(); k++) {
    Value* slot = B.CreateInBoundsGEP(llvm::ArrayType::get(elt, w), arrays[k], {B.getInt64(0), lane});
    for (const ir::Stmt* a : {sums[k].parts.front(), sums[k].parts.back()}) {
      saved.emplace_back(a, ptr.at(a));
      ptr[a] = slot;  // the add reads and writes its lane's partial
    }
    ir::walk(const_cast<ir::Block&>(*owner->body), [&](ir::Stmt* s) {
      if (is_sum_move(*s)) dropped.insert(s);
    });
  }
  body();
  staged.clear();
  branch(lb.lanes_next);
  for (auto it = saved.rbegin(); it != saved.rend(); ++it) ptr[it->first] = it->second;
  dropped.clear();
  B.SetInsertPoint(lb.lanes_next);
  close_lanes(lb);
  next_block(lb);
  copy(false);
  begin = blocks_end;  // the caller runs the last n % W iterations as written
  return true;
}

// A block loop over [begin, blocks_end) stepping W, `at_block` run at each
// block's start, then the block's W iterations: lane l is iteration
// first + l. The lane counter has the index's type: first + l then has no
// wrap (it is below end) that LLVM would have to check at run time. Leaves
// the builder in the lane's body, loops[owner] its counter.
Gen::LaneBlocks Gen::open_lane_blocks(const ir::Stmt* owner, Value* begin, Value* blocks_end, Prim p, uint64_t w,
                                      bool over_cells, const std::function<void(Value*)>& at_block) {
  LaneBlocks lb;
  lb.t = type(p, owner);
  lb.w = w;
  lb.is_signed = prim_is_signed(p);
  lb.block_var = EB.CreateAlloca(lb.t);
  B.CreateStore(begin, lb.block_var);
  lb.blocks_exit = new_block("lanes.exit");
  std::tie(lb.first, lb.block_head) = loop_head(lb.block_var, lb.t, blocks_end, lb.is_signed, lb.blocks_exit);
  if (at_block) at_block(lb.first);
  lb.lane_var = EB.CreateAlloca(lb.t);
  Value* index_var = EB.CreateAlloca(lb.t);
  B.CreateStore(llvm::ConstantInt::get(lb.t, 0), lb.lane_var);
  lb.lanes_exit = new_block("lane.exit");
  lb.lanes_next = new_block("lane.next");
  std::tie(lb.lane, lb.lane_head) = loop_head(lb.lane_var, lb.t, llvm::ConstantInt::get(lb.t, w), false, lb.lanes_exit);
  B.CreateStore(lb.is_signed ? B.CreateNSWAdd(lb.first, lb.lane) : B.CreateNUWAdd(lb.first, lb.lane), index_var);
  loops[owner] = Loop{lb.lanes_exit, lb.lanes_next, index_var, p, over_cells};
  return lb;
}

// The lane loop's back edge (the builder at lanes_next); leaves the builder
// at lanes_exit. The full unroller runs before the vectorizer and would take
// this W-iteration loop apart into copies only the SLP vectorizer sees. The
// width asks for W lanes (the cost model, seeing W iterations, may find a
// cheap body not worth it: then the blocks are scalar, and so are the bounds,
// no better); it does not force what cannot be vectorized (a checked copy's
// checks are exits; a call): LLVM's remark saying so is dropped (orc.cpp).
void Gen::close_lanes(const LaneBlocks& lb) {
  B.CreateStore(B.CreateNUWAdd(lb.lane, llvm::ConstantInt::get(lb.t, 1)), lb.lane_var);
  llvm::BranchInst* back = B.CreateBr(lb.lane_head);
  llvm::MDNode* no_unroll = llvm::MDNode::get(C, {llvm::MDString::get(C, "llvm.loop.unroll.disable")});
  llvm::MDNode* width = llvm::MDNode::get(C, {llvm::MDString::get(C, "llvm.loop.vectorize.width"),
                                              llvm::ConstantAsMetadata::get(B.getInt32((uint32_t)lb.w))});
  llvm::MDNode* self = llvm::MDNode::getDistinct(C, {nullptr, no_unroll, width});
  self->replaceOperandWith(0, self);
  back->setMetadata(llvm::LLVMContext::MD_loop, self);
  B.SetInsertPoint(lb.lanes_exit);
}

// The block's end (the builder where the block's work is done): the next
// block; leaves the builder after the blocks.
void Gen::next_block(const LaneBlocks& lb) {
  Value* w = llvm::ConstantInt::get(lb.t, lb.w);
  B.CreateStore(lb.is_signed ? B.CreateNSWAdd(lb.first, w) : B.CreateNUWAdd(lb.first, w), lb.block_var);
  B.CreateBr(lb.block_head);
  B.SetInsertPoint(lb.blocks_exit);
}

// The blocks are one chain of W-wide adds: each holds its place in the
// scheduler until its load's data comes, so over a field that streams from
// memory the core keeps few loads in flight, and the loop runs at memory's
// latency rather than its bandwidth (bench/reduction's f32 sum: g++'s 512-bit
// chain keeps twice the bytes in flight). A prefetch waits for nothing: at
// each block, every access proven in bounds (checked_at_ends: its address is
// affine in the index) prefetches the line kPrefetchBytes past its element.
// Past the field's end it prefetches what is there, which cannot fault.
void Gen::prefetch_ahead(const ir::Stmt& owner, Value* first) {
  if (proof.task != &owner || !prim_is_signed(task_index_prim(owner))) return;
  Value* i = wide_index(first);
  Value* q = proof.q ? wide_index(proof.q) : nullptr;
  Value* m = proof.row_start ? B.CreateNSWSub(i, wide_index(proof.row_start)) : nullptr;
  for (const ir::Stmt* s : proven) {
    const ir::Access& acc = s->access;
    if (acc.in_cell || acc.sparse_place >= 0 || acc.ext_arg >= 0) continue;
    std::vector<Value*> idx;
    for (const ir::Stmt* o : s->ops) idx.push_back(row_affine(o, owner, proof.div, proof.mod, i, q, m));
    Value* p = B.CreateGEP(B.getInt8Ty(), dense_address(*s, idx, true), B.getInt64(kPrefetchBytes));
    B.CreateIntrinsic(llvm::Intrinsic::prefetch, {p->getType()}, {p, B.getInt32(0), B.getInt32(3), B.getInt32(1)});
  }
}

}  // namespace kiln::llvmjit
