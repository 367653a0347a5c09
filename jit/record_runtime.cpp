// Ops over runtime state while recording (record_state.h): ti.random's
// streams, autodiff tapes, sparse SNode accesses and ops, struct-for cells.
#include <bit>

#include "jit/record_state.h"
#include "jit/rtcall.h"
#include "jit/sparse_walk.h"
#include "vm/runtime/program.h"
#include "vm/runtime/rng.h"

namespace kiln::jit {

using bc::CT;
using bc::Op;

// rng.h's rng_mix as trace ops.
Ref Rec::mix(Ref z) {
  auto u = [&](IrOp op, Ref a, Ref b) { return e.emit(op, CT::u64, a, b); };
  z = u(IrOp::mul, u(IrOp::bxor, z, u(IrOp::shr, z, e.kval(30))), e.kval(0xbf58476d1ce4e5b9ull));
  z = u(IrOp::mul, u(IrOp::bxor, z, u(IrOp::shr, z, e.kval(27))), e.kval(0x94d049bb133111ebull));
  return u(IrOp::bxor, z, u(IrOp::shr, z, e.kval(31)));
}

// ti.random: rng_next and rng_to_reg spelled in trace ops over the stream
// registers, with a guard on whether the iteration index changed (in a
// parallel loop's trace it always does, in an inner loop it never does).
bool Rec::random(uint32_t pc, const bc::Insn& I) {
  const uint16_t S = fn.rng_reg;
  if (S == 0xffff) return abort(pc, "ti.random without a stream");
  Ref idx = get(I.b), st = get(S + 2);
  bool fresh = R[I.b] != R[S + 1];
  Ref same = e.emit(IrOp::eq, CT::u64, idx, get(S + 1));
  if (!e.guard(fresh ? IrOp::guard_z : IrOp::guard_nz, same, kNoRef, snap(pc))) return abort(pc, "constant guard failed");
  if (fresh) st = mix(e.emit(IrOp::bxor, CT::u64, get(S), mix(idx)));
  st = e.emit(IrOp::add, CT::u64, st, e.kval(kRngGamma));
  uint64_t bits = rng_next(R + S, R[I.b]);
  map[S + 1] = idx;
  map[S + 2] = st;
  Ref v = mix(st);
  auto shr = [&](int n) { return e.emit(IrOp::shr, CT::u64, v, e.kval((uint64_t)n)); };
  switch ((Prim)I.c) {
    case Prim::f32:
      v = e.emit(IrOp::mul, CT::f32, e.emit(IrOp::conv, CT::i64, shr(40), kNoRef, kNoRef, (int64_t)Op::u64_f32),
                 e.kval(std::bit_cast<uint32_t>(0x1.0p-24f)));
      break;
    case Prim::f64:
      v = e.emit(IrOp::mul, CT::f64, e.emit(IrOp::conv, CT::i64, shr(11), kNoRef, kNoRef, (int64_t)Op::u64_f64),
                 e.kval(std::bit_cast<uint64_t>(0x1.0p-53)));
      break;
    case Prim::i32: v = e.emit(IrOp::conv, CT::i64, shr(32), kNoRef, kNoRef, (int64_t)Op::sext32); break;
    case Prim::u32: v = shr(32); break;
    default: break;
  }
  set(I.a, v, rng_to_reg(bits, (Prim)I.c));
  return true;
}

// Autodiff tapes ([capacity, count, values...], vm/interp) inline:
// stk_init empties the tape in the frame; push, pop and top are loads and
// stores of the count and the slot, and a guard that exits to the
// interpreter (which raises) on overflow or underflow.
bool Rec::tape(uint32_t pc, const bc::Insn& I) {
  const Op op = I.op;
  if (op == Op::stk_init) {  // the tape's address in the frame, emptied
    const bc::StackDesc& d = fn.stacks[(size_t)I.d()];
    uint32_t slot = fn.frame_regs() + d.offset;
    Ref addr = e.emit(IrOp::faddr, CT::i64, kNoRef, kNoRef, kNoRef, slot);
    e.effect(IrOp::store, addr, e.kval(d.capacity), (int64_t)Prim::i64);
    e.effect(IrOp::store, e.emit(IrOp::add, CT::i64, addr, e.kval(8)), e.kval(0), (int64_t)Prim::i64);
    uint64_t* st = R + slot;
    st[0] = d.capacity;
    st[1] = 0;
    set(I.a, addr, (uint64_t)(uintptr_t)st);
    return true;
  }
  uint16_t tape = op == Op::stk_top ? I.b : I.a;
  uint64_t* st = reinterpret_cast<uint64_t*>(R[tape]);
  bool bad = op == Op::stk_push ? st[1] >= st[0] : st[1] == 0;
  if (bad) return abort(pc, "autodiff tape overflow or underflow");
  const int64_t i64 = (int64_t)Prim::i64;
  Ref addr = get(tape);
  Ref count_at = e.emit(IrOp::add, CT::i64, addr, e.kval(8));
  Ref count = e.emit(IrOp::load, CT::i64, count_at, kNoRef, kNoRef, i64);
  if (op == Op::stk_push) {
    Ref cap = e.emit(IrOp::load, CT::i64, addr, kNoRef, kNoRef, i64);
    if (!e.guard(IrOp::guard_ult, count, cap, snap(pc))) return abort(pc, "constant guard failed");
  } else if (!e.guard(IrOp::guard_nz, count, kNoRef, snap(pc))) {
    return abort(pc, "constant guard failed");
  }
  // the value slots start at addr + 8 * kStackHeader
  auto slot = [&](Ref k) { return e.emit(IrOp::add, CT::i64, addr, e.emit(IrOp::mul, CT::i64, k, e.kval(8))); };
  if (op == Op::stk_push) {
    e.effect(IrOp::store, slot(e.emit(IrOp::add, CT::i64, count, e.kval(bc::kStackHeader))), get(I.b), i64);
    e.effect(IrOp::store, count_at, e.emit(IrOp::add, CT::i64, count, e.kval(1)), i64);
    st[bc::kStackHeader + st[1]++] = R[I.b];
  } else if (op == Op::stk_pop) {
    e.effect(IrOp::store, count_at, e.emit(IrOp::sub, CT::i64, count, e.kval(1)), i64);
    st[1]--;
  } else {
    Ref at = slot(e.emit(IrOp::add, CT::i64, count, e.kval(bc::kStackHeader - 1)));
    set(I.a, e.emit(IrOp::load, CT::i64, at, kNoRef, kNoRef, i64), st[bc::kStackHeader + st[1] - 1]);
  }
  return true;
}

// A sparse element's address (sptr: activation, pools) and SNode ops
// (snop: ti.append & co): runtime calls, made now for the interpreter's
// state and recorded, or walks of the tree inline.
bool Rec::sparse(uint32_t pc, const bc::Insn& I) {
  const Op op = I.op;
  RtCall c;
  c.program = env.program;
  c.loc = fn.loc_at(pc);
  if (op == Op::sptr) {
    const bc::SparseDesc& d = fn.sparse[I.c];
    c.fn = &sparse_lookup;
    c.place = d.place;
    c.nidx = d.nidx;
    c.activate = d.activate;
  } else {
    const bc::SNodeOpDesc& d = fn.snode_ops[I.c];
    c.fn = &snode_call;
    c.place = d.snode;
    c.nidx = d.nidx;
    c.op = d.op;
  }
  // An access that activates nothing, and an append into a list reached
  // without activation, walk the tree inline (sparse_walk.h).
  bool append = op == Op::snop && (Program::SNodeOp)c.op == Program::SNodeOp::append;
  if (env.program && c.nidx <= kMaxIndices && (op == Op::sptr || append)) {
    Val idx[kMaxIndices], r;
    for (int v = 0; v < c.nidx; v++) idx[v] = {get((uint16_t)(I.b + v)), R[I.b + v]};
    Walked w = op == Op::sptr ? walk_element(e, env, c.place, c.activate, idx, c.nidx, snap(pc), r)
                              : walk_append(e, env, c.place, idx, c.nidx, snap(pc), snap(pc + 1), I.a, c, r);
    if (w == Walked::abort) return abort(pc, "constant guard failed");
    if (w == Walked::yes) {
      rethrow_pending();
      set(I.a, r.ref, r.bits);
      return true;
    }
  }
  if (!env.program) return abort(pc, "a sparse access or SNode op without a program");
  for (int v = 2; v < c.nidx; v += 2) {  // indices past the two operands: stashed first (rtcall.h)
    RtCall s;
    s.fn = &stash_indices;
    s.nidx = (uint8_t)v;
    const RtCall* ks = keep_rtcall(s);
    bool pair = v + 1 < c.nidx;
    rt_call(R[I.b + v], pair ? R[I.b + v + 1] : 0, (uint64_t)ks);
    e.effect(IrOp::rtcall, get((uint16_t)(I.b + v)), pair ? get((uint16_t)(I.b + v + 1)) : e.kval(0),
             (int64_t)(uintptr_t)ks);
  }
  const RtCall* kept = keep_rtcall(c);
  uint64_t v = rt_call(c.nidx > 0 ? R[I.b] : 0, c.nidx > 1 ? R[I.b + 1] : 0, (uint64_t)kept);
  rethrow_pending();  // while recording, an error is the interpreter's to report
  Ref r = e.effect(IrOp::rtcall, c.nidx > 0 ? get(I.b) : e.kval(0), c.nidx > 1 ? get(I.b + 1) : e.kval(0),
                   (int64_t)(uintptr_t)kept);
  set(I.a, r, v);
  return true;
}

// A struct-for's cell index: table[b * stride + k], the table in r3.
void Rec::cell_index(const bc::Insn& I) {
  uint64_t stride = I.c >> 8, k = I.c & 0xff;
  const int64_t* table = reinterpret_cast<const int64_t*>(R[3]);
  uint64_t v = (uint64_t)table[(int64_t)R[I.b] * (int64_t)stride + (int64_t)k];
  // The row's address (table + b * stride * 8: one value the row's
  // columns share), then the column's displacement.
  Ref row = e.emit(IrOp::add, CT::i64, get(3), e.emit(IrOp::mul, CT::i64, get(I.b), e.kval(stride * 8)));
  Ref addr = k ? e.emit(IrOp::add, CT::i64, row, e.kval(k * 8)) : row;
  set(I.a, e.emit(IrOp::load, CT::i64, addr, kNoRef, kNoRef, (int64_t)Prim::i64), v);
}

}  // namespace kiln::jit
