// A vector loop's aligned start (asm_vector.cpp's vector_loop), on AVX-512
// hosts: before the first full pass, the iterations up to the next vector
// boundary of one access's address run as one body under mask k1, so that
// every later pass loads and stores whole aligned vectors.
//
// Why: the peeled iteration leaves the vector loop one element on, so a
// loop over a field (its memory 64-byte aligned) started one element off
// every launch: every other ymm store of bench/small_launches' step (4096
// f32) crossed a cache line. The same launches with the loop started on a
// boundary (the range shifted by 15) ran 0.306 against 0.360 us a step
// (thread CPU time, min of 40 rounds, load 10).
//
// Only where the masked body means exactly the iterations it runs: no sums
// or folds (a split float sum's partials would take other terms), no last
// values, no guards in the body, no gathers or interleaved groups, no
// sparse blocks' rows; and only with 4 * W + 1 iterations or more left (a
// short loop gains little from the extra masked pass).
//
// An ndrange's rows (row_tail: the loop goes on into the next row) get a
// head at every row start, aligned on the row's store: bench/jacobi's rows
// start one element past a 32-byte boundary (j = 1), so every other store
// and every other read of rows i - 1 and i + 1 crossed a cache line. A C++
// copy of the JIT's row loop started at j = 8 (j = 1..7 alone) ran 2-9%
// faster in each of 7 alternating rounds (CPU time, load 6-7; docs/perf/memory.md). Masked-off lanes neither load nor
// store (AVX-512 masked moves touch no memory there), so lanes below the
// counter, another chunk's elements in a parallel loop, are left alone.
#include "jit/asm.h"
#include "jit/backend.h"
#include "jit/lane_body.h"

namespace kiln::jit {

using namespace asmjit;

Ref LaneBody::head_access() const {
  // (rows: only where each row ends under a mask and the next starts in the
  // loop, row_tail, whose every row start gets its head; no sparse blocks)
  if (!t.allow_zmm || !p.sums.empty() || !p.partials.empty() || !p.lasts.empty() || p.guards ||
      !p.interleaved.empty() || !p.row_roots.empty() || (p.row_m != 0 && p.f64))
    return -1;
  Ref first_load = -1, first_store = -1;
  for (Ref i : p.order) {
    IrOp op = t.ins[i].op;
    if (op != IrOp::load && op != IrOp::store) continue;
    const VecPlan::Access& acc = p.access[i];
    if (acc.stride || (p.row_m == 0 && (acc.by_r || acc.cq))) return -1;
    if (p.row_m != 0 && !acc.by_r) continue;  // (a row's uniform: no vector to align)
    Ref& first = op == IrOp::store ? first_store : first_load;
    if (first < 0) first = i;
  }
  return first_store >= 0 ? first_store : first_load;
}

void LaneBody::aligned_head(Ref at) const {
  const VecPlan::Access& acc = p.access[at];
  const int shift = es == 8 ? 3 : 2;
  const bool rows = p.row_m != 0;
  x86::Gp pos = rows ? x86::rdx : x86::rax;  // (a row's accesses are indexed by its position)
  Label no = a.newLabel();
  a.lea(x86::rdi, x86::qword_ptr(x86::rax, 3 * W));  // (rcx: the end - W)
  a.cmp(x86::rdi, x86::rcx);
  a.jge(no);
  if (rows) {  // and 4 W positions left in the row (rsi: the row's last pass start)
    a.lea(x86::rdi, x86::qword_ptr(x86::rdx, 3 * W));
    a.cmp(x86::rdi, x86::rsi);
    a.jg(no);
  }
  // s: the lanes of the aligned vector before the counter's element
  a.lea(x86::rdi, x86::ptr(kRootRegs[r.root.at({acc.root, acc.cq})], pos, shift, acc.disp));
  a.shr(x86::rdi, shift);
  a.and_(x86::edi, W - 1);
  a.jz(no);
  a.sub(x86::rax, x86::rdi);
  if (rows) a.sub(x86::rdx, x86::rdi);
  a.mov(x86::esi, -1);
  a.shlx(x86::esi, x86::esi, x86::edi);  // lanes s.. of the vector from counter - s
  a.kmovw(x86::k1, x86::esi);
  if (!wide) a.vpmovm2d(ymm(r.tail).ymm(), x86::k1);  // (masked_move takes k1 from r.tail's sign bits)
  (*this)(0, true);
  a.add(x86::rax, W);
  if (rows) {
    a.add(x86::rdx, W);
    a.mov(x86::rsi, p.row_m - 8);
  }
  a.inc(x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, lane_heads)));
  a.bind(no);
}

}  // namespace kiln::jit
