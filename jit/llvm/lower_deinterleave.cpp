// A lane block's reads of an interleaved field from a de-interleaved copy
// (stage_interleaved; lower_lanes.cpp calls it).
//
// A vector field's components are interleaved in memory (a vec3 f32 field:
// x, y, z of element j at 12 * j, 12 * j + 4, 12 * j + 8). A lane block that
// reads field[j].x, .y, .z at its own index j loads 3 * W floats and
// shuffles them into three W-wide vectors (bench/nbody's force loop: six
// vpermt2ps per 16 bodies), and it does so again for every iteration of the
// loop around it, which reads the same elements each time. When the inner
// loop's range is constant and the task never writes the field, the task
// copies the elements of that range into one array per component (a local
// array, once per call of the task's function, at the first block), and the
// blocks read those arrays: W consecutive floats, one load, as a C++ program
// keeping x, y and z in three arrays reads them. The values are the field's
// (nothing writes it while the task runs), so the results are the same bits.
#include "jit/llvm/lower_state.h"

namespace kiln::llvmjit {

using ir::StmtKind;
using llvm::BasicBlock;
using llvm::Value;

namespace {

// The copies live on the task's stack: at most this many bytes a loop.
constexpr int64_t kStageBytes = 128 << 10;

bool stageable_prim(Prim p) { return p == Prim::f32 || p == Prim::f64 || p == Prim::i32 || p == Prim::i64; }

bool dense_place(const ir::Access& a) { return a.ext_arg < 0 && a.sparse_place < 0 && !a.in_cell; }

// Whether the task may write the dense place at (tree, offset): a store or
// an atomic through an access that is, or might be, that place; any call or
// SNode operation counts as a write.
bool may_write(const ir::Stmt& task, const ir::Access& place) {
  bool hit = false;
  auto scan = [&](ir::Block& b) {
    ir::walk(b, [&](ir::Stmt* s) {
      if (s->kind == StmtKind::call || s->kind == StmtKind::snode_op) hit = true;
      if (s->kind != StmtKind::global_store && s->kind != StmtKind::atomic) return;
      const ir::Stmt* p = s->ops.empty() ? nullptr : s->ops[0];
      if (!p || p->kind != StmtKind::global_ptr) {
        hit |= !p || p->kind != StmtKind::alloca;
        return;
      }
      const ir::Access& a = p->access;
      if (a.ext_arg >= 0) return;  // an ndarray's memory is not a tree's
      if (a.tree != place.tree) return;
      hit |= !dense_place(a) || a.offset == place.offset;
    });
  };
  for (ir::Block* b : {task.body.get(), task.tls_prologue(), task.tls_epilogue()})
    if (b) scan(*b);
  return hit;
}

}  // namespace

void Gen::stage_interleaved(const ir::Stmt& owner) {
  if (gpu || owner.kind != StmtKind::range_for || &owner == task_stmt || !task_stmt || !owner.body) return;
  // Only a loop that runs again in the same call reads its copy again.
  bool repeats = false;
  for (const ir::Block* b = owner.parent; b && b->owner && !repeats; b = b->owner->parent) {
    const ir::Stmt* o = b->owner;
    repeats = o == task_stmt ? o->task != ir::Task::serial : o->kind == StmtKind::range_for || o->kind == StmtKind::while_;
    if (o == task_stmt) break;
  }
  if (!repeats) return;
  const ir::Stmt *lo_s = owner.ops[0], *hi_s = owner.ops[1];
  if (lo_s->kind != StmtKind::const_ || hi_s->kind != StmtKind::const_ || !prim_is_int(lo_s->type.prim)) return;
  const int64_t lo = lo_s->value.i, hi = hi_s->value.i;
  if (lo < 0 || hi <= lo) return;
  auto it = stages.find(&owner);
  if (it == stages.end()) {
    // The body's reads at the loop's own index of dense 1-D places whose
    // elements are further apart than their size, used only by loads.
    std::unordered_map<const ir::Stmt*, int> other_uses;
    ir::walk(*owner.body, [&](ir::Stmt* s) {
      for (size_t k = 0; k < s->ops.size(); k++)
        if (s->kind != StmtKind::global_load || k != 0) other_uses[s->ops[k]]++;
    });
    Stage st;
    int64_t bytes = 0;
    // Reads under an `if` too (ordered_loop's bodies: `if i != j`): the
    // copy holds the whole range, so any of its elements may be read.
    std::vector<const ir::Stmt*> ptrs;
    ir::walk(*owner.body, [&](ir::Stmt* s) {
      if (s->kind == StmtKind::global_ptr) ptrs.push_back(s);
    });
    for (const ir::Stmt* up : ptrs) {
      const ir::Stmt& s = *up;
      if (s.kind != StmtKind::global_ptr || s.ops.size() != 1 || other_uses.count(&s)) continue;
      const ir::Access& a = s.access;
      if (!dense_place(a) || a.shape.size() != 1 || a.terms.size() != 1 || hi > a.shape[0]) continue;
      const ir::IndexTerm& t = a.terms[0];
      Prim p = s.type.prim;
      if (t.axis != 0 || t.div != 1 || t.mod != 0 || !stageable_prim(p) || t.stride <= prim_bits(p) / 8) continue;
      const ir::Stmt* x = s.ops[0];
      if (x->kind != StmtKind::loop_index || x->loop != &owner || x->index != 0) continue;
      if (may_write(*task_stmt, a)) continue;
      int k = 0;
      while (k < (int)st.places.size() && !(st.places[k]->access->tree == a.tree && st.places[k]->access->offset == a.offset))
        k++;
      if (k == (int)st.places.size()) {
        int64_t size = (hi - lo) * (prim_bits(p) / 8);
        if (bytes + size > kStageBytes) continue;
        bytes += size;
        st.places.push_back(&s);
      }
      st.reads[&s] = k;
    }
    if (!st.places.empty()) {
      st.done = EB.CreateAlloca(B.getInt1Ty());
      EB.CreateStore(B.getFalse(), st.done);
      for (const ir::Stmt* s : st.places) {
        llvm::AllocaInst* arr = EB.CreateAlloca(llvm::ArrayType::get(type(s->type.prim, s), (uint64_t)(hi - lo)));
        arr->setAlignment(llvm::Align(64));
        st.arrays.push_back(arr);
      }
    }
    it = stages.emplace(&owner, std::move(st)).first;
  }
  const Stage& st = it->second;
  if (st.places.empty()) return;
  // The first block of the task's call copies the range [lo, hi) of each place.
  BasicBlock* copy = new_block("stage.copy");
  BasicBlock* done = new_block("stage.done");
  B.CreateCondBr(B.CreateLoad(B.getInt1Ty(), st.done), done, copy);
  B.SetInsertPoint(copy);
  BasicBlock* pre = B.GetInsertBlock();
  BasicBlock* body = new_block("stage.loop");
  B.CreateBr(body);
  B.SetInsertPoint(body);
  llvm::PHINode* k = B.CreatePHI(B.getInt64Ty(), 2);
  k->addIncoming(B.getInt64(0), pre);
  Value* j = B.CreateNUWAdd(k, B.getInt64((uint64_t)lo));
  for (size_t c = 0; c < st.places.size(); c++) {
    const ir::Stmt& s = *st.places[c];
    llvm::Type* t = type(s.type.prim, &s);
    llvm::LoadInst* l = B.CreateLoad(t, dense_address(s, {j}, true));
    l->setAlignment(llvm::Align(1));
    B.CreateStore(l, B.CreateInBoundsGEP(t, st.arrays[c], k));
  }
  Value* next = B.CreateNUWAdd(k, B.getInt64(1));
  k->addIncoming(next, body);
  B.CreateCondBr(B.CreateICmpULT(next, B.getInt64((uint64_t)(hi - lo))), body, done);
  B.SetInsertPoint(done);
  B.CreateStore(B.getTrue(), st.done);
  for (auto& [read, c] : st.reads) staged[read] = {st.arrays[c], lo};
}

// A staged read's address: element index - lo of its copy (global_ptr has
// checked the index as it checks any access).
Value* Gen::staged_address(const ir::Stmt& s, Value* index) {
  const Staged& at = staged.at(&s);
  llvm::Type* t = type(s.type.prim, &s);
  return B.CreateInBoundsGEP(t, at.array, B.CreateNSWSub(index, B.getInt64((uint64_t)at.first)));
}

}  // namespace kiln::llvmjit
