// The backend's code generator state, shared by its files (backend.h is the
// interface): asm_values.cpp moves values between their homes (a
// general-purpose register, an xmm register, a stack slot, a constant),
// asm_ops.cpp emits the typed operations, backend.cpp the trace's shape
// (entry, loop, back edge, exits).
//
// Fixed registers: rbx = the frame R, r12 = the TraceEnv. Scratch within one
// instruction: rax, rcx, rdx, xmm0, xmm1; rdi and rsi only as a call's
// arguments (Gen::call) and in a vector loop's code, elsewhere they hold
// values (regalloc.h).
#pragma once
#include <asmjit/x86.h>

#include <functional>
#include <map>
#include <vector>

#include "jit/regalloc.h"
#include "jit/trace.h"

namespace kiln::jit {

struct ExitInfo;  // recorder.h

// asmjit's assembler, refusing an instruction that has no EVEX form of the
// same meaning when an operand is a vector register 16-31 (asm_check.cpp):
// the trace fails to compile instead of running mis-encoded code.
struct CheckedAssembler : asmjit::x86::Assembler {
  using asmjit::x86::Assembler::Assembler;
  asmjit::Error _emit(asmjit::InstId id, const asmjit::Operand_& o0, const asmjit::Operand_& o1,
                      const asmjit::Operand_& o2, const asmjit::Operand_* ext) override;
};
// Why instruction `id` with operands ops[0..n) would be mis-encoded, or null.
const char* evex_refusal(asmjit::InstId id, const asmjit::Operand_* ops, int n);

struct Gen {
  const Trace& t;
  asmjit::x86::Assembler& a;
  Allocation al;
  int32_t xsave = 0;                  // rsp offset of the area that keeps xmm values across calls
  int32_t gsave = 0;                  // and of the one that keeps rsi, rdi and r8-r11's (kNumGp slots)
  std::vector<asmjit::Label> exits;   // per snapshot
  RefFlags fused;                     // compares emitted as their guard's flags (sink.h)
  RefFlags sunk;                      // values computed only at exits (sink.h)
  RefFlags negfold;                   // float negs their fmas fold (sink.h)
  RefFlags addrfold;                  // address adds their loads and stores fold (sink.h)
  RefFlags blsrfold;                  // x - 1 that x & (x - 1) folds as blsr (sink.h)
  RefFlags scalefold;                 // x * 2/4/8 that adds fold as lea's index (sink.h)
  RefFlags low32;                     // i32 results only read as their low half (asm_int.cpp)
  RefFlags nowrap;                    // i32 `x + 1`s that cannot wrap: 64-bit adds (asm_int.cpp)
  RefFlags nonneg;                    // integer values >= 0: floor `%`/`//` without the sign fix (asm_int.cpp)
  // The fused compare whose mask xmm1 holds after the instruction emitted
  // last (a float select's), and after this one: a second select under the
  // same condition right after the first blends under that mask (a bounce's
  // p and v) instead of comparing again. The body's loop resets it.
  Ref mask_before = kNoRef, mask_after = kNoRef;
  RefFlags remat;                     // sunk or fused: recomputed by the exits that need them
  SnapshotNeeds needs;                // per snapshot: what its exit computes or reads (sink.h)
  Ref at = 0;                         // the instruction being emitted
  std::vector<std::pair<uint64_t, asmjit::Label>> pool;  // float constants, after the code
  // Rare paths of an op (a negative dividend's divide), emitted after the
  // loop: each binds its label, runs, and jumps back.
  std::vector<std::function<void()>> cold;

  // Float constants a scalar loop reads, kept in xmm registers the
  // allocator left free (plan_kregs, loaded before the loop's head): read
  // from the pool each iteration they were loads beside the loop's own, and
  // sparse_particles' step ran 1.7x slower than with them in registers
  // (five such loads a cell; the same loop in C++ with and without them).
  std::vector<std::pair<uint64_t, asmjit::x86::Xmm>> kregs;
  bool kreg_on = false;  // the loop's own code: operands read kregs
  // The register holding `bits` while the loop's code is emitted, else null.
  const asmjit::x86::Xmm* kreg(uint64_t bits) const {
    if (kreg_on)
      for (auto& [b, x] : kregs)
        if (b == bits) return &x;
    return nullptr;
  }
  const asmjit::x86::Xmm* kreg_of(Ref r) const { return t.is_const(r) ? kreg((uint64_t)t.ins[r].k) : nullptr; }
  void plan_kregs();  // asm_kregs.cpp
  void load_kregs();

