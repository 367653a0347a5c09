// The x86-64 backend: trace IR -> machine code with asmjit's Assembler.
//
// Why the Assembler and not the Compiler: a side exit must know where every
// snapshot value lives, and the Compiler's allocator hides that (and costs
// 10-20x more compile time, DEPENDENCIES.md). This first allocator is the
// simplest one that is always right: every IR value has a stack slot, ops
// work in fixed scratch registers. Loop-carried values are phis that the
// back edge copies slot to slot.
#pragma once
#include <cstdint>
#include <string>

#include <asmjit/core.h>

#include "jit/recorder.h"
#include "jit/trace.h"


namespace kiln::jit {

// The stack frame of every trace (6 pushes + return address + this keep
// calls 16-byte aligned): room for a trace of maxtrace's default size peeled.
inline constexpr int32_t kFrameBytes = 8 * 10240 + 8;

struct Compiled {
  TraceFn fn = nullptr;
  const void* warm = nullptr;  // after the prologue: where a linked trace jumps in
  size_t code_size = 0;
  std::string listing;  // the machine code as text, when asked for
  std::string lanes;    // "8 lanes" when the loop has a vector loop, else why not
  // Set when compile_trace failed because the assembler refused an
  // instruction (asm_check.cpp): the JIT's own bug, which KILN_JIT=strict=1
  // turns into an internal error. Out of executable memory is not one.
  bool assembler_error = false;
};

// Whether this CPU runs AVX2 (vector loops, vector.h).
bool host_has_avx2();
// Whether it has AVX-512 F, VL and DQ (16-lane vector loops, jit/asm_wide.cpp).
bool host_has_avx512();
// Whether it has FMA3 (vfmadd: the IR's fma in one instruction, in lanes too).
bool host_has_fma3();
// Whether vector loops prefetch a load stream they read once a pass (else
// only a stencil's, read at several displacements): not on AMD hosts, whose
// hardware prefetcher follows such a stream alone (asm_vector.cpp).
bool prefetch_plain_streams();

// The constant operand of a float max/min (in.a or in.b) when x86's
// maxss/minss x, k compute the interpreter's maximumNumber/minimumNumber
// bit for bit, in lanes too (asm_float.cpp says why); else kNoRef.
Ref exact_maxmin_const(const Trace& t, const Ins& in);
// An f32/f64 max/min that is not (two lane values, or a constant that is not
// exact): lanes compute it with compares and blends.
bool general_maxmin(const Trace& t, const Ins& in);
// An f32 -> i32 conversion (lanes fix cvttps2dq's results by compares).
inline bool lane_f2i(const Ins& in) { return in.op == IrOp::conv && in.k == (int64_t)bc::Op::f32_i32; }
// A lane op built of ymm compares and blends (asm_lane_body.cpp): it takes
// the loop's scratch register, reads its operands after writing its result
// (their registers stay apart from it: vector_regs.cpp), and keeps the loop
// in ymm (VEX compares give ymm masks, not zmm: wide_lanes).
inline bool lane_blends(const Trace& t, const Ins& in) { return general_maxmin(t, in) || lane_f2i(in); }
// roundss/roundps (and rndscaleps) modes of floor and ceil, inexact not signalled.
inline constexpr uint32_t kRoundFloor = 0x9, kRoundCeil = 0xA;

// Returns "" on success, else why the trace cannot be compiled. With
// `exits` (one per snapshot, living as long as the code), each exit records
// itself in TraceEnv::exit and jumps to its side trace once one is linked.
std::string compile_trace(const Trace& t, asmjit::JitRuntime& rt, Compiled& out, bool want_listing = false,
                          ExitInfo* exits = nullptr);

}  // namespace kiln::jit
