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

// The analysis against the textbook one-pc-at-a-time fixpoint, on random
// programs with branches, back edges and more registers than one bit word:
// the block-level dataflow (liveness.cpp) must give the same bit for every
// (pc, register).
TEST_CASE("jit liveness: the block-level fixpoint equals the per-pc one on random programs") {
  uint64_t seed = 12345;
  auto rnd = [&](uint32_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(seed >> 33) % n;
  };
  for (int trial = 0; trial < 300; trial++) {
    const uint32_t nregs = trial % 3 == 0 ? 6 : trial % 3 == 1 ? 70 : 140;
    const uint32_t n = 4 + rnd(40);
    Function fn;
    fn.num_regs = nregs;
    for (uint32_t pc = 0; pc + 1 < n; pc++) {
      uint16_t r = (uint16_t)rnd(nregs), s = (uint16_t)rnd(nregs), t = (uint16_t)rnd(nregs);
      switch (rnd(6)) {
        case 0: fn.code.push_back(insd(Op::kimm, r, 1)); break;
        case 1: fn.code.push_back(ins(Op::mov, r, s)); break;
        case 2: fn.code.push_back(ins(Op::add_i32, r, s, t)); break;
        case 3: fn.code.push_back(insd(Op::jz, r, (int32_t)rnd(n))); break;
        case 4: fn.code.push_back(insd(Op::jmp, 0, (int32_t)rnd(n))); break;
        default: fn.code.push_back(insd(Op::ret, r, 0)); break;
      }
    }
    fn.code.push_back(ins(Op::end));
    // The reference: live-in(pc) = uses(pc) | (union of successors' live-in - defs(pc)).
    std::vector<std::vector<bool>> in(n, std::vector<bool>(nregs, false));
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t pc = n; pc-- > 0;) {
        const Insn& I = fn.code[pc];
        std::vector<uint32_t> succ;
        if (I.op == Op::jmp) succ = {(uint32_t)I.d()};
        else if (I.op == Op::jz) succ = {pc + 1, (uint32_t)I.d()};
        else if (I.op != Op::end) succ = {pc + 1};
        std::vector<bool> v(nregs, false);
        for (uint32_t s : succ)
          if (s < n)
            for (uint32_t k = 0; k < nregs; k++) v[k] = v[k] || in[s][k];
        if (I.op == Op::kimm || I.op == Op::mov || I.op == Op::add_i32) v[I.a] = false;
        if (I.op == Op::mov) v[I.b] = true;
        if (I.op == Op::add_i32) v[I.b] = v[I.c] = true;
        if (I.op == Op::jz || I.op == Op::ret) v[I.a] = true;
        if (v != in[pc]) {
          in[pc] = v;
          changed = true;
        }
      }
    }
    jit::Liveness live(fn);
    for (uint32_t pc = 0; pc < n; pc++)
      for (uint32_t k = 0; k < nregs; k++) {
        INFO("trial " << trial << " pc " << pc << " r" << k);
        REQUIRE(live.live(pc, (uint16_t)k) == in[pc][k]);
      }
  }
}
