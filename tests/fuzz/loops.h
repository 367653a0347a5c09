// Kernels of contiguous loops over 1-D fields: `for i in range(lo, hi)`
// (parallel, serialized, or nested serial inside a parallel loop) and
// struct-fors, whose bodies read and write x[i + c] at small constant offsets.
// They exercise what the rest of the generator cannot (its indices are all
// wrapped in % N): the JIT's hoisted bounds guards and its vector loops,
// including loop-carried dependences, i32/f32 sums, and an index that leaves
// its field near the end of a loop (the IndexError both engines must report).
#pragma once
#include <random>
#include <vector>

#include "tests/fuzz/program.h"

namespace kiln::fuzz {

// The fields these kernels use: xa, xb (f32) and xi, xj (i32) of size L, and
// ya (f32), yi (i32) of size L2 < L (struct-fors over them may read the
// L-sized fields a few elements ahead); za (f32) and zi (i32) of shape (R, C),
// C <= L2 - 4, for ndrange loops (whose rows the JIT runs eight columns at a
// time) that may also read the 1-D fields at [j + c].
struct LoopFields {
  int L = 0, L2 = 0, R = 0, C = 0;
  // The program may raise IndexError: it runs with ti.init(debug=True), which
  // serializes parallel loops, so the failing iteration (and message) is one.
  bool oob = false;
};

LoopFields choose_loop_fields(std::mt19937_64& rng);
// Declarations, plus the `vinit` kernel that fills them (called before any
// generated kernel).
std::string loop_fields_decl(const LoopFields& lf, std::mt19937_64& rng);
// The host code printing every element at the end.
std::string loop_fields_print();

// Appends one kernel definition to `defs` and the host statements calling it
// to `calls`; `counter` numbers fresh names.
void gen_loop_kernel(std::mt19937_64& rng, int& counter, const LoopFields& lf, std::vector<Node>& defs,
                     std::vector<Node>& calls);

// Appends one reduction nest (nests.cpp: the shape vm/ir/passes/jam_outer.cpp
// jams) and the host statements calling it.
void gen_nest_kernel(std::mt19937_64& rng, int& counter, const LoopFields& lf, std::vector<Node>& defs,
                     std::vector<Node>& calls);

// Appends one parallel loop around a pure float while loop (whiles.cpp: the
// shape vm/ir/passes/jam_while.cpp runs in lockstep) and its calls.
void gen_while_kernel(std::mt19937_64& rng, int& counter, const LoopFields& lf, std::vector<Node>& defs,
                      std::vector<Node>& calls);

}  // namespace kiln::fuzz
