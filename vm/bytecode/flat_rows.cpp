// Which struct-fors the JIT's bytecode runs as one loop over the cells of
// their dense blocks (flat_rows.h), and the code of those loops and of
// struct-fors over word rows. The frontend runs a struct-for over a
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
  if (task.task != ir::Task::struct_for || !task.body || task.body->stmts.empty() || task.tls_prologue() ||
      task.tls_epilogue())
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
              (s.kind == ir::StmtKind::loop_index && s.loop == &task && s.index == task.rare().num_loop_indices);
    if (!ok) return 0;
  }
  bool cell_access = false;
  for (auto& s : inner.body->stmts) {
    if (!lane_stmt(*s, &inner)) return 0;
    cell_access |= s->kind == ir::StmtKind::global_store;
  }
  return cell_access ? cells : 0;
}

// A struct-for over word rows (flat_rows.h) runs its body once per set bit
// in a loop of its own: a `break` out of the task's loop (which Taichi does
// not allow in a parallel loop anyway) would leave the bits' loop only.
bool word_rows_body(const ir::Stmt& task) {
  bool ok = true;
  ir::walk(*task.body, [&](ir::Stmt* s) {
    if (s->kind == ir::StmtKind::break_ && s->loop == &task) ok = false;
  });
  return ok;
}

// A struct-for's cells as one loop (flat_rows.h): the counter runs over
// [begin * C, end * C), row counter / C's cell counter % C. The row's
// statements read row q; the cells' loop's index is the cell number, its
// body runs inline, and its `continue`s end the cell.
void lower_flat_cells(Builder& b, const ir::Block& body, uint16_t counter, uint16_t cells) {
  uint16_t q = b.new_regs(2), k = (uint16_t)(q + 1);
  b.emit(Op::div_i32, q, counter, cells);
  b.emit(Op::raw_mod_i32, k, counter, cells);
  b.loops.back().index_reg = q;
  for (auto& s : body.stmts) {
    if (s->kind != ir::StmtKind::range_for) {
      lower_stmt(b, *s);
      continue;
    }
    b.loops.push_back({s.get(), k, {}, {}});
    if (s->body) lower_block(b, *s->body);
    std::vector<uint32_t> cont = std::move(b.loops.back().continues);
    b.loops.pop_back();
    b.loops.back().continues.insert(b.loops.back().continues.end(), cont.begin(), cont.end());
  }
}

// A struct-for's body over word rows (flat_rows.h): row q (the counted
// loop's index) holds the indices and address of its word's first cell,
// then the word's bits. The body runs once per set bit, lowest first (the
// order of a row per cell), in a while loop: the bit's number is its ctz,
// the cell's moving index and its address the row's plus that number (times
// the cell size); `continue`s go to the next bit. Only the columns the body
// reads are read.
//
// `counter` is the bits' loop's hot counter, set to 0 once per task call
// (before the rows' loop): the JIT traces a loop once its counter passes
// hotloop, and a word has at most 64 bits.
void lower_word_cells(Builder& b, const ir::Stmt& task, const WordRowLayout& wl, uint16_t counter) {
  const int n = task.rare().num_loop_indices;
  const uint16_t width = (uint16_t)(n + 2), q = b.loops.back().index_reg;
  std::vector<Prim> reads(n + 1, Prim::none);
  ir::walk(*task.body, [&](ir::Stmt* s) {
    if (s->kind == ir::StmtKind::loop_index && s->loop == &task && s->index >= 0 && s->index <= n)
      reads[s->index] = s->type.prim;
  });
  std::vector<uint16_t> row(n + 1, 0), cell(n + 1, 0);
  auto column = [&](int c) {
    uint16_t r = b.new_reg();
    b.emit(Op::sfidx, r, q, (uint16_t)(c | width << 8));
    return r;
  };
  for (int v = 0; v <= n; v++) {
    if (reads[v] == Prim::none) continue;
    cell[v] = row[v] = column(v);
    if (v == n || v == wl.col) cell[v] = b.new_reg();
  }
  uint16_t bits = column(n + 1), bit = b.new_reg(), t = b.new_reg();
  uint32_t head = b.emit(Op::loop, counter);
  b.fn.loops.push_back(LoopInfo{head, 0, counter, false});
  uint32_t done = b.emit_d(Op::jz, bits, 0);
  b.emit(Op::ctz, bit, bits);
  // The constants inside the loop, so that a trace sees them as constants.
  b.emit_d(Op::kimm, t, 1);
  b.emit(Op::sub_i64, t, bits, t);
  b.emit(Op::band_i64, bits, bits, t);  // the lowest set bit cleared
  if (wl.col >= 0 && wl.col < n && reads[wl.col] != Prim::none)
    b.emit(prim_bits(reads[wl.col]) == 64 ? Op::add_i64 : Op::add_i32, cell[wl.col], row[wl.col], bit);
  if (reads[n] != Prim::none) {
    b.load_bits(t, (uint64_t)wl.cell_size);
    b.emit(Op::mul_i64, t, bit, t);
    b.emit(Op::add_i64, cell[n], row[n], t);
  }
  b.loops.push_back({&task, 0, {}, {}});
  b.loops.back().cell_regs = cell;
  lower_block(b, *task.body);
  b.emit_d(Op::jmp, 0, (int32_t)head);
  for (size_t v : b.loops.back().index_vars) b.fn.vars[v].end = b.here();
  close_loop(b, head, b.here());
  b.patch(done, b.here());
}

}  // namespace kiln::bc
