// The IR passes, one file each under vm/ir/passes/. Every pass runs on any
// kernel and leaves it valid for ir::verify.
#pragma once
#include <functional>
#include <string>

#include "vm/ir/ir.h"
#include "vm/types/dtype_support.h"

namespace kiln::ir {

// Numbers k's statements in pre-order as Kernel::renumber does and returns
// their count, in one walk: passes index their tables by id (hash maps keyed
// by statement were most of a large kernel's compile, issue 16).
inline size_t number_stmts(Kernel& k) {
  int n = 0;
  walk(k.root, [&](Stmt* s) { s->id = n++; });
  return (size_t)n;
}

// Small questions several passes ask.
// Whether `s` sits in loop's body, at any depth.
inline bool inside_loop(const Stmt* s, const Stmt* loop) {
  for (const Block* b = s->parent; b && b->owner; b = b->owner->parent)
    if (b->owner == loop) return true;
  return false;
}
// A global pointer into a dense field (no ndarray, no sparse SNode on its path).
inline bool dense_field_ptr(const Stmt* p) {
  return p->kind == StmtKind::global_ptr && p->access->ext_arg < 0 && p->access->sparse_place < 0;
}
// The 32/64-bit types a local or an accumulator may hold for a field element.
inline bool word_prim(Prim p) {
  return p == Prim::i32 || p == Prim::u32 || p == Prim::i64 || p == Prim::u64 || p == Prim::f32 || p == Prim::f64;
}

// Splits every tensor-typed statement into one scalar statement per element
// (matrix_init/matrix_extract disappear; tensor allocas become one alloca per
// element). Runs first: the other passes and every engine see scalars only.
void scalarize(Kernel& k);
// Folds unary/binary/select/cast on constants into const_ statements, with the
// exact semantics the interpreter has (wrapping ints, f32 rounding, Python
// floor division); never folds an operation that would trap (int div by zero).
bool constant_fold(Kernel& k);
// Removes statements whose values are unused and that have no side effects,
// empty ifs, and code after break/continue/return in a block.
bool eliminate_dead_code(Kernel& k);
// Splits the kernel's top level into offloaded tasks: each top-level range_for
// (not serialized) becomes a parallel range_for task, runs of other statements
// become serial tasks. Values crossing task boundaries move through global
// temporaries (range_for bounds, locals defined in one task and used later).
void offload(Kernel& k);
// Rewrites atomics on locals that offloading left private to one task as
// load/op/store (they need no atomicity; engines only do atomics on memory).
bool demote_atomics(Kernel& k);
// Keeps an element x[I] of a dense field that an inner loop loads and stores
// at fixed indices (`force[i] += f` over j) in a local across the loop, the
// loop versioned on I's bounds; exact (promote_elements.cpp says when).
bool promote_elements(Kernel& k);
// Taichi's struct-for access optimisation: in a struct_for task, accesses to
// fields of the looped container at the loop's own indices address the cell
// the loop visits directly (Access::in_cell), without a tree walk.
bool struct_for_access(Kernel& k);
// In a range_for task that visits a blocked dense field in its layout's order,
// accesses whose indices are digits of the loop index address by it: the
// loop's own cell is base + L * cell size (layout_access.cpp says when).
bool layout_access(Kernel& k);
// fast_math (docs/fast_math.md): a float product whose only use is a sum in
// its block becomes an fma statement (a * b + c rounded once).
bool contract_fma(Kernel& k);
// Taichi's make_thread_local: in a parallel range_for/struct_for task, a
// global temporary or 0-d field (`s[None]`) that the task only updates with
// atomics of one kind (add/sub, min, max, and, or, xor) whose results are
// unused gets a per-chunk accumulator: the TLS prologue sets it to the op's
// identity, the body updates it without atomics, the TLS epilogue folds it
// into the global with one atomic. Runs last (after offload and DCE).
bool make_thread_local(Kernel& k);
// fast_math (docs/fast_math.md): a float sum carried around a loop (or a
// parallel task's per-chunk accumulator) adds into 8 (f32) or 4 (f64)
// rotating partial sums, combined in a fixed order after the loop. Runs after
// make_thread_local.
bool split_sums(Kernel& k);
// A parallel range_for task whose body is a reduction nest (statements, one
// inner loop that sums into a local, statements) runs two iterations a pass
// of its inner loop, when no iteration can see another's effects
// (jam_outer.cpp), or whose body is a pure while loop between pure
// statements before and any after, two iterations' loops in lockstep
// (jam_while.cpp): no value changes. Runs after make_thread_local, before
// split_sums.
// `kinds`: which nests (JamKind flags); `fast_math`: whether float sums are
// split later (those that are not keep program order).
enum JamKind : int {
  kJamDividers = 1,  // inner loops of f32 divisions or square roots, no compares or selects (the JIT's 16 lanes)
  kJamOrdered = 2,   // inner loops whose float sums all keep program order (the LLVM tier's ordered blocks, the JIT's ordered folds)
  kJamWhile = 4,     // pure while loops with data-dependent exits, run in lockstep (jam_while.cpp; the LLVM tier)
  kJamAll = kJamDividers | kJamOrdered | kJamWhile,
  // kJamWhile with one copy per vector lane: 8 where the loop's floats are
  // f32, 4 where they are f64 (the JIT runs the copies in the lanes of one
  // register: jit/while_lanes.h). Not in kJamAll: 8 scalar copies gain
  // nothing where no lanes run them.
  kJamWhileLanes = 8,
};
// `factors`, when given, gets for each of k.root's offloaded tasks the
// iterations a pass of its jammed loop runs (1: not jammed): a jammed task's
// range becomes [0, passes), pass p running i = begin + K * p + c, c < K.
bool jam_outer(Kernel& k, int kinds = kJamAll, bool fast_math = true, std::vector<int>* factors = nullptr);
// Whether some offloaded task of `k` is a parallel loop with a while loop in
// its body (jam_while.cpp's shape, before its checks): one the JIT may jam for
// its lanes (kJamWhileLanes, on its own copy; jam_outer's factors say which it did).
bool jam_while_lanes_wanted(const Kernel& k);
// Makes the kernel compute only in types `supported` accepts (see
// legalize_dtypes.cpp); run before the pipeline. Throws a TypeError naming the
// type, `engine` (a phrase: "jit engine", "vulkan engine on device 'NAME'")
// and the line when `mode` cannot map a type.
void legalize_dtypes(Kernel& k, const std::function<bool(Prim)>& supported, const std::string& engine, CastMode mode,
                     const TypeConfig& types);
// Sets Access::activate on every global_ptr that a store or atomic writes
// through (sparse SNodes: writes activate, reads do not).
void mark_activation(Kernel& k);
// Inlines the calls (ir::Kernel::funcs) whose callee holds no call and returns
// only at its end, in the functions and the kernel; recursive and early-
// returning functions stay calls. Runs first, before scalarize.
bool inline_calls(Kernel& k);
// The standard pipeline: fold, dce, offload, layout_access, struct_for_access, demote_atomics, promote_elements, (fast_math:
// contract_fma), fold, dce,
// make_thread_local, (jam: jam_outer of those JamKind nests), (fast_math: split_sums); verify after each when `check` is set.
// `after_scalarize` (autodiff, vm/autodiff) runs on the scalar kernel first.
// Returns the root's statement count (its ids run 0..n-1 in pre-order).
int run_pipeline(Kernel& k, bool check, const std::function<void(Kernel&)>& after_scalarize = {},
                 bool fast_math = false, int jam = 0);

}  // namespace kiln::ir
