// The dispatch loop: computed goto over a label table generated from
// KILN_BC_OPS, so adding an op to opcodes.h without a handler here fails to
// compile (the label would be undefined).
#include <cstring>
#include <memory>

#include "vm/interp/interp.h"
#include "vm/interp/interp_ops.h"
#include "vm/interp/recursion_message.h"
#include "vm/runtime/program.h"
#include "vm/runtime/ndarray_bounds.h"
#include "vm/runtime/rng.h"

namespace kiln::interp {

using namespace kiln::bc;

namespace {

// ---- cold paths: errors, kept out of the loop ------------------------------------

// Where the last user error of this thread was raised: the debugger stops
// there (run_function's catch), with the frame it left.
thread_local uint32_t t_fault_pc = 0;

[[noreturn]] __attribute__((noinline, cold)) void fail(const Function& fn, const Insn* ip,
                                                         const char* kind, const std::string& msg) {
  t_fault_pc = (uint32_t)(ip - fn.code.data()) - 1;
  raise(kind, msg, fn.loc_at(t_fault_pc));
}


[[noreturn]] __attribute__((noinline, cold)) void fail_bounds(const Function& fn, const Insn* ip,
                                                                int64_t index) {
  const Insn& in = ip[-1];
  const AccessDesc& d = fn.accesses[in.c];
  std::string field = d.field.empty() ? "field" : "field '" + d.field + "'";
  // The checked index is from 0; the user wrote it with the field's offset.
  int64_t user = index + ((size_t)in.b < d.offset.size() ? d.offset[(size_t)in.b] : 0);
  fail(fn, ip, "IndexError", bounds_message(field, in.b, user, d.shape, d.offset));
}

// The same for an ndarray argument, whose shape is in the launch's arguments.
[[noreturn]] __attribute__((noinline, cold)) void fail_bounds_ext(const Function& fn, const Insn* ip, int64_t index,
                                                                    const LaunchContext& ctx) {
  const AccessDesc& d = fn.accesses[ip[-1].c];
  std::vector<int64_t> shape;
  for (int k = 0; k < d.ndim; k++) shape.push_back((int64_t)(int32_t)ctx.args[(size_t)(d.ext_arg + 1 + k)]);
  fail(fn, ip, "IndexError", ndarray_bounds_message(d.field, d.axis, index, shape));
}

// The assert's message with its arguments (value.h's assert_text).
std::string assert_message(const AssertDesc& d, const uint64_t* R) {
  std::vector<ConstVal> args;
  for (size_t k = 0; k < d.regs.size(); k++) args.push_back(sem::reg_to_val(R[d.regs[k]], d.prims[k]));
  return assert_text(d.text, args);
}

__attribute__((noinline)) void print_value(const Function& fn, const Insn* ip, std::string& line,
                                           uint64_t reg, Prim p, uint16_t spec) {
  try {
    line += kernel_print_scalar(sem::reg_to_val(reg, p),
                                spec == kNoStr ? std::string_view{} : std::string_view(fn.strings[spec]));
  } catch (Error& e) {
    if (!e.loc.known()) e.loc = fn.loc_at((uint32_t)(ip - fn.code.data()) - 1);
    throw;
  }
}

// A runtime SNode operation, its errors (index out of range) located at the op.
__attribute__((noinline)) int64_t snode_op_at(const Function& fn, const Insn* ip, Program& prog,
                                              const SNodeOpDesc& d, const int64_t* idx) {
  try {
    return prog.snode_op((Program::SNodeOp)d.op, d.snode, idx);
  } catch (Error& e) {
    if (!e.loc.known()) e.loc = fn.loc_at((uint32_t)(ip - fn.code.data()) - 1);
    throw;
  }
}

// ti.real_func calls: how deep this thread is (kMaxCallDepth: each level
// costs the C stack a dispatch frame and a register file; a pool thread has 8 MiB).
thread_local int t_call_depth = 0;
// Each depth's launch context, reused by the calls made at that depth so a
// call allocates nothing once its vectors have grown (calls are per element
// in loops over millions of cells).
thread_local std::vector<std::unique_ptr<LaunchContext>> t_call_ctx;

// Op call: the callee (one serial task) runs on a launch context of its own
// (its arguments, its returns, the caller's memory), in this thread.
__attribute__((noinline)) void call_real_func(const Function& fn, const Insn* ip, LaunchContext& ctx, uint64_t* R) {
  const CallDesc& d = fn.calls[ip[-1].a];
  if (!fn.callees || d.callee >= fn.callees->size()) fail(fn, ip, "InternalError", "call of a missing ti.real_func");
  if (t_call_depth >= kMaxCallDepth)
    fail(fn, ip, "RecursionError", recursion_message(d.name, kMaxCallDepth, {}));
  const Kernel& callee = (*fn.callees)[d.callee];
  if ((size_t)t_call_depth >= t_call_ctx.size()) t_call_ctx.push_back(std::make_unique<LaunchContext>());
  LaunchContext& sub = *t_call_ctx[(size_t)t_call_depth];
  sub.program = ctx.program;
  sub.args.resize(d.args.size());
  for (size_t k = 0; k < d.args.size(); k++) sub.args[k] = R[d.args[k]];
  sub.rets.assign((size_t)callee.num_rets, 0);
  if (sub.tree_bases != ctx.tree_bases) sub.tree_bases = ctx.tree_bases;
  sub.temps.assign((size_t)callee.num_global_temps, 0);
  sub.rng_key = ctx.rng_key;
  if (fn.rng_reg != 0xffff) {
    // Each call's draws from a key of its own: the caller's stream, advanced.
    // (In a parallel loop the frontend steps the iteration's stream before a
    // call that draws, so the key does not depend on the schedule.)
    uint64_t* S = R + fn.rng_reg;
    S[2] += kRngGamma;
    sub.rng_key = rng_mix(S[0] ^ rng_mix(S[2]) ^ S[1]);
  }
  sub.print_buffer.clear();
  struct Depth {
    Depth() { t_call_depth++; }
    ~Depth() { t_call_depth--; }
  } depth;
  auto flush = [&] {
    if (sub.print_buffer.empty()) return;
    std::lock_guard<std::mutex> lock(ctx.print_mu);
    ctx.print_buffer += sub.print_buffer;
  };
  try {
    for (const TaskCode& t : callee.tasks) run_function(t.fn, sub);
  } catch (...) {
    flush();
    throw;
  }
  flush();
  for (uint16_t k = 0; k < d.nrets && k < sub.rets.size(); k++) R[d.ret_base + k] = sub.rets[k];
}

template <class S> inline S load(uint64_t addr) {
  S v;
  std::memcpy(&v, reinterpret_cast<const void*>(addr), sizeof(S));
  return v;
}
template <class S> inline void store(uint64_t addr, S v) {
  std::memcpy(reinterpret_cast<void*>(addr), &v, sizeof(S));
}

}  // namespace

namespace {

void dispatch(const Function& fn, LaunchContext& ctx, uint64_t* R, LoopHook* hook, DebugHook* dbg);

}  // namespace

// Whether the function has the task's own counted loop over [r0, r1)
// (range_for and struct_for tasks): its hot counter is then r2.
static bool task_loop_at_r0(const Function& fn) {
  for (const LoopInfo& li : fn.loops)
    if (li.counted && li.base == 0) return li.counter == 2;
  return false;
}

void run_function(const Function& fn, LaunchContext& ctx, int64_t begin, int64_t end, LoopHook* hook,
                  const int64_t* cells) {
  // The frame: registers on the C stack when they fit. Zeroed so that a
  // debugger (or a bug) never sees another call's values.
  constexpr uint32_t kLocal = 128;
  uint64_t local[kLocal];
  std::unique_ptr<uint64_t[]> heap;
  uint64_t* R = local;
  uint32_t n = fn.frame_regs() + fn.stack_slots;  // autodiff tapes after the registers
  if (n > kLocal) {
    heap.reset(new uint64_t[n]);
    R = heap.get();
  }
  // Tapes need no zeroing: stk_init writes their header before any use.
  std::memset(R, 0, fn.frame_regs() * sizeof(uint64_t));
  R[0] = (uint64_t)begin;
  R[1] = (uint64_t)end;
  if (cells) R[3] = (uint64_t)cells;  // struct_for: the cells' index table
  DebugHook* dbg = ctx.program ? ctx.program->debugger : nullptr;
  if (hook && end > begin && task_loop_at_r0(fn)) {  // the task loop's count goes on from the last chunk's
    R[2] = (uint64_t)hook->task_iterations.load(std::memory_order_relaxed);
    hook->task_iterations.fetch_add(end - begin, std::memory_order_relaxed);
  }
  if (!dbg) return dispatch(fn, ctx, R, hook, nullptr);
  try {
    dispatch(fn, ctx, R, hook, dbg);
  } catch (const Error& e) {
    if (e.kind != "KeyboardInterrupt") dbg->fault(fn, t_fault_pc, R, ctx, e);
    throw;
  }
}

namespace {

void dispatch(const Function& fn, LaunchContext& ctx, uint64_t* R, LoopHook* hook, DebugHook* dbg) {
  std::string line;  // the print statement being assembled
  // Ctrl-C: polled at loop back-edges (forl/loop), the only way a task runs
  // long; at every 1024th back-edge of this frame (a load per back-edge cost
  // ~20% on tight loops; loop counters restart at each entry, so they would
  // miss nests of short loops).
  static const std::atomic<bool> kNever{false};
  const std::atomic<bool>& stop = ctx.program ? ctx.program->interrupt_requested : kNever;
  uint32_t polls = 0;

  const Insn* const code = fn.code.data();
  const uint64_t* const K = fn.consts.data();
  const Insn* ip = code;
  Insn I;
  // Re-read at every check: the JIT lowers a hook's threshold once the
  // function has a trace, so later loop instances enter it at once.
  static const std::atomic<int64_t> kNeverHot{INT64_MAX};
  const std::atomic<int64_t>* const hot = hook ? &hook->hotloop : &kNeverHot;

  static const void* const kLabels[kNumOps] = {
#define KILN_LABEL(name, a, b, c) &&L_##name,
      KILN_BC_OPS(KILN_LABEL)
#undef KILN_LABEL
  };
  // Under the debugger every op first goes through debug_at.
  static const void* const kDebugLabels[kNumOps] = {
#define KILN_LABEL(name, a, b, c) &&debug_at,
      KILN_BC_OPS(KILN_LABEL)
#undef KILN_LABEL
  };
  // The debugger looks at every instruction only while it needs to (stepping,
  // a breakpoint in this function, a watchpoint, a pause); otherwise the
  // function runs at full speed and the choice is revisited when the
  // debugger's state changes (its epoch), at the next poll.
  const void* const* labels = kLabels;
  uint32_t dbg_epoch = 0;
  if (dbg) {
    dbg_epoch = dbg->epoch.load();
    if (dbg->wants(fn)) labels = kDebugLabels;
  }
#define POLL()                                                                  \
  do {                                                                          \
    if (stop.load(std::memory_order_relaxed)) goto interrupted;                 \
    if (dbg && dbg->epoch.load(std::memory_order_relaxed) != dbg_epoch) {       \
      dbg_epoch = dbg->epoch.load();                                            \
      labels = dbg->wants(fn) ? kDebugLabels : kLabels;                         \
    }                                                                           \
  } while (0)

#define NEXT()                      \
  do {                              \
    I = *ip++;                      \
    goto* labels[(int)I.op];        \
  } while (0)
#define T_i32 int32_t
#define T_u32 uint32_t
#define T_i64 int64_t
#define T_u64 uint64_t
#define T_f32 float
#define T_f64 double
#define GET(sfx, r) sem::get<T_##sfx>(R, r)
#define PUT(sfx, v) sem::put<T_##sfx>(R, I.a, v)
#define EACH6(M, op, fn) M(op, i32, fn) M(op, u32, fn) M(op, i64, fn) M(op, u64, fn) M(op, f32, fn) M(op, f64, fn)
#define EACHI(M, op, fn) M(op, i32, fn) M(op, u32, fn) M(op, i64, fn) M(op, u64, fn)
#define EACHF(M, op, fn) M(op, f32, fn) M(op, f64, fn)

// Typed handler shapes.
#define H_BIN(op, sfx, fn) L_##op##_##sfx: PUT(sfx, fn<T_##sfx>(GET(sfx, I.b), GET(sfx, I.c))); NEXT();
#define H_DIV(op, sfx, fn)                                                   \
  L_##op##_##sfx : {                                                         \
    T_##sfx y = GET(sfx, I.c);                                               \
    if (!sem::is_f<T_##sfx> && y == 0) goto zero_div;                        \
    PUT(sfx, fn<T_##sfx>(GET(sfx, I.b), y));                                 \
    NEXT();                                                                  \
  }
#define H_POW(op, sfx, fn)                                                   \
  L_##op##_##sfx : {                                                         \
    bool bad = false;                                                        \
    PUT(sfx, fn<T_##sfx>(GET(sfx, I.b), GET(sfx, I.c), bad));                \
    if (bad) goto zero_pow;                                                  \
    NEXT();                                                                  \
  }
#define H_SHIFT(op, sfx, fn) L_##op##_##sfx: PUT(sfx, fn<T_##sfx>(GET(sfx, I.b), R[I.c])); NEXT();
#define H_CMP(op, sfx, cmp) L_##op##_##sfx: sem::put<int32_t>(R, I.a, GET(sfx, I.b) cmp GET(sfx, I.c)); NEXT();
#define H_UNT(op, sfx, fn) L_##op##_##sfx: PUT(sfx, fn<T_##sfx>(GET(sfx, I.b))); NEXT();
#define H_UNF(op, sfx, fn) L_##op##_##sfx: PUT(sfx, fn(GET(sfx, I.b))); NEXT();
#define H_LNOT(op, sfx, _) L_##op##_##sfx: sem::put<int32_t>(R, I.a, GET(sfx, I.b) == 0); NEXT();
#define H_BNOT(op, sfx, _) L_##op##_##sfx: PUT(sfx, (T_##sfx)~GET(sfx, I.b)); NEXT();
#define H_BITW(op, sfx, o) L_##op##_##sfx: PUT(sfx, (T_##sfx)(GET(sfx, I.b) o GET(sfx, I.c))); NEXT();

  NEXT();

  // ---- moves, constants, arguments ----
L_nop: NEXT();
L_mov: R[I.a] = R[I.b]; NEXT();
L_kimm: R[I.a] = (uint64_t)(int64_t)I.d(); NEXT();
L_kload: R[I.a] = K[I.d()]; NEXT();
L_arg: R[I.a] = ctx.args[I.d()]; NEXT();
L_ret: ctx.rets[I.d()] = R[I.a]; NEXT();
L_sel: R[I.a] = R[I.a] != 0 ? R[I.b] : R[I.c]; NEXT();
L_fma_f32: PUT(f32, std::fma(GET(f32, I.a), GET(f32, I.b), GET(f32, I.c))); NEXT();
L_fma_f64: PUT(f64, std::fma(GET(f64, I.a), GET(f64, I.b), GET(f64, I.c))); NEXT();

  // ---- arithmetic ----
  EACH6(H_BIN, add, sem::add)
  EACH6(H_BIN, sub, sem::sub)
  EACH6(H_BIN, mul, sem::mul)
  EACH6(H_DIV, div, sem::div)
  EACH6(H_DIV, floordiv, sem::floordiv)
  EACH6(H_DIV, mod, sem::mod)
  EACH6(H_DIV, raw_mod, sem::raw_mod)
  EACH6(H_POW, pow, sem::pow_)
  EACH6(H_BIN, max, sem::max_)
  EACH6(H_BIN, min, sem::min_)
L_atan2_f32: PUT(f32, std::atan2(GET(f32, I.b), GET(f32, I.c))); NEXT();
L_atan2_f64: PUT(f64, std::atan2(GET(f64, I.b), GET(f64, I.c))); NEXT();
  EACHI(H_BITW, band, &)
  EACHI(H_BITW, bor, |)
  EACHI(H_BITW, bxor, ^)
  EACHI(H_SHIFT, shl, sem::shl)
  EACHI(H_SHIFT, shr, sem::shr)
  EACHI(H_SHIFT, sar, sem::sar)
  EACH6(H_CMP, cmp_lt, <)
  EACH6(H_CMP, cmp_le, <=)
  EACH6(H_CMP, cmp_eq, ==)
  EACH6(H_CMP, cmp_ne, !=)

  // ---- unary ----
  EACH6(H_UNT, neg, sem::neg)
  EACH6(H_UNT, abs, sem::abs_)
  EACH6(H_LNOT, lnot, _)
  EACHI(H_BNOT, bnot, _)
  // The register holds the value sign- or zero-extended; count in its c-bit pattern.
L_popcnt: {
    uint64_t x = I.c >= 64 ? R[I.b] : R[I.b] & ((uint64_t(1) << I.c) - 1);
    sem::put<int64_t>(R, I.a, __builtin_popcountll(x));
    NEXT();
  }
L_clz: {
    uint64_t x = I.c >= 64 ? R[I.b] : R[I.b] & ((uint64_t(1) << I.c) - 1);
    sem::put<int64_t>(R, I.a, x ? __builtin_clzll(x) - (64 - I.c) : I.c);
    NEXT();
  }
L_ctz: {
    uint64_t x = R[I.b];
    R[I.a] = x ? (uint64_t)__builtin_ctzll(x) : 64;
    NEXT();
  }
  EACHF(H_UNF, sqrt, std::sqrt)
  EACHF(H_UNT, rsqrt, sem::rsqrt)
  EACHF(H_UNF, sin, std::sin)
  EACHF(H_UNF, cos, std::cos)
  EACHF(H_UNF, tan, std::tan)
  EACHF(H_UNF, asin, std::asin)
  EACHF(H_UNF, acos, std::acos)
  EACHF(H_UNF, atan, std::atan)
  EACHF(H_UNF, tanh, std::tanh)
  EACHF(H_UNF, exp, std::exp)
  EACHF(H_UNF, log, std::log)
  EACHF(H_UNF, floor, std::floor)
  EACHF(H_UNF, ceil, std::ceil)
  EACHF(H_UNF, round, std::round)

  // ---- width fixups and conversions ----
L_sext8: R[I.a] = (uint64_t)(int64_t)(int8_t)R[I.b]; NEXT();
L_sext16: R[I.a] = (uint64_t)(int64_t)(int16_t)R[I.b]; NEXT();
L_sext32: R[I.a] = (uint64_t)(int64_t)(int32_t)R[I.b]; NEXT();
L_zext8: R[I.a] = (uint8_t)R[I.b]; NEXT();
L_zext16: R[I.a] = (uint16_t)R[I.b]; NEXT();
L_zext32: R[I.a] = (uint32_t)R[I.b]; NEXT();
L_round_f16: PUT(f32, sem::round_f16(GET(f32, I.b))); NEXT();
L_round_bf16: PUT(f32, sem::round_bf16(GET(f32, I.b))); NEXT();
L_i64_f32: PUT(f32, (float)(int64_t)R[I.b]); NEXT();
L_u64_f32: PUT(f32, (float)R[I.b]); NEXT();
L_i64_f64: PUT(f64, (double)(int64_t)R[I.b]); NEXT();
L_u64_f64: PUT(f64, (double)R[I.b]); NEXT();
L_f32_f64: PUT(f64, (double)GET(f32, I.b)); NEXT();
L_f64_f32: PUT(f32, (float)GET(f64, I.b)); NEXT();
L_f32_i32: PUT(i32, sem::f2i<int32_t>(GET(f32, I.b))); NEXT();
L_f32_i64: PUT(i64, sem::f2i<int64_t>(GET(f32, I.b))); NEXT();
L_f64_i8: sem::put<int8_t>(R, I.a, sem::f2i<int8_t>(GET(f64, I.b))); NEXT();
L_f64_i16: sem::put<int16_t>(R, I.a, sem::f2i<int16_t>(GET(f64, I.b))); NEXT();
L_f64_i32: sem::put<int32_t>(R, I.a, sem::f2i<int32_t>(GET(f64, I.b))); NEXT();
L_f64_i64: sem::put<int64_t>(R, I.a, sem::f2i<int64_t>(GET(f64, I.b))); NEXT();
L_f64_u8: sem::put<uint8_t>(R, I.a, sem::f2i<uint8_t>(GET(f64, I.b))); NEXT();
L_f64_u16: sem::put<uint16_t>(R, I.a, sem::f2i<uint16_t>(GET(f64, I.b))); NEXT();
L_f64_u32: sem::put<uint32_t>(R, I.a, sem::f2i<uint32_t>(GET(f64, I.b))); NEXT();
L_f64_u64: sem::put<uint64_t>(R, I.a, sem::f2i<uint64_t>(GET(f64, I.b))); NEXT();
L_cvt:
  R[I.a] = sem::val_to_reg(cast_const(sem::reg_to_val(R[I.b], (Prim)(I.c & 0xff)), (Prim)(I.c >> 8)));
  NEXT();
L_bitcast:
  R[I.a] = sem::val_to_reg(
      const_from_bits((Prim)(I.c >> 8), const_to_bits(sem::reg_to_val(R[I.b], (Prim)(I.c & 0xff)))));
  NEXT();

  // ---- global memory ----
L_ld_i8: R[I.a] = (uint64_t)(int64_t)load<int8_t>(R[I.b]); NEXT();
L_ld_i16: R[I.a] = (uint64_t)(int64_t)load<int16_t>(R[I.b]); NEXT();
L_ld_i32: R[I.a] = (uint64_t)(int64_t)load<int32_t>(R[I.b]); NEXT();
L_ld_i64: R[I.a] = load<uint64_t>(R[I.b]); NEXT();
L_ld_u8: R[I.a] = load<uint8_t>(R[I.b]); NEXT();
L_ld_u16: R[I.a] = load<uint16_t>(R[I.b]); NEXT();
L_ld_u32: R[I.a] = load<uint32_t>(R[I.b]); NEXT();
L_ld_u64: R[I.a] = load<uint64_t>(R[I.b]); NEXT();
L_ld_f16: PUT(f32, f16_bits_to_f32(load<uint16_t>(R[I.b]))); NEXT();
L_ld_bf16: PUT(f32, bf16_bits_to_f32(load<uint16_t>(R[I.b]))); NEXT();
L_ld_f32: R[I.a] = load<uint32_t>(R[I.b]); NEXT();
L_ld_f64: R[I.a] = load<uint64_t>(R[I.b]); NEXT();
L_st_i8:
L_st_u8: store<uint8_t>(R[I.a], (uint8_t)R[I.b]); NEXT();
L_st_i16:
L_st_u16: store<uint16_t>(R[I.a], (uint16_t)R[I.b]); NEXT();
L_st_i32:
L_st_u32:
L_st_f32: store<uint32_t>(R[I.a], (uint32_t)R[I.b]); NEXT();
L_st_i64:
L_st_u64:
L_st_f64: store<uint64_t>(R[I.a], R[I.b]); NEXT();
L_st_f16: store<uint16_t>(R[I.a], f32_to_f16_bits(GET(f32, I.b))); NEXT();
L_st_bf16: store<uint16_t>(R[I.a], f32_to_bf16_bits(GET(f32, I.b))); NEXT();
L_addr_base:
  if (I.b >= ctx.tree_bases.size() || !ctx.tree_bases[I.b])
    fail(fn, ip, "RuntimeError", "kernel accesses SNode tree " + std::to_string(I.b) + ", which has no memory");
  R[I.a] = (uint64_t)ctx.tree_bases[I.b] + K[I.c];
  NEXT();
L_addr_idx: {
  const AddrTerm& t = fn.terms[I.c];
  int64_t i = (int64_t)R[I.b] / t.div;
  if (t.mod) i %= t.mod;
  R[I.a] += (uint64_t)(i * t.stride);
  NEXT();
}
L_bound: {
  int64_t i = (int64_t)R[I.a];
  if ((uint64_t)i >= (uint64_t)fn.accesses[I.c].shape[I.b]) fail_bounds(fn, ip, i);
  NEXT();
}
L_bndx: {
  int64_t i = (int64_t)R[I.a];
  if ((uint64_t)i >= R[I.b]) fail_bounds_ext(fn, ip, i, ctx);
  NEXT();
}
L_gtemp: R[I.a] = (uint64_t)&ctx.temps[I.d()]; NEXT();
L_sptr: {
  const SparseDesc& d = fn.sparse[I.c];
  if (!ctx.program) fail(fn, ip, "RuntimeError", "sparse field access without a program");
  int64_t idx[kMaxIndices] = {};
  for (int k = 0; k < d.nidx && k < kMaxIndices; k++) idx[k] = (int64_t)R[I.b + k];
  R[I.a] = (uint64_t)ctx.program->sparse_element(d.place, idx, d.activate);
  NEXT();
}
L_snop: {
  const SNodeOpDesc& d = fn.snode_ops[I.c];
  if (!ctx.program) fail(fn, ip, "RuntimeError", "SNode operation without a program");
  int64_t idx[kMaxIndices] = {};
  for (int k = 0; k < d.nidx && k < kMaxIndices; k++) idx[k] = (int64_t)R[I.b + k];
  R[I.a] = (uint64_t)snode_op_at(fn, ip, *ctx.program, d, idx);
  NEXT();
}
L_sfidx: {
  const int64_t* table = reinterpret_cast<const int64_t*>(R[3]);
  R[I.a] = (uint64_t)table[(int64_t)R[I.b] * (I.c >> 8) + (I.c & 0xff)];
  NEXT();
}

  // ---- atomics ----
#define H_ATOM(op, sfx, S, aop, half) \
  L_##op##_##sfx: R[I.a] = sem::atomic_rmw<S, sem::AOp::aop, half>(R[I.b], R[I.c]); NEXT();
#define H_ATOM_INT(op, aop)                                                          \
  H_ATOM(op, i8, int8_t, aop, 0) H_ATOM(op, i16, int16_t, aop, 0)                    \
  H_ATOM(op, i32, int32_t, aop, 0) H_ATOM(op, i64, int64_t, aop, 0)                  \
  H_ATOM(op, u8, uint8_t, aop, 0) H_ATOM(op, u16, uint16_t, aop, 0)                  \
  H_ATOM(op, u32, uint32_t, aop, 0) H_ATOM(op, u64, uint64_t, aop, 0)
#define H_ATOM_ALL(op, aop)                                                          \
  H_ATOM_INT(op, aop)                                                                \
  H_ATOM(op, f16, uint16_t, aop, 1) H_ATOM(op, bf16, uint16_t, aop, 2)               \
  H_ATOM(op, f32, float, aop, 0) H_ATOM(op, f64, double, aop, 0)
  H_ATOM_ALL(atom_add, add)
  H_ATOM_ALL(atom_sub, sub)
  H_ATOM_ALL(atom_min, min)
  H_ATOM_ALL(atom_max, max)
  H_ATOM_INT(atom_and, and_)
  H_ATOM_INT(atom_or, or_)
  H_ATOM_INT(atom_xor, xor_)
  H_ATOM_ALL(atom_mul, mul)

  // ---- control flow ----
L_jmp: ip = code + I.d(); NEXT();
L_jz: if (R[I.a] == 0) ip = code + I.d(); NEXT();
L_jnz: if (R[I.a] != 0) ip = code + I.d(); NEXT();
L_fori_i32:
  if (!((int32_t)R[I.a] < (int32_t)R[I.a + 1])) ip = code + I.d();
  else if ((int64_t)R[I.a + 2] >= hot->load(std::memory_order_relaxed)) [[unlikely]] ip = code + hook->enter(fn, (uint32_t)(ip - code), R, ctx);
  NEXT();
L_forl_i32: {
  int32_t i = (int32_t)((uint32_t)R[I.a] + 1u);
  R[I.a] = (uint64_t)(int64_t)i;
  R[I.a + 2]++;
  if (i < (int32_t)R[I.a + 1]) {
    ip = code + I.d();
    if ((int64_t)R[I.a + 2] >= hot->load(std::memory_order_relaxed)) [[unlikely]] ip = code + hook->hot(fn, (uint32_t)I.d(), R, ctx);
  }
  if ((++polls & 1023) == 0) [[unlikely]] POLL();
  NEXT();
}
L_fori_i64:
  if (!((int64_t)R[I.a] < (int64_t)R[I.a + 1])) ip = code + I.d();
  else if ((int64_t)R[I.a + 2] >= hot->load(std::memory_order_relaxed)) [[unlikely]] ip = code + hook->enter(fn, (uint32_t)(ip - code), R, ctx);
  NEXT();
L_forl_i64: {
  int64_t i = (int64_t)(R[I.a] + 1);
  R[I.a] = (uint64_t)i;
  R[I.a + 2]++;
  if (i < (int64_t)R[I.a + 1]) {
    ip = code + I.d();
    if ((int64_t)R[I.a + 2] >= hot->load(std::memory_order_relaxed)) [[unlikely]] ip = code + hook->hot(fn, (uint32_t)I.d(), R, ctx);
  }
  if ((++polls & 1023) == 0) [[unlikely]] POLL();
  NEXT();
}
L_loop:
  R[I.a]++;
  if ((int64_t)R[I.a] >= hot->load(std::memory_order_relaxed)) [[unlikely]] ip = code + hook->hot(fn, (uint32_t)(ip - code), R, ctx);
  if ((++polls & 1023) == 0) [[unlikely]] POLL();
  NEXT();
L_end: return;
L_call: call_real_func(fn, ip, ctx, R); NEXT();

  // ---- print and assert ----
L_pr_str: line += fn.strings[I.d()]; NEXT();
L_pr_val: print_value(fn, ip, line, R[I.a], (Prim)I.b, I.c); NEXT();
L_pr_flush:
  // Computed goto leaves a scope without running destructors, so no RAII
  // object may be alive at a NEXT(): the lock is released in its own block.
  {
    std::lock_guard<std::mutex> lock(ctx.print_mu);
    ctx.print_buffer += line;
  }
  line.clear();
  NEXT();
L_assert_:
  if (R[I.a] == 0) fail(fn, ip, "AssertionError", assert_message(fn.asserts[I.d()], R));
  NEXT();
L_rng_init:
  rng_init(R + I.a, rng_task_key(ctx.rng_key, fn.task_no));
  NEXT();
L_rand:
  R[I.a] = rng_to_reg(rng_next(R + fn.rng_reg, R[I.b]), (Prim)I.c);
  NEXT();

  // ---- autodiff tapes past the registers: [capacity, count, values...]
L_stk_init: {
  uint64_t* st = R + fn.frame_regs() + fn.stacks[(size_t)I.d()].offset;
  st[0] = fn.stacks[(size_t)I.d()].capacity;
  st[1] = 0;
  R[I.a] = (uint64_t)(uintptr_t)st;
  NEXT();
}
L_stk_push: {
  uint64_t* st = reinterpret_cast<uint64_t*>(R[I.a]);
  if (st[1] >= st[0]) fail(fn, ip, "RuntimeError", stack_overflow_message(st[0]));
  st[kStackHeader + st[1]++] = R[I.b];
  NEXT();
}
L_stk_pop: {
  uint64_t* st = reinterpret_cast<uint64_t*>(R[I.a]);
  if (st[1] == 0) fail(fn, ip, "InternalError", "autodiff stack popped while empty");
  st[1]--;
  NEXT();
}
L_stk_top: {
  const uint64_t* st = reinterpret_cast<const uint64_t*>(R[I.b]);
  if (st[1] == 0) fail(fn, ip, "InternalError", "autodiff stack read while empty");
  R[I.a] = st[kStackHeader + st[1] - 1];
  NEXT();
}

debug_at:
  dbg->at(fn, (uint32_t)(ip - code) - 1, R, ctx);
  goto* kLabels[(int)I.op];
interrupted:
  fail(fn, ip, "KeyboardInterrupt", "interrupted (Ctrl-C)");
zero_div:
  fail(fn, ip, "ZeroDivisionError", "integer division by zero");
zero_pow:
  fail(fn, ip, "ZeroDivisionError", "0 cannot be raised to a negative power");
}

}  // namespace

}  // namespace kiln::interp
