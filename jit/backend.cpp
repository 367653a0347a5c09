// Trace IR -> x86-64 (backend.h): the trace's shape. The prologue saves the
// callee-saved registers and reserves one stack slot per IR value; the body
// emits each live instruction (asm_ops.cpp); the back edge moves the phis
// and jumps to `loop`; each snapshot gets an exit stub that writes its
// registers into the frame and returns the pc to resume at.
#include "jit/backend.h"

#include <asmjit/x86.h>

#include <algorithm>
#include <cstddef>
#include <optional>

#include "jit/asm.h"
#include "jit/rtcall.h"
#include "jit/scratch.h"
#include "jit/sink.h"
#include "jit/vector.h"
#include "jit/while_lanes.h"

namespace kiln::jit {

static_assert(sizeof(std::atomic<bool>) == 1, "the back edge tests the interrupt flag as one byte");

using namespace asmjit;
using bc::CT;

namespace {

struct ThrowOnError : ErrorHandler {
  std::string msg;
  void handleError(asmjit::Error, const char* m, BaseEmitter*) override {
    if (msg.empty()) msg = m;
  }
};

// The phis as one parallel move: a move runs once no pending move still
// reads its destination (the first such, in the phis' order); a cycle is
// broken through a spare slot. Homes are numbered so that two values share
// one exactly when Gen::same_home says so, and each home counts the pending
// moves that read it: a step is one scan (nbody's trace carries ~100 values
// round its loop, and searching the moves for each was most of its body).
void back_edge(Gen& g, ScratchVec<std::pair<Ref, Ref>> moves, Ref spare) {
  constexpr int kRegHomes = 64;  // (2 * a register number + is_fp) below this
  auto home = [&](Ref r) { return g.al.reg[r] >= 0 ? 2 * g.al.reg[r] + (g.is_fp(r) ? 1 : 0) : kRegHomes + r; };
  ScratchVec<int> readers(kRegHomes + spare + 1, 0);
  for (auto& m : moves) readers[home(m.second)]++;
  ScratchVec<char> done(moves.size(), 0);
  size_t first = 0;  // the first pending move
  while (first < moves.size()) {
    size_t j = first;
    for (; j < moves.size(); j++) {
      if (done[j]) continue;
      int dst = home(moves[j].first);
      if (readers[dst] - (home(moves[j].second) == dst ? 1 : 0) == 0) break;
    }
    if (j < moves.size()) {
      g.move(moves[j].first, moves[j].second);
      readers[home(moves[j].second)]--;
      done[j] = 1;
      while (first < moves.size() && done[first]) first++;
      continue;
    }
    // Every destination is still read: park one source in the spare slot.
    Ref parked = moves[first].second;
    int h = home(parked);
    g.spill_to(g.slot(spare), parked);
    for (size_t k = 0; k < moves.size(); k++)
      if (!done[k] && home(moves[k].second) == h) {
        moves[k].second = spare;
        readers[h]--;
        readers[home(spare)]++;
      }
  }
}

// For each exit, the exit whose flush it can finish with (-1: none): one
// whose snapshot's entries are a subset of its own (the largest such; of
// two equal snapshots, the first), where its own other entries are plain
// stores (no value recomputed at the exit), and both resume at a fixed pc.
ScratchVec<int> shared_flushes(const Gen& g, const Trace& t) {
  const size_t n = t.snaps.size();
  ScratchVec<int> base(n, -1);
  auto plain = [&](Ref r) { return r >= (Ref)g.remat.size() || !g.remat[r]; };
  for (size_t s = 0; s < n; s++) {
    const Snapshot& S = t.snaps[s];
    if (S.pc_ref >= 0 || S.regs.size() < 2 || !std::is_sorted(S.regs.begin(), S.regs.end())) continue;
    size_t best = 0;
    for (size_t b = 0; b < n; b++) {
      const Snapshot& B = t.snaps[b];
      // (a flush of fewer than 6 stores costs about what sharing adds)
      if (b == s || B.pc_ref >= 0 || B.regs.size() > S.regs.size() || B.regs.size() <= best || B.regs.size() < 6) continue;
      if (B.regs.size() == S.regs.size() && b > s) continue;
      if (!std::is_sorted(B.regs.begin(), B.regs.end())) continue;
      // One merge of the two sorted lists: B's entries all in S, and S's
      // others plain.
      bool subset = true, extras_plain = true;
      size_t j = 0;
      for (auto& e : S.regs) {
        if (j < B.regs.size() && B.regs[j] < e) {
          subset = false;
          break;
        }
        if (j < B.regs.size() && B.regs[j] == e) j++;
        else extras_plain &= plain(e.second);
      }
      if (!subset || j < B.regs.size() || !extras_plain) continue;
      base[s] = (int)b;
      best = B.regs.size();
    }
  }
  // A base is flushed in full: an exit whose base has a base of its own
  // shares that one's flush (a subset of a subset, the stores between them
  // plain as well).
  for (size_t s = 0; s < n; s++)
    while (base[s] >= 0 && base[base[s]] >= 0) base[s] = base[base[s]];
  return base;
}

// Whether the loop ends within 64 iterations of any entry: a 64-bit x it
// carries as x & (x - 1) (one set bit fewer each time round) and tests
// `x != 0` with a guard each iteration (a word row's walk of its active
// cells). Such a loop needs no Ctrl-C poll of its own: what runs it polls
// between runs (a linked side trace before re-entering the root, or the
// interpreter).
bool ends_within_64(const Trace& t) {
  if (t.loop_ref < 0) return false;
  for (Ref p = t.loop_ref + 1; p < (Ref)t.ins.size(); p++) {
    const Ins& ph = t.ins[p];
    if (!ph.live || ph.op != IrOp::phi || ph.b < 0 || lowest_bit_cleared(t, t.ins[ph.b]) != ph.a) continue;
    for (Ref g = t.loop_ref + 1; g < (Ref)t.ins.size(); g++)
      if (t.ins[g].live && t.ins[g].op == IrOp::guard_nz && t.ins[g].a == ph.a) return true;
  }
  return false;
}

// The frame loads from i on that copy consecutive registers into their
// consecutive slots: nbody's inner trace read a split sum's 14 partials in
// slots from the frame with two instructions each, every outer i.
Ref frame_run(const Gen& g, Ref i) {
  const Trace& t = g.t;
  Ref n = 1;
  for (; i + n < (Ref)t.ins.size(); n++) {
    const Ins& x = t.ins[i + n];
    bool frame = x.op == IrOp::sload || x.op == IrOp::rload;
    if (!x.live || g.sunk[i + n] || !frame || x.k != t.ins[i].k + n || !g.in_slot(i + n)) break;
  }
  return n;
}

std::string body(Gen& g, Label epilogue, Label tail_jump, Label exit_tail, Ref spare, ExitInfo* infos,
                 const VecPlan& vp, const WhilePlan& wp, std::string& lanes) {
  const Trace& t = g.t;
  x86::Assembler& a = g.a;
  Label top;
  // A loop whose head's code is one guard (a word row's `bits != 0`) tests
  // it again at the back edge, jumping past the head while it holds: one
  // taken branch an iteration where `jmp top` and the head's test were two.
  // The back edge's moves leave the head's state, so the test there is the
  // head's, with its exit.
  size_t top_at = 0;
  Ref head_guard = kNoRef;
  Label past_head;
  bool linked = false;
  ScratchVec<std::pair<Ref, Ref>> phis;
  g.plan_combines();
  for (Ref i = 0; i < (Ref)t.ins.size(); i++) {
    const Ins& in = t.ins[i];
    if (!in.live || g.sunk[i]) continue;
    const int32_t comb = i < (Ref)g.combined.size() ? g.combined[i] : 0;
    if (comb < 0) continue;  // (a combine's leaf or inner add: its last add emits it)
    if (in.op != IrOp::sload && in.op != IrOp::rload) g.clean_upper();
    g.at = i;
    g.mask_before = g.mask_after;
    g.mask_after = kNoRef;
    if (comb > 0) {
      g.combine(i);
      continue;
    }
    bool fl = is_float(in.t);
    switch (in.op) {
      case IrOp::kval: break;
      case IrOp::sload: case IrOp::rload:
        if (g.in_xmm(i)) g.xload(g.xhome(i), x86::qword_ptr(x86::rbx, 8 * (int32_t)in.k), CT::f64);
        else if (g.in_gp(i)) a.mov(g.home(i), x86::qword_ptr(x86::rbx, 8 * (int32_t)in.k));
        else if (Ref n = frame_run(g, i); n >= 3 && g.copy_qwords(x86::rsp, 8 * i, x86::rbx, 8 * (int32_t)in.k, (int)n, false)) {
          i += n - 1;  // (the run's loads: one copy; the next op not a frame load cleans the upper halves)
        } else {
          a.mov(x86::rax, x86::qword_ptr(x86::rbx, 8 * (int32_t)in.k));
          g.st(i);
        }
        break;
      case IrOp::calltr:  // the frame as the inner trace must find it, then its run
        g.recompute_for(t.snaps[in.snap]);
        g.flush(t.snaps[in.snap]);
        // counted, so that its exits into this loop return here (ExitInfo::outer_head)
        a.add(x86::dword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, calls)), 1);
        g.call((const void*)(uintptr_t)in.k, [&] {
          a.mov(x86::rdi, x86::rbx);
          a.mov(x86::rsi, x86::r12);
        });
        a.sub(x86::dword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, calls)), 1);
        a.mov(x86::eax, x86::eax);  // a u32 return leaves the upper half undefined
        g.st(i);
        break;
      case IrOp::arg:
      case IrOp::base: {
        int32_t off = in.op == IrOp::arg ? offsetof(TraceEnv, args) : offsetof(TraceEnv, tree_bases);
        a.mov(x86::rax, x86::qword_ptr(x86::r12, off));
        if (g.in_gp(i)) {  // straight into its register
          a.mov(g.home(i), x86::qword_ptr(x86::rax, 8 * (int32_t)in.k));
          break;
        }
        a.mov(x86::rax, x86::qword_ptr(x86::rax, 8 * (int32_t)in.k));
        g.st(i);
        break;
      }
      case IrOp::gtemp:
        a.mov(x86::rax, x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, temps)));
        a.add(x86::rax, Imm(8 * in.k));
        g.st(i);
        break;
      case IrOp::faddr:
        a.lea(x86::rax, x86::qword_ptr(x86::rbx, 8 * (int32_t)in.k));
        g.st(i);
        break;
      case IrOp::copy: g.move(i, in.a); break;
      case IrOp::add: case IrOp::sub: case IrOp::mul: case IrOp::band: case IrOp::bor: case IrOp::bxor:
      case IrOp::shl: case IrOp::shr: case IrOp::sar:
        if (fl ? !g.float_binop(in, i) : !g.int_binop(in, i)) g.call_eval(in, i);
        break;
      case IrOp::div:
        if (fl ? !g.float_binop(in, i) : !g.divide(in, i)) g.call_eval(in, i);
        break;
      case IrOp::max: case IrOp::min:
        if (!fl) g.int_maxmin(in, i);
        else if (!g.float_binop(in, i)) g.call_eval(in, i);
        break;
      case IrOp::floordiv:
        if (fl ? !g.float_round(in, i) : !g.divide(in, i)) g.call_eval(in, i);
        break;
      case IrOp::mod: case IrOp::raw_mod:
        if (fl || !g.divide(in, i)) g.call_eval(in, i);
        break;
      case IrOp::floor: case IrOp::ceil:
        if (!fl || !g.float_round(in, i)) g.call_eval(in, i);
        break;
      case IrOp::lt: case IrOp::le: case IrOp::eq: case IrOp::ne:
        if (!g.fused[i]) g.compare(in, i);
        break;
      case IrOp::neg:
        if (fl) {
          g.float_unary(in, i);
          break;
        }
        g.ld(x86::rax, in.a);
        if (in.t == CT::i64 || in.t == CT::u64) a.neg(x86::rax);
        else {
          a.neg(x86::eax);
          g.fix32(in.t);
        }
        g.st(i);
        break;
      case IrOp::lnot:  // (an integer's; a float's is a call)
        if (fl) {
          g.call_eval(in, i);
          break;
        }
        g.ld(x86::rax, in.a);
        in.t == CT::i64 || in.t == CT::u64 ? a.test(x86::rax, x86::rax) : a.test(x86::eax, x86::eax);
        a.sete(x86::al);
        a.movzx(x86::eax, x86::al);
        g.st(i);
        break;
      case IrOp::tzcnt: {  // (BMI1, as every AVX2 host has; the word rows' loop never asks of 0)
        x86::Gp D = g.in_gp(i) ? g.home(i) : x86::Gp(x86::rax);
        a.tzcnt(D, g.gp_of(in.a, D));
        if (D.id() == x86::Gp::kIdAx) g.st(i);
        break;
      }
      case IrOp::abs: case IrOp::sqrt:
        if (!fl || !g.float_unary(in, i)) g.call_eval(in, i);
        break;
      case IrOp::conv: if (!g.conv(in, i)) g.call_eval(in, i); break;
      case IrOp::sel: g.select(in, i); break;
      case IrOp::fma: g.fma(in, i); break;
      case IrOp::load: g.load(in, i); break;
      case IrOp::store: g.store(in); break;
      case IrOp::atomic: g.atomic(in, i); break;
      case IrOp::rtcall:
        g.call((const void*)&rt_call, [&] {
          g.arg_pair(in.a, in.b);
          a.mov(x86::rdx, Imm(in.k));
        });
        g.st(i);
        break;
      case IrOp::guard_nz: case IrOp::guard_z: case IrOp::guard_ult: {
        const bool head = t.rotate && top.isValid() && !past_head.isValid() && a.offset() == top_at;
        g.guard(in);
        if (head) {
          head_guard = i;
          past_head = a.newLabel();
          a.bind(past_head);
        }
        break;
      }
      case IrOp::loop: {
        // Entered once per run of the trace: the vector loop takes all but
        // the last iterations, the scalar loop below the rest.
        bool lanes_run = false;
        if (vp.ok) {
          int32_t area = g.gsave + 8 * kNumGp;
          lanes_run = g.vector_loop(vp, area, kFrameBytes);
          lanes = !lanes_run                              ? "scalar: too many registers or temporaries"
                  : vp.f64                               ? "4 f64 lanes"
                  : g.vec_width == 16                    ? "16 lanes (zmm)"
                                                         : "8 lanes";
        }
        if (!vp.ok && wp.ok) {  // the copies of a jammed while loop in lanes (while_lanes.h), then the scalar loop
          lanes = while_lanes(g, wp, g.gsave + 8 * kNumGp, kFrameBytes) ? std::to_string(wp.K) + " copies in lanes"
                                                                        : "scalar: too many registers for the copies' lanes";
        }
        if (!lanes_run) {  // (a vector loop uses the registers plan_kregs would take)
          g.plan_kregs();
          g.load_kregs();
          g.kreg_on = true;
        }
        top = a.newLabel();
        a.bind(top);
        top_at = a.offset();
        break;
      }
      case IrOp::link: {  // a side trace's end: the root trace's head state, then the root
        if (in.k == 0 && infos) {
          // It ended where the loop exits: that is an exit like any other
          // (its stub flushes), which may grow a side trace into the
          // enclosing loop (ExitInfo::outer_head).
          linked = true;
          a.jmp(g.exits[in.snap]);
          break;
        }
        g.recompute_for(t.snaps[in.snap]);
        g.flush(t.snaps[in.snap]);
        linked = true;
        if (in.k == 0) {  // no root to go on in: it ended where the loop exits
          a.mov(x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, exit)), 0);
          a.mov(x86::eax, Imm(t.snaps[in.snap].pc));
          a.jmp(epilogue);
          break;
        }
        // (the root's code is in reach of a rel32: one allocator)
        a.mov(x86::rax, x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, stop)));
        a.cmp(x86::byte_ptr(x86::rax), 0);
        a.je(Imm((uint64_t)in.k));
        a.mov(x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, exit)), 0);  // Ctrl-C: no side trace here
        a.mov(x86::eax, Imm(t.snaps[in.snap].pc));
        a.jmp(epilogue);
        break;
      }
      case IrOp::phi: phis.push_back({in.a, in.b}); break;
      default:
        if (kIrOps[(int)in.op].flags & P) {
          if (!fl || !g.float_libm(in, i)) g.call_eval(in, i);
        }
        else return std::string("no code for ") + kIrOps[(int)in.op].name;
    }
  }
  g.clean_upper();
  if (!top.isValid() && !linked) return "trace has no loop";
  if (top.isValid()) {
    g.at = (Ref)t.ins.size();
    back_edge(g, phis, spare);
    bool closed = false;
    if (t.loop_snap >= 0 && !ends_within_64(t)) {  // Ctrl-C: leave at the loop head, the interpreter raises
      a.mov(x86::rax, x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, stop)));
      a.cmp(x86::byte_ptr(x86::rax), 0);
      if (g.vec_next_row < 0 && !g.vec_guards) {  // one taken branch per iteration, not a test and a jump
        a.je(top);
        a.jmp(g.exits[t.loop_snap]);
        closed = true;
      } else {
        a.jne(g.exits[t.loop_snap]);
      }
    }
    if (g.vec_next_row >= 0) {  // a new ndrange row: it runs in lanes again
      // (>=, not ==: a vector run that ended exactly at a row's end left the
      // counter at the next row's start, which the scalar loop then takes)
      g.ld(x86::rax, vp.iv);
      a.cmp(x86::rax, x86::qword_ptr(x86::rsp, g.vec_next_row));
      a.jge(g.vec_entry);
    }
    if (g.vec_guards) {  // the end of a guard's back-off: lanes again (asm_vector.cpp)
      g.ld(x86::rax, vp.iv);
      a.cmp(x86::rax, x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, lanes_after)));
      a.je(g.vec_entry);
    }
    if (!closed && head_guard != kNoRef) {
      g.at = head_guard;
      g.mask_before = g.mask_after = kNoRef;
      g.stay_to = past_head;
      g.guard(t.ins[head_guard]);
      g.stay_to = Label();
      g.at = (Ref)t.ins.size();
    } else if (!closed) {
      a.jmp(top);
    }
  }
  g.kreg_on = false;  // (cold paths and exits read the pool: some run before the loop's head)
  for (size_t c = 0; c < g.cold.size(); c++) g.cold[c]();  // (out of the loop's code)
  // Side exits: the snapshot into the frame; then the side trace linked to
  // this exit, if any, else back to the interpreter at the resume pc. With
  // ExitInfos, an exit jumps through its ExitInfo::jump (rax = the
  // ExitInfo): to the side trace once one is linked, else to one tail the
  // exits share, which returns the pc. Three instructions an exit, where
  // assembling is most of a trace's compile time, and one jump from the
  // guard to its side trace on the path that runs.
  bool tail_used = false;
  const x86::Mem through = x86::qword_ptr(x86::rax, (int32_t)offsetof(ExitInfo, jump));
  // Exits share flushes: one whose snapshot holds another's entries and
  // more, none of them recomputed, stores the others and jumps into that
  // exit's flush (its ExitInfo kept in a frame slot meanwhile). A trace's
  // guards mostly write the same registers (a split sum's 8-24 partials at
  // every exit): its exits' flushes were a third of the code assembled.
  ScratchVec<int> base = infos ? shared_flushes(g, t) : ScratchVec<int>(t.snaps.size(), -1);
  ScratchVec<Label> flush_at(t.snaps.size());
  ScratchVec<bool> is_base(t.snaps.size(), false);
  for (int b : base)
    if (b >= 0) is_base[b] = true;
  const x86::Mem info_slot = x86::qword_ptr(x86::rsp, 8 * (spare + 1));
  for (size_t s = 0; s < t.snaps.size(); s++) {
    a.bind(g.exits[s]);
    if (base[s] >= 0 || is_base[s]) {
      a.mov(x86::rax, Imm((uint64_t)(uintptr_t)&infos[s]));
      a.mov(info_slot, x86::rax);
      infos[s].pc = t.snaps[s].pc;
    }
    if (base[s] >= 0) {
      // (both sorted, the base's a subset: one walk, not a search per entry)
      const auto& bregs = t.snaps[base[s]].regs;
      size_t j = 0;
      for (auto& e : t.snaps[s].regs) {
        while (j < bregs.size() && bregs[j] < e) j++;
        if (j < bregs.size() && bregs[j] == e) continue;
        g.spill_to(x86::qword_ptr(x86::rbx, 8 * (int32_t)e.first), e.second);
      }
      if (!flush_at[base[s]].isValid()) flush_at[base[s]] = a.newLabel();
      a.jmp(flush_at[base[s]]);
      continue;
    }
    if (is_base[s]) {
      if (!flush_at[s].isValid()) flush_at[s] = a.newLabel();
      a.bind(flush_at[s]);
    }
    g.recompute_for(t.snaps[s]);
    g.flush(t.snaps[s]);
    if (is_base[s]) {  // the exit that jumped here, or this one
      a.mov(x86::rax, info_slot);
      // Which exits leave for an enclosing loop (below): when those sharing
      // this flush differ in that, the exit's own ExitInfo says.
      bool outer = false, inner = false;
      for (size_t x = 0; x < t.snaps.size(); x++)
        if (x == s || base[x] == (int)s) (infos[x].outer_head != UINT32_MAX ? outer : inner) = true;
      if (outer) {
        Label go = a.newLabel();
        if (inner) {
          a.cmp(x86::dword_ptr(x86::rax, (int32_t)offsetof(ExitInfo, outer_head)), -1);
          a.je(go);
        }
        a.cmp(x86::dword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, calls)), 0);
        a.jne(exit_tail);
        a.bind(go);
      }
      a.jmp(through);
      tail_used = true;
      continue;
    }
    if (t.snaps[s].pc_ref >= 0) {
      // After a calltr: resume wherever the inner trace stopped (an exit of
      // the inner loop other than the one recorded, say a break). That pc
      // varies, so a side trace linked here starts at one pc
      // (ExitInfo::link_pc) and is taken only when the exit has that pc.
      g.ld(x86::rax, t.snaps[s].pc_ref);
      if (infos) {
        a.mov(x86::rdx, Imm((uint64_t)(uintptr_t)&infos[s]));
        a.mov(x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, exit)), x86::rdx);
        a.mov(x86::rcx, x86::qword_ptr(x86::rdx));  // ExitInfo::link
        a.test(x86::rcx, x86::rcx);
        a.jz(epilogue);
        a.cmp(x86::eax, x86::dword_ptr(x86::rdx, (int32_t)offsetof(ExitInfo, link_pc)));
        a.je(tail_jump);
      }
      a.jmp(epilogue);
      continue;
    }
    if (infos) {
      infos[s].pc = t.snaps[s].pc;
      a.mov(x86::rax, Imm((uint64_t)(uintptr_t)&infos[s]));
      if (infos[s].outer_head != UINT32_MAX) {
        // Into the enclosing loop: its side trace goes on there, which only
        // the outermost trace may do (a calltr's caller goes on itself).
        a.cmp(x86::dword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, calls)), 0);
        a.jne(exit_tail);
      }
      a.jmp(through);
      tail_used = true;
      continue;
    }
    a.mov(x86::eax, Imm(t.snaps[s].pc));
    a.jmp(epilogue);
  }
  if (tail_used) {  // no side trace (yet): record the exit, return its pc
    a.bind(exit_tail);
    a.mov(x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, exit)), x86::rax);
    a.mov(x86::eax, x86::dword_ptr(x86::rax, (int32_t)offsetof(ExitInfo, pc)));
    a.jmp(epilogue);
  }
  return "";
}

}  // namespace

