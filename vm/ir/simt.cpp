#include "vm/ir/simt.h"

namespace kiln::ir {

const char* simt_cuda_op_name(SimtOp op) {
  static const char* const names[] = {"ballot",          "active_mask",      "match_any",        "match_all",
                                      "warp_sync",       "sync_all_nonzero", "sync_any_nonzero", "sync_count_nonzero"};
  auto k = (uint8_t)op;
  return k >= kSimtCudaFirst && k < kSimtCudaEnd ? names[k - kSimtCudaFirst] : nullptr;
}

bool simt_op_has_value(SimtOp op) { return op != kSimtWarpSync && simt_has_value(op); }

bool simt_is_barrier(SimtOp op) {
  return !simt_op_has_value(op) || op == kSimtSyncAll || op == kSimtSyncAny || op == kSimtSyncCount;
}

bool uses_simt(const Stmt& task) {
  bool any = false;
  for (Block* blk : {task.tls_prologue(), task.body.get(), task.tls_epilogue()})
    if (blk) walk(*blk, [&](Stmt* s) { any |= s->kind == StmtKind::shared_array || s->kind == StmtKind::simt; });
  return any;
}

bool uses_simt(const Kernel& k) {
  for (auto& s : k.root.stmts)
    if (s->kind == StmtKind::offloaded && uses_simt(*s)) return true;
  return false;
}

int empty_simt_tasks(Kernel& k) {
  int n = 0;
  for (auto& s : k.root.stmts)
    if (s->kind == StmtKind::offloaded && s->body && uses_simt(*s)) {
      s->body->stmts.clear();
      n++;
    }
  return n;
}

}  // namespace kiln::ir
