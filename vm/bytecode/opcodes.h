// The bytecode's one op table. The encoder (lower*.cpp), the interpreter's
// dispatch table, the disassembler and (later) the JIT's recorder all expand
// KILN_BC_OPS, so an op exists in exactly one place and the four can never
// disagree on the set of ops or their order.
//
// Instruction word: 64 bits, {op:16, a:16, b:16, c:16}; ops whose second
// operand is a 32-bit quantity (jump target, immediate, pool index) read it as
// D = b | c << 16. Registers are 8-byte slots of the frame.
//
// Register representation (every op writes it, every op may rely on it):
//   signed ints of any width: the value sign-extended to 64 bits;
//   unsigned ints: zero-extended; f16/bf16/f32: the f32 bits in the low half,
//   zero above; f64: the double's bits. Because of this, i32 and i64 (and u32
//   and u64) registers can be read as 64-bit ints without conversion, which
//   keeps moves, address arithmetic and int->float conversion type-agnostic.
//
// Computation types: i32 u32 i64 u64 f32 f64 (in that order inside each typed
// family, so `family_i32 + ct` selects a variant). i8/i16 compute in i32 and
// u8/u16 in u32, followed by a sext/zext op that wraps to the width; f16/bf16
// compute in f32 followed by round_f16/round_bf16. For the basic operations
// f32 has more than 2p+2 bits of either 16-bit format's precision, so the
// double rounding is innocuous and equals one rounding of the exact result.
//
// Operand modes (for the disassembler and the JIT's recorder):
//   ___ unused   dst register written   reg register read   acc read and written
//   lit small literal   prm a Prim number   str string-table index (0xffff = none)
//   trm address-term index   acd access-description index   cvt from|to<<8 prims
//   kc constant-pool index held in one 16-bit field
//   D-modes (b and c together): imm signed immediate   kst constant-pool index
//   jmp absolute target pc   arg argument slot   ret return slot   tmp global temp
//   asr assert-table index   sd string-table index
#pragma once
#include <cstdint>

