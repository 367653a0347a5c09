// Which tasks use ti.simt (shared arrays, barriers, subgroup and warp
// operations), for the engines that must run such a task on a GPU or not at
// all: the bytecode has no simt statements.
#pragma once
#include "vm/ir/ir.h"

namespace kiln::ir {

// CUDA's own simt operations (ti.simt.warp.*, block.sync_*_nonzero),
// numbered after ir.h's KILN_IR_SIMT list: kept here, out of ir.h, whose
// every change rebuilds the whole tree (move them into the list at its next
// change). Shuffles and votes of ti.simt.warp are the subgroup ops of that
// list with the member mask as their last operand.
constexpr uint8_t kSimtCudaFirst = (uint8_t)SimtOp::exclusive + 1;
constexpr SimtOp kSimtBallot = SimtOp(kSimtCudaFirst);         // a mask of the active lanes' predicates
constexpr SimtOp kSimtActiveMask = SimtOp(kSimtCudaFirst + 1);
constexpr SimtOp kSimtMatchAny = SimtOp(kSimtCudaFirst + 2);   // ops: value, mask
constexpr SimtOp kSimtMatchAll = SimtOp(kSimtCudaFirst + 3);   // ops: value, mask
constexpr SimtOp kSimtWarpSync = SimtOp(kSimtCudaFirst + 4);   // ops: mask; no value
constexpr SimtOp kSimtSyncAll = SimtOp(kSimtCudaFirst + 5);    // block barrier: all predicates nonzero
constexpr SimtOp kSimtSyncAny = SimtOp(kSimtCudaFirst + 6);    // block barrier: any predicate nonzero
constexpr SimtOp kSimtSyncCount = SimtOp(kSimtCudaFirst + 7);  // block barrier: how many are nonzero
constexpr uint8_t kSimtCudaEnd = kSimtCudaFirst + 8;
// The name of one of those (nullptr for the others).
const char* simt_cuda_op_name(SimtOp op);
// Whether a simt statement gives a value / is a barrier DCE keeps, for
// every op (simt_has_value of ir.h knows only its list's).
bool simt_op_has_value(SimtOp op);
bool simt_is_barrier(SimtOp op);

// Whether the offloaded task holds a shared_array or simt statement.
bool uses_simt(const Stmt& task);
bool uses_simt(const Kernel& k);
// Empties the body of each task that uses ti.simt, for a copy of the kernel
// that an engine lowers to bytecode beside its GPU code (gpu/cuda/engine.cpp:
// such a task never runs on the host) or that `kiln dis --ptx` runs on the
// CPU after printing its PTX. Returns how many tasks it emptied.
int empty_simt_tasks(Kernel& k);

}  // namespace kiln::ir
