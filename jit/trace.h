// The trace IR: one recorded loop iteration as typed SSA in a flat array,
// plus snapshots for its guards. Every value is a 64-bit register
// representation (vm/bytecode/opcodes.h), so a value can be written back to
// an interpreter register unchanged; `t` says how an op reads its operands.
//
// Layout after optimization: the peeled first iteration, `loop`, the loop
// body (only what varies), `phi`s naming which pre-loop slots the back edge
// overwrites. A ref is an index into Trace::ins.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "vm/bytecode/opcodes.h"
#include "vm/types/type.h"

namespace kiln::jit {

// The op table, one X-macro (name, operand count, flags).
// Flags: P pure (foldable, CSE-able), G guard, M memory effect, C always a call.
#define KILN_JIT_OPS(_)                                                     \
  _(kval, 0, P)       /* constant: k = the bits */                         \
  _(sload, 0, P)      /* the entry value of bytecode register k */         \
  _(rload, 0, 0)      /* register k as the frame holds it now (after calltr) */ \
  _(arg, 0, P)        /* env->args[k] */                                   \
  _(base, 0, P)       /* env->tree_bases[k] (+0) */                        \
  _(gtemp, 0, P)      /* &env->temps[k] */                                 \
  _(faddr, 0, P)      /* &frame[k]: a slot past the registers (autodiff tapes) */ \
  _(copy, 1, 0)       /* a fresh slot holding a */                         \
  _(add, 2, P) _(sub, 2, P) _(mul, 2, P) _(div, 2, P) _(floordiv, 2, P)    \
  _(mod, 2, P) _(raw_mod, 2, P) _(pow, 2, P) _(max, 2, P) _(min, 2, P)     \
  _(atan2, 2, P) _(band, 2, P) _(bor, 2, P) _(bxor, 2, P) _(shl, 2, P)     \
  _(shr, 2, P) _(sar, 2, P)                                                \
  _(lt, 2, P) _(le, 2, P) _(eq, 2, P) _(ne, 2, P) /* give i32 0/1 */       \
  _(neg, 1, P) _(abs, 1, P) _(lnot, 1, P) _(bnot, 1, P) _(sqrt, 1, P)      \
  _(rsqrt, 1, P) _(sin, 1, P) _(cos, 1, P) _(tan, 1, P) _(asin, 1, P)      \
  _(acos, 1, P) _(atan, 1, P) _(tanh, 1, P) _(exp, 1, P) _(log, 1, P)      \
  _(floor, 1, P) _(ceil, 1, P) _(round, 1, P)                              \
  _(tzcnt, 1, P)      /* trailing zero bits of a's 64 (64 for 0) */    \
  _(conv, 1, P)       /* k = the bytecode conversion Op (sext8 ... f64_u64) */ \
  _(sel, 3, P)        /* a != 0 ? b : c */                                 \
  _(fma, 3, P)        /* a * b + c rounded once (t: f32 or f64) */         \
  _(load, 1, P)       /* *a as storage Prim k (CSE only within one epoch) */ \
  _(store, 2, M)      /* *a = b as storage Prim k */                       \
  _(atomic, 2, M)     /* old *a; *a = old op b: k = Prim | AOp << 8 (| kLengthAtomic) */ \
  _(rtcall, 2, M)     /* rt_call(a, b, k): k = an RtCall* (rtcall.h) */      \
  _(calltr, 0, M)     /* flush snapshot, run inner loop trace k: its exit pc */ \
  _(guard_nz, 1, G)   /* exit unless a != 0 */                             \
  _(guard_z, 1, G)    /* exit unless a == 0 */                             \
  _(guard_ult, 2, G)  /* exit unless (u64)a < (u64)b */                    \
  _(loop, 0, 0)       /* the loop header: what follows repeats */          \
  _(link, 0, M)       /* side trace end: flush snapshot, jump to root trace k (0: return its pc) */ \
  _(phi, 2, 0)        /* at the back edge, slot a := b */

enum class IrOp : uint8_t {
#define KILN_JIT_ENUM(name, n, f) name,
  KILN_JIT_OPS(KILN_JIT_ENUM)
#undef KILN_JIT_ENUM
  count_
};
enum : uint8_t { P = 1, G = 2, M = 4 };
struct IrOpInfo {
  const char* name;
  int nops;
  uint8_t flags;
};
extern const IrOpInfo kIrOps[(int)IrOp::count_];

using Ref = int32_t;
constexpr Ref kNoRef = -1;

// An atomic's k: Prim | sem::AOp << 8, and this bit on a dynamic list's
// length bump by ti.append (sparse_walk.cpp): a length the runtime only
// grows from 0 (one increment per append) or resets, never negative, so the
// optimizer may take a later load of it to exceed the old value (opt.cpp).
constexpr int64_t kLengthAtomic = int64_t(1) << 16;
inline Prim atomic_prim(int64_t k) { return (Prim)(k & 0xff); }
inline int atomic_aop(int64_t k) { return (int)((k >> 8) & 0xff); }

struct Ins {
  IrOp op = IrOp::kval;
  bc::CT t = bc::CT::i64;  // the computation type of typed ops
  bool live = true;        // cleared by DCE
  Ref a = kNoRef, b = kNoRef, c = kNoRef;
  int64_t k = 0;
  int32_t snap = -1;       // guards: index into Trace::snaps
  uint32_t epoch = 0;      // loads: the store epoch they read in
};

// Where the interpreter resumes after a failed guard, and what its frame
// must hold there: registers whose value differs from the trace's entry.
struct Snapshot {
  uint32_t pc = 0;
  std::vector<std::pair<uint16_t, Ref>> regs;
  int32_t pc_ref = -1;  // when set, resume at this value's pc (after a calltr: wherever the inner trace left)
  bool hoisted = false; // a bounds check hoisted out of the loop (bounds.h): if it keeps failing, re-record without
};

struct Trace {
  std::string fn_name;
  uint32_t head_pc = 0;     // the loop body's first pc (where the trace is entered)
  std::vector<Ins> ins;
  std::vector<Snapshot> snaps;
  Ref loop_ref = kNoRef;    // the `loop` instruction (kNoRef: not yet peeled)
  int32_t loop_snap = -1;   // the state at the loop head, for leaving at a back edge (Ctrl-C)
  bool has_mem_effects = false;
  bool allow_lanes = false; // the backend may emit a vector loop (vector.h): AVX2 here, KILN_JIT=vector=1
  bool allow_zmm = false;   // AVX-512 here, KILN_JIT=zmm=1: 16 lanes where it divides (asm_wide.cpp), xmm16-31
  bool late_fold = true;    // KILN_JIT=latefold: ordered sums' lanes fold one chunk late (asm_lane_fold.cpp)
  bool lane_exit = true;    // KILN_JIT=laneexit: loops leave from their lanes (asm_vector_frame.cpp), combines in lanes (asm_combine.cpp)
  int8_t hi_ymm = 0;        // allow_zmm and KILN_JIT=hiymm: 8-lane loops may take ymm16-31 (vector_regs.cpp)
  bool hoist_bounds = true; // peel() may hoist bounds guards (bounds.h)
  bool rotate = true;       // KILN_JIT=rotate: a loop whose head is a guard tests it at the back edge (backend.cpp)
  uint16_t nonneg_reg = 0xffff;  // a register in [0, its type's max - 1] (bc::Function::nonneg_reg)

  bool is_const(Ref r) const { return r >= 0 && ins[r].op == IrOp::kval; }
};

// eval.cpp: the value of a pure op on operand values (register
// representations), by the interpreter's own templates. False when it cannot
// be computed without a side condition (integer division by zero, 0 ** -n).
bool eval_pure(IrOp op, bc::CT t, int64_t k, uint64_t a, uint64_t b, uint64_t c, uint64_t& out);
// The same as a plain function the backend calls: key = op | t << 8 | k << 16.
uint64_t eval_call(uint64_t a, uint64_t b, uint64_t key);
// Performs an atomic (Ins::k encoding) and returns the old value.
uint64_t atomic_call(uint64_t addr, uint64_t val, uint64_t k);
// A load / store of storage Prim k as a register representation.
uint64_t load_prim(uint64_t addr, int p);
void store_prim(uint64_t addr, uint64_t v, int p);

// dump.cpp: text of the IR and snapshots, one instruction a line.
std::string dump_trace(const Trace& t);

}  // namespace kiln::jit