  // A float constant's bits in the pool (RIP-relative, read by movss/addss...).
  asmjit::x86::Mem kmem(Ref r, bc::CT ct) { return kbits((uint64_t)t.ins[r].k, ct); }
  // The pool entry of `bits`, read as ct (16 bytes for other types: vector
  // forms such as vxorps read a whole register; the pool ends with padding).
  asmjit::x86::Mem kbits(uint64_t bits, bc::CT ct) {
    asmjit::Label l;
    for (auto& [b, lab] : pool)
      if (b == bits) l = lab;
    if (!l.isValid()) {
      l = a.newLabel();
      pool.push_back({bits, l});
    }
    return ct == bc::CT::f32 ? asmjit::x86::dword_ptr(l)
           : ct == bc::CT::f64 ? asmjit::x86::qword_ptr(l)
                               : asmjit::x86::xmmword_ptr(l);
  }

  // Where values live.
  asmjit::x86::Mem slot(Ref r) const { return asmjit::x86::qword_ptr(asmjit::x86::rsp, 8 * r); }
  bool is_fp(Ref r) const { return r >= 0 && r < (Ref)al.fw.size() && al.fw[r] != 0; }
  bool in_gp(Ref r) const { return r >= 0 && r < (Ref)al.reg.size() && al.reg[r] >= 0 && !is_fp(r); }
  bool in_xmm(Ref r) const { return r >= 0 && r < (Ref)al.reg.size() && al.reg[r] >= 0 && is_fp(r); }
  asmjit::x86::Gp home(Ref r) const { return asmjit::x86::Gpq(kAllocatable[al.reg[r]]); }
  asmjit::x86::Xmm xhome(Ref r) const { return asmjit::x86::xmm(kFirstXmm + al.reg[r]); }
  bool same_home(Ref x, Ref y) const {
    return x == y || (al.reg[x] >= 0 && al.reg[y] >= 0 && is_fp(x) == is_fp(y) && al.reg[x] == al.reg[y]);
  }

  // Scalar float moves: VEX forms where the host has AVX (EVEX where one
  // register is xmm16-31, which legacy SSE cannot name), else SSE.
  bool vex = false;
  // Some float lives in xmm16-31 (regalloc.h): a float select blends under
  // k7 (EVEX vcmpss writes a mask register, and vblendvps has no EVEX form).
  bool evex = false;
  // A float select blends under k7 (vcmpss into k7, vblendmps: one uop)
  // instead of xmm1 (vblendvps: 2-3 uops on Intel's cores): where evex, or
  // where the trace may use AVX-512 at all (Trace::allow_zmm).
  bool kmask = false;
  int nxmm = kNumXmmVex;  // the xmm registers values may take (regalloc.h)
  void xmov(const asmjit::x86::Xmm& d, const asmjit::x86::Xmm& s);
  void xload(const asmjit::x86::Xmm& d, const asmjit::x86::Mem& m, bc::CT ct);   // movss/movsd
  void xstore(const asmjit::x86::Mem& m, const asmjit::x86::Xmm& s, bc::CT ct);
  void gp_to_x(const asmjit::x86::Xmm& d, const asmjit::x86::Gp& g, bc::CT ct);  // movd/movq
  void x_to_gp(const asmjit::x86::Gp& g, const asmjit::x86::Xmm& s, bc::CT ct);

