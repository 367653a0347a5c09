// Bytecode liveness for snapshot pruning: a register is live at a pc when
// some path from there reads it before writing it.
#include <doctest/doctest.h>

#include "jit/liveness.h"

using namespace kiln;
using namespace kiln::bc;

namespace {
Insn ins(Op op, uint16_t a = 0, uint16_t b = 0, uint16_t c = 0) {
  Insn i;
  i.op = op;
  i.a = a;
  i.b = b;
  i.c = c;
  return i;
}
Insn insd(Op op, uint16_t a, int32_t d) {
  Insn i = ins(op, a);
  i.set_d(d);
  return i;
}
}  // namespace

TEST_CASE("jit liveness: reads before writes along every path, loops included") {
  Function fn;
  fn.num_regs = 8;
  fn.code = {
      insd(Op::kimm, 1, 5),            // 0
      insd(Op::kimm, 2, 0),            // 1
      insd(Op::fori_i32, 4, 6),        // 2: r4 < r5 ?
      ins(Op::add_i32, 2, 2, 1),       // 3: loop body: r2 += r1
      insd(Op::kimm, 3, 7),            // 4: r3 written, never read
      insd(Op::forl_i32, 4, 3),        // 5: back edge to 3
      insd(Op::ret, 2, 0),             // 6
      ins(Op::end),                    // 7
  };
  jit::Liveness live(fn);
  CHECK(live.live(3, 1));
  CHECK(live.live(3, 2));
  CHECK_FALSE(live.live(3, 3));
  CHECK(live.live(5, 4));
  CHECK(live.live(5, 5));
  CHECK(live.live(6, 2));
  CHECK_FALSE(live.live(6, 1));   // not read after the loop
  CHECK_FALSE(live.live(0, 1));   // written at 0 before any read
  CHECK_FALSE(live.live(7, 2));
}
