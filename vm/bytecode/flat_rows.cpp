// Which struct-fors the JIT's bytecode runs as one loop over the cells of
// their dense blocks (flat_rows.h). The frontend runs a struct-for over a
// sparse SNode's dense blocks as a loop over the active blocks (the list's
// rows) with a loop over each block's cells inside; the JIT traces the inner
// loop and leaves it at every block's end (an exit, a side trace through the
// row loop, a jump back in: ~35 instructions and a peeled cell per block,
// where the block's cells themselves are 8 vector adds). As one loop whose
// counter c is row c / C's cell c % C, the vector loop runs the blocks one
// after another, loading each row's address as it reaches the row
// (jit/vector.h: row roots), without leaving the trace.
//
// Only where the vector loop will take the cells: a flattened loop that
// stays scalar reads its row anew at every cell, which costs more than the
// block's exit saves. So the body must be straight-line 32-bit arithmetic on
// values read and written at the visited cell (in-cell accesses of 4-byte
// elements, contiguous in the cell number), reading no coordinate of the
// cell (its digits are divisions the vector loop has no lanes for).
#include "vm/bytecode/builder.h"

namespace kiln::bc {

namespace {

bool lane_prim(Prim p) { return p == Prim::i32 || p == Prim::u32 || p == Prim::f32; }

// Is `s` the inner loop's index, perhaps widened to i64?
bool is_cell_number(const ir::Stmt* s, const ir::Stmt* inner) {
  if (s->kind == ir::StmtKind::unary && s->uop == ir::UnaryOp::cast_value) s = s->ops[0];
  return s->kind == ir::StmtKind::loop_index && s->loop == inner;
}

bool lane_stmt(const ir::Stmt& s, const ir::Stmt* inner) {
  using K = ir::StmtKind;
  switch (s.kind) {
    case K::const_: return true;
    case K::loop_index: return s.loop == inner;
    case K::unary:
      if (s.type.prim == Prim::f64) return false;
      return s.uop == ir::UnaryOp::neg || s.uop == ir::UnaryOp::abs || s.uop == ir::UnaryOp::sqrt ||
             s.uop == ir::UnaryOp::cast_value;
    case K::binary: {
      Prim p = s.ops[0]->type.prim;
      if (p == Prim::f64) return false;
      using B = ir::BinaryOp;
      switch (s.bop) {
        case B::add: case B::sub: case B::bit_and: case B::bit_or: case B::bit_xor:
        case B::cmp_lt: case B::cmp_le: case B::cmp_gt: case B::cmp_ge: case B::cmp_eq: case B::cmp_ne:
          return true;
        case B::mul:
          // The cell's address: the cell number times the element size (4
          // bytes: contiguous lanes; a cell of several fields is a gather).
          for (int o = 0; o < 2; o++)
            if (is_cell_number(s.ops[o], inner))
              return s.ops[1 - o]->kind == ir::StmtKind::const_ && s.ops[1 - o]->value.i == 4;
          return true;
        case B::div: return p == Prim::f32;
        default: return false;
      }
    }
    case K::select: return s.type.prim != Prim::f64;
    case K::fma: return s.type.prim == Prim::f32;
    case K::global_ptr: return s.access->in_cell;  // (a const Box: reading allocates nothing)
    case K::global_load: return lane_prim(s.type.prim);
    case K::global_store: return lane_prim(s.ops[1]->type.prim);
    default: return false;
  }
}

}  // namespace

int64_t flat_row_cells(const ir::Stmt& task) {
  if (task.task != ir::Task::struct_for || !task.body || task.body->stmts.empty() || task.tls_prologue ||
      task.tls_epilogue)
    return 0;
  const auto& stmts = task.body->stmts;
  const ir::Stmt& inner = *stmts.back();
  if (inner.kind != ir::StmtKind::range_for || !inner.body) return 0;
  const ir::Stmt *lo = inner.ops[0], *hi = inner.ops[1];
  if (lo->kind != ir::StmtKind::const_ || hi->kind != ir::StmtKind::const_ || lo->value.i != 0) return 0;
  int64_t cells = hi->value.i;
  // 16 cells at least: the vector loop splits a counter into rows of 16 or more.
  if (cells < 16 || cells > 4096) return 0;
  // Before the cells' loop: the row's cell address and arithmetic on it.
  for (size_t i = 0; i + 1 < stmts.size(); i++) {
    const ir::Stmt& s = *stmts[i];
    bool ok = s.kind == ir::StmtKind::const_ || s.kind == ir::StmtKind::binary ||
              (s.kind == ir::StmtKind::loop_index && s.loop == &task && s.index == task.num_loop_indices);
    if (!ok) return 0;
  }
  bool cell_access = false;
  for (auto& s : inner.body->stmts) {
    if (!lane_stmt(*s, &inner)) return 0;
    cell_access |= s->kind == ir::StmtKind::global_store;
  }
  return cell_access ? cells : 0;
}

}  // namespace kiln::bc
