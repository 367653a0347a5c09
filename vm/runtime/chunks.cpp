// The CPU's chunking rules, for the launcher and the device backends.
#include "vm/runtime/chunks.h"

#include <cstdint>

#include "vm/ir/ir.h"
#include "vm/runtime/program.h"

namespace kiln {

bool one_chunk_always(const Program* prog) {
  return !prog || !prog->pool || prog->pool->size() <= 1 || prog->config.debug;
}

bool sums_by_chunk(const ir::Stmt& task) {
  bool order = false;
  if (task.tls_epilogue())
    ir::walk(*task.tls_epilogue(), [&](ir::Stmt* s) {
      order |= s->kind == ir::StmtKind::atomic && s->ops.size() > 1 && prim_is_float(s->ops[1]->type.prim);
    });
  return order;
}

int64_t device_one_chunk_below(const ir::Stmt& task, const Program* prog) {
  if (task.task != ir::Task::range_for || !sums_by_chunk(task)) return 0;
  return one_chunk_always(prog) ? INT64_MAX : kMinParallel;
}

}  // namespace kiln