namespace kiln::bc {

// Typed families. `_` is the user's per-op macro, passed through.
#define KILN_BC_T6(_, f, a, b, c) \
  _(f##_i32, a, b, c) _(f##_u32, a, b, c) _(f##_i64, a, b, c) \
  _(f##_u64, a, b, c) _(f##_f32, a, b, c) _(f##_f64, a, b, c)
#define KILN_BC_TI(_, f, a, b, c) \
  _(f##_i32, a, b, c) _(f##_u32, a, b, c) _(f##_i64, a, b, c) _(f##_u64, a, b, c)
#define KILN_BC_TF(_, f, a, b, c) _(f##_f32, a, b, c) _(f##_f64, a, b, c)
// Storage families, in Prim order (vm/types/type.h): integers come first.
#define KILN_BC_P12(_, f, a, b, c)                                                   \
  _(f##_i8, a, b, c) _(f##_i16, a, b, c) _(f##_i32, a, b, c) _(f##_i64, a, b, c)     \
  _(f##_u8, a, b, c) _(f##_u16, a, b, c) _(f##_u32, a, b, c) _(f##_u64, a, b, c)     \
  _(f##_f16, a, b, c) _(f##_bf16, a, b, c) _(f##_f32, a, b, c) _(f##_f64, a, b, c)
#define KILN_BC_P8(_, f, a, b, c)                                                    \
  _(f##_i8, a, b, c) _(f##_i16, a, b, c) _(f##_i32, a, b, c) _(f##_i64, a, b, c)     \
  _(f##_u8, a, b, c) _(f##_u16, a, b, c) _(f##_u32, a, b, c) _(f##_u64, a, b, c)

#define KILN_BC_OPS(_)                                                               \
  /* moves, constants, arguments */                                                  \
  _(nop, ___, ___, ___)                                                              \
  _(mov, dst, reg, ___)                                                              \
  _(kimm, dst, imm, ___)                                                             \
  _(kload, dst, kst, ___)                                                            \
  _(arg, dst, arg, ___)                                                              \
  _(ret, reg, ret, ___)                                                              \
  _(sel, acc, reg, reg)          /* a = a != 0 ? b : c */                            \
  KILN_BC_TF(_, fma, acc, reg, reg) /* a = a * b + c rounded once (fast_math) */     \
  /* arithmetic; int div/floordiv/mod/raw_mod raise ZeroDivisionError */             \
  KILN_BC_T6(_, add, dst, reg, reg)                                                  \
  KILN_BC_T6(_, sub, dst, reg, reg)                                                  \
  KILN_BC_T6(_, mul, dst, reg, reg)                                                  \
  KILN_BC_T6(_, div, dst, reg, reg)                                                  \
  KILN_BC_T6(_, floordiv, dst, reg, reg)                                             \
  KILN_BC_T6(_, mod, dst, reg, reg)                                                  \
  KILN_BC_T6(_, raw_mod, dst, reg, reg)                                              \
  KILN_BC_T6(_, pow, dst, reg, reg)                                                  \
  KILN_BC_T6(_, max, dst, reg, reg)                                                  \
  KILN_BC_T6(_, min, dst, reg, reg)                                                  \
  KILN_BC_TF(_, atan2, dst, reg, reg)                                                \
  KILN_BC_TI(_, band, dst, reg, reg)                                                 \
  KILN_BC_TI(_, bor, dst, reg, reg)                                                  \
  KILN_BC_TI(_, bxor, dst, reg, reg)                                                 \
  KILN_BC_TI(_, shl, dst, reg, reg)                                                  \
  KILN_BC_TI(_, shr, dst, reg, reg)                                                  \
  KILN_BC_TI(_, sar, dst, reg, reg)                                                  \
  /* comparisons give i32 0/1; gt/ge are lt/le with swapped operands */              \
  KILN_BC_T6(_, cmp_lt, dst, reg, reg)                                               \
  KILN_BC_T6(_, cmp_le, dst, reg, reg)                                               \
  KILN_BC_T6(_, cmp_eq, dst, reg, reg)                                               \
  KILN_BC_T6(_, cmp_ne, dst, reg, reg)                                               \
  /* unary */                                                                        \
  KILN_BC_T6(_, neg, dst, reg, ___)                                                  \
  KILN_BC_T6(_, abs, dst, reg, ___)                                                  \
  KILN_BC_T6(_, lnot, dst, reg, ___)                                                 \
  KILN_BC_TI(_, bnot, dst, reg, ___)                                                 \
  _(popcnt, dst, reg, lit)       /* set bits of the c-bit pattern of b */            \
  _(clz, dst, reg, lit)          /* leading zeros of the c-bit pattern of b */       \
  _(ctz, dst, reg, ___)          /* trailing zeros of b's 64 bits (64 for 0) */     \
  KILN_BC_TF(_, sqrt, dst, reg, ___)                                                 \
  KILN_BC_TF(_, rsqrt, dst, reg, ___)                                                \
  KILN_BC_TF(_, sin, dst, reg, ___)                                                  \
  KILN_BC_TF(_, cos, dst, reg, ___)                                                  \
  KILN_BC_TF(_, tan, dst, reg, ___)                                                  \
  KILN_BC_TF(_, asin, dst, reg, ___)                                                 \
  KILN_BC_TF(_, acos, dst, reg, ___)                                                 \
  KILN_BC_TF(_, atan, dst, reg, ___)                                                 \
  KILN_BC_TF(_, tanh, dst, reg, ___)                                                 \
  KILN_BC_TF(_, exp, dst, reg, ___)                                                  \
  KILN_BC_TF(_, log, dst, reg, ___)                                                  \
  KILN_BC_TF(_, floor, dst, reg, ___)                                                \
  KILN_BC_TF(_, ceil, dst, reg, ___)                                                 \
  KILN_BC_TF(_, round, dst, reg, ___)                                                \
  /* width fixups and conversions */                                                 \
  _(sext8, dst, reg, ___)                                                            \
  _(sext16, dst, reg, ___)                                                           \
  _(sext32, dst, reg, ___)                                                           \
  _(zext8, dst, reg, ___)                                                            \
  _(zext16, dst, reg, ___)                                                           \
  _(zext32, dst, reg, ___)                                                           \
  _(round_f16, dst, reg, ___)                                                        \
  _(round_bf16, dst, reg, ___)                                                       \
  _(i64_f32, dst, reg, ___)      /* also i32 and u32 sources (see representation) */ \
  _(u64_f32, dst, reg, ___)                                                          \
  _(i64_f64, dst, reg, ___)                                                          \
  _(u64_f64, dst, reg, ___)                                                          \
  _(f32_f64, dst, reg, ___)                                                          \
  _(f64_f32, dst, reg, ___)                                                          \
  _(f32_i32, dst, reg, ___)      /* float -> int: truncate, saturate, NaN -> 0 */    \
  _(f32_i64, dst, reg, ___)                                                          \
  KILN_BC_P8(_, f64, dst, reg, ___)                                                  \
  _(cvt, dst, reg, cvt)          /* any other cast, exactly as value.h's cast_const */ \
  _(bitcast, dst, reg, cvt)      /* ti.bit_cast between equal widths */              \
  /* global memory: loads give the register representation, stores narrow */         \
  KILN_BC_P12(_, ld, dst, reg, ___)                                                  \
  KILN_BC_P12(_, st, reg, reg, ___)  /* *a = b */                                    \
  _(addr_base, dst, lit, kc)     /* a = tree_bases[b] + consts[c] */                 \
  _(addr_idx, acc, reg, trm)     /* a += ((b / div) % mod) * stride */               \
  _(bound, reg, lit, acd)        /* IndexError unless 0 <= a < shape[b] */           \
  _(bndx, reg, reg, acd)         /* IndexError unless 0 <= a < b (ndarray shapes) */ \
  _(gtemp, dst, tmp, ___)        /* a = &ctx.temps[D] */                             \
  /* sparse SNodes: index registers b, b+1, ... (see Function::sparse/snode_ops) */   \
  _(sptr, dst, reg, lit)         /* a = element address by lookup sparse[c] */        \
  _(snop, dst, reg, lit)         /* a = ti.activate/is_active/... snode_ops[c] */     \
  _(sfidx, dst, reg, lit)        /* a = struct-for index c&255 of cell b (r3 table) */ \
  /* atomics: a = old *b; *b = old op c */                                           \
  KILN_BC_P12(_, atom_add, dst, reg, reg)                                            \
  KILN_BC_P12(_, atom_sub, dst, reg, reg)                                            \
  KILN_BC_P12(_, atom_min, dst, reg, reg)                                            \
  KILN_BC_P12(_, atom_max, dst, reg, reg)                                            \
  KILN_BC_P8(_, atom_and, dst, reg, reg)                                             \
  KILN_BC_P8(_, atom_or, dst, reg, reg)                                              \
  KILN_BC_P8(_, atom_xor, dst, reg, reg)                                             \
  KILN_BC_P12(_, atom_mul, dst, reg, reg)                                            \
  /* control flow. fori/forl: a = index, a+1 = end, a+2 = the loop's hot counter */  \
  _(jmp, ___, jmp, ___)                                                              \
  _(jz, reg, jmp, ___)                                                               \
  _(jnz, reg, jmp, ___)                                                              \
  _(fori_i32, acc, jmp, ___)     /* if !(a < a+1) goto D */                          \
  _(forl_i32, acc, jmp, ___)     /* a += 1, a+2 += 1; if a < a+1 goto D */           \
  _(fori_i64, acc, jmp, ___)                                                         \
  _(forl_i64, acc, jmp, ___)                                                         \
  _(loop, acc, ___, ___)         /* while-loop header: a (hot counter) += 1 */        \
  _(end, ___, ___, ___)          /* the task is done */                              \
  _(call, lit, ___, ___)         /* run ti.real_func calls[a] (Function::calls) */   \
  /* print: append to the frame's line, then flush it whole */                       \
  _(pr_str, ___, sd, ___)                                                            \
  _(pr_val, reg, prm, str)       /* c: format spec, 0xffff = the type's default */   \
  _(pr_flush, ___, ___, ___)                                                         \
  _(assert_, reg, asr, ___)      /* AssertionError unless a != 0 */                 \
  _(rng_init, acc, ___, ___)     /* a..a+2 = this task's random stream (rng.h) */    \
  _(rand, dst, reg, prm)         /* a = next draw of type c in iteration b's stream */ \
  /* autodiff tapes (Function::stacks): a register holds the tape's address */      \
  _(stk_init, dst, imm, ___)     /* a = &tape D past the registers, emptied */         \
  _(stk_push, reg, reg, ___)     /* push b on stack a (RuntimeError when full) */     \
  _(stk_pop, reg, ___, ___)      /* drop the top of stack a */                        \
  _(stk_top, dst, reg, ___)      /* a = the top of stack b */

enum class Op : uint16_t {
#define KILN_BC_ENUM(name, a, b, c) name,
  KILN_BC_OPS(KILN_BC_ENUM)
#undef KILN_BC_ENUM
  count_
};
constexpr int kNumOps = (int)Op::count_;

// Operand modes, as named in the table.
enum class Mode : uint8_t {
  ___, dst, reg, acc, lit, prm, str, trm, acd, cvt, kc,
  imm, kst, jmp, arg, ret, tmp, asr, sd,
};
inline bool mode_is_d(Mode m) { return m >= Mode::imm; }

struct OpInfo {
  const char* name;
  Mode a, b, c;
};
extern const OpInfo kOpInfo[kNumOps];
inline const char* op_name(Op op) { return kOpInfo[(int)op].name; }

// Computation types, in family order.
enum class CT : uint8_t { i32, u32, i64, u64, f32, f64 };

struct Insn {
  Op op = Op::nop;
  uint16_t a = 0, b = 0, c = 0;
  int32_t d() const { return (int32_t)((uint32_t)b | ((uint32_t)c << 16)); }
  void set_d(int32_t v) {
    b = (uint16_t)((uint32_t)v & 0xffff);
    c = (uint16_t)((uint32_t)v >> 16);
  }
};
static_assert(sizeof(Insn) == 8, "instruction words are 64 bits");

constexpr uint16_t kNoStr = 0xffff;

}  // namespace kiln::bc
