// Register allocation for the backend: linear scan over the trace in order,
// once per register file. A value's interval runs from its definition to its
// last use (operands, snapshot entries, phis); a value defined before `loop`
// and used inside it lives to the end, since every iteration reads it. No
// splitting: a value lives in one register or in its stack slot for its
// whole life. Where no register is free, the value worth least per position
// it holds one (stack accesses saved, the loop's body weighted above the
// code before it) gives its register up. Exits read each snapshot value
// from wherever it lives.
//
// Float results (f32/f64 arithmetic, float loads, conversions to float,
// selects between such) live in xmm registers; everything else in
// general-purpose ones. The class only decides where a value is kept: every
// value is still its 64-bit register representation, so a move across
// classes is a movd/movq.
#pragma once
#include <asmjit/x86.h>

#include <vector>

#include "jit/sink.h"
#include "jit/trace.h"

namespace kiln::jit {

// Callee-saved first, so that calls only need to save the rest. rbx and r12
// hold the frame and the TraceEnv; rax, rcx and rdx are every operation's
// scratch. rsi and rdi (the calls' arguments: Gen::call saves the values
// they hold first) are values' registers too, except in a trace with a
// vector loop, which takes them as scratch: kNumAllocatable there, kNumGp
// elsewhere (the MPM step's P2G keeps 27 scatter addresses and the svd's
// indices live at once).
inline constexpr asmjit::x86::Gp::Id kAllocatable[] = {
    asmjit::x86::Gp::kIdBp, asmjit::x86::Gp::kIdR13, asmjit::x86::Gp::kIdR14, asmjit::x86::Gp::kIdR15,
    asmjit::x86::Gp::kIdR8, asmjit::x86::Gp::kIdR9,  asmjit::x86::Gp::kIdR10, asmjit::x86::Gp::kIdR11,
    asmjit::x86::Gp::kIdSi, asmjit::x86::Gp::kIdDi,
};
inline constexpr int kNumAllocatable = 8;
inline constexpr int kNumGp = 10;
inline constexpr int kFirstCallerSaved = 4;
// xmm0 and xmm1 are scratch; all xmm registers are caller-saved. Floats
// get xmm2-15 (kNumXmmVex: VEX and legacy SSE encode them) or, on AVX-512
// hosts, xmm2-31 (kNumXmm: EVEX encodes xmm16-31; asm.h's emitters keep
// VEX-only instructions off them). The register file is taken lowest
// first, so a trace that needs no more than 14 is coded as on AVX2.
inline constexpr int kFirstXmm = 2;
inline constexpr int kNumXmmVex = 14;
inline constexpr int kNumXmm = 30;

// 4 for an f32 result, 8 for an f64 one, 0 for the rest.
int float_width(const Ins& in);
// A sel between two floats of one width (both chosen values float
// results): that width, and it lives in an xmm register (Gen::select
// blends); 0 for any other sel.
int select_width(const Trace& t, const Ins& in);

struct Allocation {  // (its vectors in the compile's scratch block: scratch.h)
  ScratchVec<int8_t> reg;    // per ref: the index of its register in its file, or -1 (its slot)
  ScratchVec<uint8_t> fw;    // per ref: float_width
  ScratchVec<Ref> last;      // per ref: its last use (the trace's length when used by every iteration)
};
// `remat` values (sink.h) get no register: exits recompute them into their
// slots, so what they read stays live until each exit that needs them;
// `sunk` ones are not computed in the trace at all.
// `nxmm`: how many xmm registers floats may take (kNumXmmVex or kNumXmm);
// `ngp`: how many general ones the rest may (kNumAllocatable or kNumGp).
// `needs`: SnapshotNeeds(t, remat), when the caller has it.
Allocation allocate_registers(const Trace& t, const RefFlags& remat = {}, const RefFlags& sunk = {},
                              int nxmm = kNumXmmVex, int ngp = kNumAllocatable,
                              const SnapshotNeeds* needs = nullptr);

}  // namespace kiln::jit
