// Struct-fors over word rows (word_rows_loop), and flattened ndranges in
// rows (rows_of_flat_range). Offload flattens
// `for i, j in ti.ndrange(...)` into one index that the body takes apart with
// a division and a modulo per iteration; run row by row, the column is a
// counted inner loop, and the accesses whose indices move with it are
// checked at each row's ends instead of at every iteration, so that LLVM can
// vectorize the row.
#include <llvm/IR/Intrinsics.h>

#include "jit/llvm/lower_state.h"
#include "vm/runtime/program.h"
#include "vm/runtime/word_rows.h"

namespace kiln::llvmjit {

using ir::StmtKind;
using llvm::BasicBlock;
using llvm::Value;

// A range over a flattened ndrange: the body's first statements take the
// index apart with `div i C` and `raw_mod i C` (offload's flattening), a
// division each per iteration, and the field accesses they feed cannot be
// vectorized. For a range of non-negative indices the chunk runs instead row
// by row: an outer loop with one division per row, an inner counted loop in
// which `i div C` is the row (invariant) and `i mod C` is i - row * C.
// Returns false (nothing emitted) when the body does not have that shape.
bool Gen::rows_of_flat_range(const ir::Stmt& task, Value* begin, Value* end, Prim p, bool poll,
                             const std::function<void()>& body) {
  if (!task.body || !task.rare().begin_const || task.begin < 0 || !prim_is_signed(p)) return false;
  const ir::Stmt *div = nullptr, *mod = nullptr;
  int64_t c = 0;
  for (auto& st : task.body->stmts) {
    const ir::Stmt& x = *st;
    if (x.kind != StmtKind::binary || (x.bop != ir::BinaryOp::div && x.bop != ir::BinaryOp::raw_mod)) continue;
    const ir::Stmt *a = x.ops[0], *k = x.ops[1];
    if (a->kind != StmtKind::loop_index || a->loop != &task || a->index != 0 || a->type.prim != p) continue;
    if (k->kind != StmtKind::const_ || k->value.i <= 0 || (c && k->value.i != c) || x.type.prim != p) continue;
    c = k->value.i;
    (x.bop == ir::BinaryOp::div ? div : mod) = &x;
  }
  if (!div || !mod) return false;
  llvm::Type* t = type(p, &task);
  Value* at = EB.CreateAlloca(t);
  B.CreateStore(begin, at);
  BasicBlock* exit = new_block("rows.exit");
  auto [i, head] = loop_head(at, t, end, true, exit);
  Value* cv = const_int(p, c);
  Value* q = B.CreateSDiv(i, cv);
  Value* row_start = B.CreateMul(q, cv);
  Value* row_end = B.CreateBinaryIntrinsic(llvm::Intrinsic::smin, B.CreateAdd(row_start, cv), end);
  auto row_loop = [&] {
    range_loop(&task, i, row_end, p, poll, [&] {
      given[div] = q;
      given[mod] = B.CreateSub(B.CreateLoad(t, loops.at(&task).var), row_start);
      body();
      given.clear();
    });
  };
  // The accesses whose indices are i, the row or the column plus invariants
  // are in bounds for the whole row when they are at its first and last
  // iteration: then the row runs without their checks (and can vectorize).
  checked_at_ends(task, div, mod, i, q, row_start, B.CreateSub(row_end, const_int(p, 1)), row_loop);
  B.CreateStore(row_end, at);
  B.CreateBr(head);
  B.SetInsertPoint(exit);
  return true;
}

// Runs `loop` (iterations first..last of the task's index, in one row q
// when div/mod are given) twice over: without the checks of the accesses
// whose indices are affine in the index with slope 0 or 1 (proven in bounds
// at both ends, so everywhere between), and, when an end is out of bounds,
// with every check, so that the failing iteration reports as the
// interpreter does.
void Gen::checked_at_ends(const ir::Stmt& task, const ir::Stmt* div, const ir::Stmt* mod, Value* first, Value* q,
                          Value* row_start, Value* last, const std::function<void()>& loop) {
  Value* ok = B.getTrue();
  Value* q64 = q ? wide_index(q) : nullptr;
  Value* start64 = row_start ? wide_index(row_start) : nullptr;
  Value* first64 = wide_index(first);
  Value* last64 = wide_index(last);
  ir::walk(*task.body, [&](ir::Stmt* x) {
    const ir::Access& acc = x->access;
    if (x->kind != StmtKind::global_ptr || !acc.checked || acc.sparse_place >= 0 || acc.ext_arg >= 0 ||
        acc.shape.size() != x->ops.size())
      return;
    Value* in = B.getTrue();
    for (size_t a = 0; a < x->ops.size(); a++) {
      Value* lo = row_affine(x->ops[a], task, div, mod, first64, q64, start64 ? B.CreateNSWSub(first64, start64) : nullptr);
      Value* hi = lo ? row_affine(x->ops[a], task, div, mod, last64, q64, start64 ? B.CreateNSWSub(last64, start64) : nullptr)
                     : nullptr;
      if (!hi) return;
      Value* n = B.getInt64((uint64_t)acc.shape[a]);
      in = B.CreateAnd(in, B.CreateAnd(B.CreateICmpULT(lo, n), B.CreateICmpULT(hi, n)));
    }
    proven.insert(x);
    ok = B.CreateAnd(ok, in);
  });
  if (proven.empty()) {
    loop();
    return;
  }
  BasicBlock* fast = new_block("unchecked");
  BasicBlock* slow = new_block("checked");
  BasicBlock* next = new_block("checked.next");
  B.CreateCondBr(ok, fast, slow);
  B.SetInsertPoint(fast);
  proof = Proof{&task, div, mod, q, row_start};
  loop();
  proof = Proof{};
  B.CreateBr(next);
  B.SetInsertPoint(slow);
  std::unordered_set<const ir::Stmt*> keep;
  keep.swap(proven);
  loop();
  B.CreateBr(next);
  B.SetInsertPoint(next);
}

// A 1-D range chunk [begin, end): its accesses at the index plus invariants
// are checked at the chunk's ends, so the loop runs without them (and can
// vectorize: a check is an exit from the loop).
void Gen::range_checked_at_ends(const ir::Stmt& task, Value* begin, Value* end, Prim p, bool poll,
                                const std::function<void()>& body) {
  auto loop = [&] { range_loop(&task, begin, end, p, poll, body); };
  if (!task.body || !prim_is_signed(p)) {
    loop();
    return;
  }
  BasicBlock* run = new_block("range");
  BasicBlock* done = new_block("range.done");
  B.CreateCondBr(B.CreateICmpSLT(begin, end), run, done);
  B.SetInsertPoint(run);
  checked_at_ends(task, nullptr, nullptr, begin, nullptr, nullptr, B.CreateSub(end, const_int(p, 1)), loop);
  B.CreateBr(done);
  B.SetInsertPoint(done);
}

// The loop's index (signed: rows_of_flat_range and range_checked_at_ends
// take no other) as an i64.
Value* Gen::wide_index(Value* v) { return B.CreateSExt(v, B.getInt64Ty()); }

// Index `e` of an access in a row of rows_of_flat_range, as an i64 at index
// i (row q, column m, all three i64), when it is i, q or m plus or minus loop
// invariants (constants, arguments); null otherwise. Computed exactly in i64
// (sums of a few 32-bit values: no-wrap), so the index is monotonic in i and
// in bounds between two in-bounds ends.
Value* Gen::row_affine(const ir::Stmt* e, const ir::Stmt& task, const ir::Stmt* div, const ir::Stmt* mod, Value* i,
                       Value* q, Value* m) {
  Prim p = e->type.prim;
  // 32-bit values at most: sums of a few of them cannot overflow the i64.
  if (!prim_is_int(p) || prim_bits(p) > 32) return nullptr;
  if (e == div) return q;
  if (e == mod) return m;
  if (e->kind == StmtKind::loop_index && e->loop == &task && e->index == 0 && p == task_index_prim(task)) return i;
  if (e->kind == StmtKind::const_) return B.getInt64((uint64_t)e->value.i);
  if (e->kind == StmtKind::binary && (e->bop == ir::BinaryOp::add || e->bop == ir::BinaryOp::sub)) {
    Value* a = row_affine(e->ops[0], task, div, mod, i, q, m);
    Value* b = a ? row_affine(e->ops[1], task, div, mod, i, q, m) : nullptr;
    if (!b) return nullptr;
    // Only one side may vary with i, and not a subtracted one: the slope stays 0 or 1.
    bool av = depends_on_row(e->ops[0], task, div, mod), bv = depends_on_row(e->ops[1], task, div, mod);
    if (bv && (av || e->bop == ir::BinaryOp::sub)) return nullptr;
    return e->bop == ir::BinaryOp::add ? B.CreateNSWAdd(a, b) : B.CreateNSWSub(a, b);
  }
  return nullptr;
}

Value* Gen::proven_index(const ir::Stmt* e) {
  const Loop& l = loops.at(proof.task);
  Value* i = wide_index(B.CreateLoad(type(l.prim, proof.task), l.var));
  Value* q = proof.q ? wide_index(proof.q) : nullptr;
  Value* m = proof.row_start ? B.CreateNSWSub(i, wide_index(proof.row_start)) : nullptr;
  return row_affine(e, *proof.task, proof.div, proof.mod, i, q, m);
}

bool Gen::depends_on_row(const ir::Stmt* e, const ir::Stmt& task, const ir::Stmt* div, const ir::Stmt* mod) {
  if (e == div || e == mod || (e->kind == StmtKind::loop_index && e->loop == &task)) return true;
  for (const ir::Stmt* o : e->ops)
    if (depends_on_row(o, task, div, mod)) return true;
  return false;
}

// A struct_for over the cells of a bitmasked or dynamic leaf with one
// split axis takes a row per 64-cell word of a container (the launcher's
// word_rows: the word's first cell's indices and address, then its bits of
// active cells), as the JIT's bytecode does (vm/bytecode/flat_rows.h): the
// body runs once per set bit (ctz, clear the lowest), the cell's address the
// row's plus bit * cell size and the moving index the row's plus bit. A row
// per cell cost the launcher (a tzcnt, three stores, a mask word's miss per
// container) more than sparse_particles' step itself: 35% of its time in
// Program::active_cells. Not under device pools nor over a tree with device
// counters (their generated lists give a row per cell), nor on the GPU.
bool Gen::word_rows_loop(const ir::Stmt& task, Value* begin, Value* end, const std::function<void()>& body) {
  const int n = task.rare().num_loop_indices;
  if (gpu || device_pools || !prog || !task.body || n < 1 || task.snode < 0 ||
      (size_t)task.snode >= prog->snode_by_id.size() || !prog->snode_by_id[(size_t)task.snode])
    return false;
  const SNode& target = *prog->snode_by_id[(size_t)task.snode];
  // A tree with device counters (KILN_DEVICE_POOLS=1 lays them out for a
  // bitmasked-only tree too, which reserves no pool) gets its cells from
  // the generated list functions, a row per cell (engine.cpp).
  if (target.tree < 0 || (size_t)target.tree >= prog->trees.size() || prog->trees[(size_t)target.tree]->device_counters)
    return false;
  int64_t cell_size = 0;
  int col = -1;
  if (!word_row_layout(target, n, cell_size, col)) return false;
  bool breaks = false;  // a break would leave the bits' loop only (Taichi allows none here)
  ir::walk(*task.body, [&](ir::Stmt* s) { breaks |= s->kind == StmtKind::break_ && s->loop == &task; });
  if (breaks) return false;
  meta.word_rows = true;
  num_cell_indices = n + 2;
  llvm::Type* i64 = B.getInt64Ty();
  Value* row_var = EB.CreateAlloca(i64);
  Value* bits_var = EB.CreateAlloca(i64);
  Value* bit_var = EB.CreateAlloca(i64);
  B.CreateStore(begin, row_var);
  BasicBlock* rows_exit = new_block("rows.exit");
  auto [row, row_head] = loop_head(row_var, i64, end, true, rows_exit);
  Value* at = B.CreateAdd(B.CreateMul(row, B.getInt64(n + 2)), B.getInt64(n + 1));
  Value* word = B.CreateLoad(i64, B.CreateInBoundsGEP(i64, cells, at));
  B.CreateStore(word, bits_var);
  BasicBlock* bits_head = new_block("bits.head");
  BasicBlock* bits_body = new_block("bits.body");
  BasicBlock* bits_next = new_block("bits.next");
  BasicBlock* row_next = new_block("rows.next");
  Loop l{rows_exit, bits_next, row_var, Prim::i64, true};
  l.bit = bit_var;
  l.cell_size = cell_size;
  l.col = col < n ? col : -1;
  bool polls = has_inner_loop(*task.body);
  // A full word (every cell active: a dense run of 64, as a dynamic list's
  // filled chunks are) runs its bits as a counted loop, 0 to 63 in the order
  // the bits' loop takes them: its accesses are then affine in the counter
  // and the loop vectorizer can take it (bench/sparse_lists' sweep). Only
  // over a dynamic leaf, whose chunks fill from their start: a bitmasked
  // leaf's words are full only where a whole block is active, and the body's
  // second copy cost the bits' loop of one whose words never were
  // (bench/sparse_particles on ORC: 8.2-8.4 ms a sweep without the path,
  // 10.5-11.2 with it; alternating, load 0.5-1.5).
  const SNode* leaf = target.kind == SNodeKind::place ? target.parent : &target;
  if (leaf && leaf->kind == SNodeKind::dynamic) {
    BasicBlock* full = new_block("word.full");
    BasicBlock* full_next = new_block("word.full.next");
    B.CreateCondBr(B.CreateICmpEQ(word, B.getInt64(-1)), full, bits_head);
    B.SetInsertPoint(full);
    Value* k_var = EB.CreateAlloca(i64);
    B.CreateStore(B.getInt64(0), k_var);
    auto [k, k_head] = loop_head(k_var, i64, B.getInt64(64), false, row_next);
    B.CreateStore(k, bit_var);
    Loop lf = l;
    lf.cont = full_next;
    loops[&task] = lf;
    if (polls) poll_interrupt(task.loc);
    body();
    branch(full_next);
    B.SetInsertPoint(full_next);
    B.CreateStore(B.CreateNUWAdd(k, B.getInt64(1)), k_var);
    B.CreateBr(k_head);
  } else {
    B.CreateBr(bits_head);  // (no second copy of the body for LLVM to delete)
  }
  B.SetInsertPoint(bits_head);
  Value* bits = B.CreateLoad(i64, bits_var);
  B.CreateCondBr(B.CreateICmpNE(bits, B.getInt64(0)), bits_body, row_next);
  B.SetInsertPoint(bits_body);
  B.CreateStore(B.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, bits, B.getTrue()), bit_var);
  B.CreateStore(B.CreateAnd(bits, B.CreateSub(bits, B.getInt64(1))), bits_var);
  loops[&task] = l;
  if (polls) poll_interrupt(task.loc);
  body();
  branch(bits_next);
  B.SetInsertPoint(bits_next);
  B.CreateBr(bits_head);
  B.SetInsertPoint(row_next);
  B.CreateStore(B.CreateAdd(row, B.getInt64(1)), row_var);
  B.CreateBr(row_head);
  B.SetInsertPoint(rows_exit);
  return true;
}

}  // namespace kiln::llvmjit