  // asm_values.cpp
  void ld(const asmjit::x86::Gp& reg, Ref r);                   // any value -> a 64-bit register
  // r read where it lives: its register, else `scratch` loaded with it.
  asmjit::x86::Gp gp_of(Ref r, const asmjit::x86::Gp& scratch) {
    if (in_gp(r)) return home(r);
    ld(scratch, r);
    return scratch;
  }
  void ldx(const asmjit::x86::Xmm& x, Ref r, bc::CT ct);        // any value -> an xmm register
  // f(operand): float b as a scalar instruction's source where it lives (its
  // register, a constant's, the pool, its stack slot), else loaded into `scratch`.
  template <class F> void with_xsrc(Ref b, bc::CT ct, const asmjit::x86::Xmm& scratch, F&& f) {
    if (in_xmm(b)) f(xhome(b));
    else if (const asmjit::x86::Xmm* k = kreg_of(b)) f(*k);
    else if (t.is_const(b)) f(kmem(b, ct));
    else if (!in_gp(b)) f(ct == bc::CT::f32 ? asmjit::x86::dword_ptr(asmjit::x86::rsp, 8 * b) : slot(b));
    else {
      ldx(scratch, b, ct);
      f(scratch);
    }
  }
  void put(Ref i, const asmjit::x86::Gp& src);                 // a register representation -> i's home
  void stx(Ref i, const asmjit::x86::Xmm& x, bc::CT ct);        // a float in x -> i's home
  void st(Ref i) { put(i, asmjit::x86::rax); }
  void move(Ref dst, Ref src);                                  // src's value -> dst's home
  void spill_to(const asmjit::x86::Mem& m, Ref r);              // r's register representation -> memory
  void flush(const Snapshot& s);                                // the snapshot's registers -> the frame
  // Runs of 8-byte copies as vector moves (asm_values.cpp; AVX hosts):
  // n qwords from [sb + sd] to [db + dd] (`low32`: each written with its
  // upper half zero, as ld reads an f32 slot), or n copies of `bits`.
  // False where the host has no AVX (nothing emitted). A ymm or zmm move
  // leaves upper_dirty set until clean_upper's vzeroupper.
  bool copy_qwords(const asmjit::x86::Gp& db, int32_t dd, const asmjit::x86::Gp& sb, int32_t sd, int n, bool low32);
  bool fill_qwords(const asmjit::x86::Gp& db, int32_t dd, uint64_t bits, int n);
  bool upper_dirty = false;
  void clean_upper() {
    if (upper_dirty) a.vzeroupper();
    upper_dirty = false;
  }
  // Whether r is read from its stack slot (no register, not a constant).
  bool in_slot(Ref r) const { return !t.is_const(r) && !in_gp(r) && !in_xmm(r); }
  void recompute_for(const Snapshot& s);                        // its sunk and fused values, into their slots
  // rax = fn(rdi, rsi, rdx), `args` loading them once the caller-saved
  // registers are saved (rsi and rdi may be values' homes: regalloc.h).
  void call(const void* fn, const std::function<void()>& args);
  void arg_pair(Ref x, Ref y);                                  // rdi = x, rsi = y (0 where y is kNoRef)
  void call_eval(const Ins& in, Ref i);
  void fix32(bc::CT ct);
  void cmp_values(Ref av, Ref b);
  asmjit::x86::Gp address(Ref r);
  asmjit::x86::Mem memory_at(Ref r, uint32_t size);  // [address r], a folded add as base + displacement

  // asm_ops.cpp
  bool int_binop(const Ins& in, Ref i);
  bool const_shift(const Ins& in, Ref i);
  bool divide(const Ins& in, Ref i);
  bool const_divide(const Ins& in, Ref i);
  bool floor_divide32(const Ins& in, Ref i);
  bool const_divide64(const Ins& in, Ref i);
  void remainder(int64_t d);
  bool divide_general(const Ins& in, Ref i);
  bool float_binop(const Ins& in, Ref i);
  bool float_unary(const Ins& in, Ref i);
  bool float_maxmin(const Ins& in, Ref i);  // asm_float.cpp
  bool float_libm(const Ins& in, Ref i);    // asm_float.cpp
  void int_maxmin(const Ins& in, Ref i);
  bool float_round(const Ins& in, Ref i);
  void compare(const Ins& in, Ref i);
  bool conv(const Ins& in, Ref i);
  void float_to_int(const Ins& in, Ref i);
  void load(const Ins& in, Ref i);
  void store(const Ins& in);
  void atomic(const Ins& in, Ref i);
  void select(const Ins& in, Ref i);
  void float_select(const Ins& in, Ref i);
  void fma(const Ins& in, Ref i);
  void recompute(Ref i);
  void guard(const Ins& in);
  void fused_guard(const Ins& g, const Ins& c);
  // Where guard() jumps when its guard holds, then to the exit when not (a
  // rotated loop's back edge: backend.cpp); unset, it jumps to the exit only.
  asmjit::Label stay_to;
  void leave_if(asmjit::x86::CondCode fail, asmjit::Label exit) {
    if (!stay_to.isValid()) return (void)a.j(fail, exit);
    a.j(asmjit::x86::negateCond(fail), stay_to);
    a.jmp(exit);
  }