std::string compile_trace(const Trace& t, JitRuntime& rt, Compiled& out, bool want_listing, ExitInfo* infos) {
  // First, so that it closes last: the analyses' and the planner's vectors
  // below take the thread's scratch block (scratch.h), not the heap.
  ScratchScope scratch;
  // The CodeHolder's zone (its section, labels, relocations) takes its first
  // block from this frame: asmjit would malloc 16 KiB for it and free it at
  // the end, and a cold compile ran the allocator's medium-size path for that
  // each time. The bench's traces fit in it; a larger one mallocs more blocks.
  alignas(64) uint8_t zone_first[16384];
  Support::Temporary zone_block(zone_first, sizeof zone_first);
  CodeHolder code(&zone_block);
  code.init(rt.environment());
  ThrowOnError eh;
  code.setErrorHandler(&eh);
  std::optional<StringLogger> logger;  // (made only for a listing)
  if (want_listing) code.setLogger(&logger.emplace());
  CheckedAssembler a(&code);

  // Frame: one slot per IR value, the spare slot of the back edge, the
  // slot of an exit's ExitInfo while exits share a flush, then the xmm and
  // general save areas of calls. Every trace reserves the same kFrameBytes, so
  // that one trace can jump into another's warm entry (after the prologue)
  // and keep the frame: a side exit and a side trace's link cost a jump.
  const Ref spare = (Ref)t.ins.size();
  int32_t xsave = 8 * (spare + 2), gsave = xsave + 8 * kNumXmm;
  if (gsave + 8 * kNumGp > kFrameBytes) return "trace frame too large";

  const x86::Gp saved[] = {x86::rbp, x86::rbx, x86::r12, x86::r13, x86::r14, x86::r15};
  for (auto& r : saved) a.push(r);
  a.sub(x86::rsp, Imm(kFrameBytes));
  a.mov(x86::rbx, x86::rdi);
  a.mov(x86::r12, x86::rsi);
  Label warm = a.newLabel();
  a.bind(warm);

  const bool loops = t.allow_lanes && t.loop_ref >= 0;  // (a side trace has no loop of its own)
  VecPlan vp = loops ? plan_vector(t) : VecPlan{};
  const bool lanes = loops && vp.ok;
  WhilePlan wp;  // (a jammed while loop's copies in lanes: while_lanes.h)
  if (loops && !vp.ok) wp = plan_while_lanes(t);
  SinkPlan plan = plan_sinking(t, host_has_fma3(), host_has_avx2(), !lanes);
  RefFlags remat = plan.remat();
  SnapshotNeeds needs(t, remat);
  // xmm16-31 on AVX-512 (KILN_JIT=zmm=0 turns it off), but not beside a
  // vector loop, which saves the scalar code's xmm registers in VEX form and
  // takes ymm/zmm registers of its own.
  const int nxmm = t.allow_zmm && !lanes ? kNumXmm : kNumXmmVex;
  // (and the vector loop takes rsi and rdi as scratch: regalloc.h)
  const int ngp = lanes ? kNumAllocatable : kNumGp;
  RefFlags low32 = low_half_only(t, plan.sunk, plan.fused, lanes);
  RefFlags nowrap = adds_without_wrap(t, lanes);
  RefFlags nonneg = non_negative(t, nowrap);
  // Each of Gen's analyses moved in once as it is made (the plan and the
  // flags were move-assigned over empty members: code a cold compile ran for
  // nothing). Each has the spare slot already (sink.h's ref_slots): a value
  // with no register and none of the flags. (.al reads plan.sunk before
  // .sunk takes it: the initializers run in order.)
  Gen g{.t = t,
        .a = a,
        .al = allocate_registers(t, remat, plan.sunk, nxmm, ngp, &needs),
        .xsave = xsave,
        .gsave = gsave,
        .fused = std::move(plan.fused),
        .sunk = std::move(plan.sunk),
        .negfold = std::move(plan.negfold),
        .addrfold = std::move(plan.addrfold),
        .blsrfold = std::move(plan.blsrfold),
        .scalefold = std::move(plan.scalefold),
        .low32 = std::move(low32),
        .nowrap = std::move(nowrap),
        .nonneg = std::move(nonneg),
        .remat = std::move(remat),
        .needs = std::move(needs)};
  g.vex = host_has_avx2();
  g.nxmm = nxmm;
  for (Ref r = 0; r < (Ref)t.ins.size(); r++) g.evex |= g.in_xmm(r) && g.al.reg[r] >= kNumXmmVex;
  g.kmask = g.evex || t.allow_zmm;
  g.exits.reserve(t.snaps.size());
  for (size_t s = 0; s < t.snaps.size(); s++) g.exits.push_back(a.newLabel());
  Label epilogue = a.newLabel(), tail_jump = a.newLabel(), exit_tail = a.newLabel();
  g.infos = infos;
  g.exit_tail = exit_tail;
  g.epilogue = epilogue;
  out.lanes = loops && !vp.ok ? "scalar: " + vp.why : "";
  if (loops && !vp.ok && !wp.ok && wp.K >= 4) out.lanes += "; " + std::to_string(wp.K) + " copies: " + wp.why;
  std::string why = body(g, epilogue, tail_jump, exit_tail, spare, infos, vp, wp, out.lanes);
  if (!why.empty()) return why;
  a.bind(epilogue);
  a.add(x86::rsp, Imm(kFrameBytes));
  for (int j = 5; j >= 0; j--) a.pop(saved[j]);
  a.ret();
  // Another trace's warm entry (rcx) takes over this frame, and returns to
  // our caller.
  a.bind(tail_jump);
  a.jmp(x86::rcx);
  if (!g.pool.empty()) {  // the float constants the code reads
    a.align(AlignMode::kData, 8);
    for (auto& [bits, label] : g.pool) {
      a.bind(label);
      a.embedUInt64(bits);
    }
    a.embedUInt64(0);  // (a 16-byte read of the last entry stays in the code)
  }
  if (!eh.msg.empty()) {
    out.assembler_error = true;
    return "asmjit: " + eh.msg;
  }

  out.code_size = code.codeSize();
  if (asmjit::Error e = rt.add(&out.fn, &code)) return std::string("asmjit: ") + DebugUtils::errorAsString(e);
  out.warm = reinterpret_cast<const uint8_t*>(out.fn) + code.labelOffsetFromBase(warm);
  if (infos && code.isLabelBound(exit_tail)) {  // before the code is published: no exit has run
    const void* tail = reinterpret_cast<const uint8_t*>(out.fn) + code.labelOffsetFromBase(exit_tail);
    for (size_t s = 0; s < t.snaps.size(); s++) infos[s].jump.store(tail, std::memory_order_relaxed);
  }
  if (want_listing) out.listing = logger->data();
  return "";
}

}  // namespace kiln::jit
