// Register allocation for the backend: linear scan over the trace in order.
// A value's interval runs from its definition to its last use (operands,
// snapshot entries, phis); a value defined before `loop` and used inside it
// lives to the end, since every iteration reads it. No splitting: a value
// that finds no free register lives in its stack slot, which is always right
// and only slower. Exits read each snapshot value from wherever it lives.
#pragma once
#include <asmjit/x86.h>

#include <vector>

#include "jit/trace.h"

namespace kiln::jit {

// Callee-saved first, so that calls only need to save the rest.
inline constexpr asmjit::x86::Gp::Id kAllocatable[] = {
    asmjit::x86::Gp::kIdBp, asmjit::x86::Gp::kIdR13, asmjit::x86::Gp::kIdR14, asmjit::x86::Gp::kIdR15,
    asmjit::x86::Gp::kIdR8, asmjit::x86::Gp::kIdR9,  asmjit::x86::Gp::kIdR10, asmjit::x86::Gp::kIdR11,
};
inline constexpr int kNumAllocatable = 8;
inline constexpr int kFirstCallerSaved = 4;

// Per ref: the index into kAllocatable of its register, or -1.
std::vector<int8_t> allocate_registers(const Trace& t);

}  // namespace kiln::jit