  // asm_vector.cpp: the vector loop of a plan (vector.h), using the frame
  // bytes [area, area_end); false (and nothing emitted) when it does not fit.
  bool vector_loop(const struct VecPlan& p, int32_t area, int32_t area_end);
  asmjit::Label vec_entry;      // the vector loop's start
  int32_t vec_next_row = -1;    // rows: the rsp offset of the counter where the next row starts
  bool vec_guards = false;      // the vector loop tests guards: the scalar loop re-enters it at TraceEnv::lanes_after
  int vec_width = 0;            // counters a pass: 8 (ymm), 16 (zmm: asm_wide.cpp) or 4 (f64)
  // Where an exit goes once its snapshot is in the frame (backend.cpp's exit
  // stubs; a vector loop that leaves through the loop test itself jumps the
  // same way: VectorLoop::lane_exit): the ExitInfos (null: return the pc),
  // the shared tail that records an exit without a side trace, the epilogue.
  ExitInfo* infos = nullptr;
  asmjit::Label exit_tail, epilogue;

  // asm_combine.cpp: a split sum's 16 partials added pairwise in lanes.
  std::vector<int32_t> combined;  // per ref: -1 a combine's leaf or inner add (not emitted), > 0 its last add
  void plan_combines();
  void combine(Ref r);
};

// asm_interleave.cpp: the 32-bit components of 8 consecutive n-component
// elements at `at` (n = 2, 3, 4) into out[0..n-1], lane k = element k.
void deinterleave_load(asmjit::x86::Assembler& a, int n, const asmjit::x86::Mem& at, const asmjit::x86::Ymm* out,
                       const asmjit::x86::Ymm& scratch);
// asm_interleave.cpp: the inverse (VecPlan::interleaved_stores): in[0..n-1]
// as 8 consecutive n-component elements at `at`, through tmp[0..n].
void interleave_store(asmjit::x86::Assembler& a, int n, const asmjit::x86::Mem& at, const asmjit::x86::Ymm* in,
                      const asmjit::x86::Ymm* tmp);

// asm_wide.cpp: 16-lane (zmm) vector loops on AVX-512 hosts (backend.h: host_has_avx512).
// Whether plan p runs 16 lanes at a time (t.allow_zmm, and a body that
// divides or takes square roots, without rows, gathers, compares or selects).
bool wide_lanes(const Trace& t, const struct VecPlan& p);
// The 32-bit components of 16 consecutive n-component elements at `at`
// (n = 2, 3, 4) into the zmm registers of out[0..n-1], lane k = element k
// (zmm27-31 and rsi are its scratch; n = 3 reads zmm24-26 and k5-k7, which
// wide_vec3_setup fills once before the loop).
// `masked`: raw vector j loads only the floats mask register k(2 + j) selects.
void wide_interleaved_load(asmjit::x86::Assembler& a, int n, const asmjit::x86::Mem& at, const asmjit::x86::Ymm* out,
                           bool masked = false);
void wide_vec3_setup(asmjit::x86::Assembler& a, bool masks_only = false);
// The inverse (VecPlan::interleaved_stores): in[0..n-1]'s zmm registers as 16
// consecutive n-component elements at `at` (zmm27-28 and rsi its scratch);
// `masked`: raw vector j stores only the floats k(2 + j) selects.
void wide_interleaved_store(asmjit::x86::Assembler& a, int n, const asmjit::x86::Mem& at, const asmjit::x86::Ymm* in,
                            bool masked = false);

// asm_int.cpp: the i32 results whose readers use only their low half (Gen::low32).
RefFlags low_half_only(const Trace& t, const RefFlags& sunk, const RefFlags& fused, bool lanes);
// asm_int.cpp: the i32 `x + 1`s that a guard `x < E` keeps from wrapping (Gen::nowrap).
RefFlags adds_without_wrap(const Trace& t, bool lanes);
// asm_int.cpp: the integer values known >= 0 (Gen::nonneg).
RefFlags non_negative(const Trace& t, const RefFlags& nowrap);

inline bool is_float(bc::CT t) { return t == bc::CT::f32 || t == bc::CT::f64; }
inline bool is_signed(bc::CT t) { return t == bc::CT::i32 || t == bc::CT::i64; }

}  // namespace kiln::jit
