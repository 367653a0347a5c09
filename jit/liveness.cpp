// Backward dataflow over the bytecode's control flow (liveness.h). Reads and
// writes come from each op's operand modes; the few ops that touch registers
// their modes do not name (fori/forl's end and counter, assert arguments) are
// spelled out.
#include "jit/liveness.h"

#include <array>

namespace kiln::jit {

using bc::Mode;
using bc::Op;

namespace {

// One op's reads and writes, appended to lists shared by every pc (a vector
// pair per op was an allocation each: most of the analysis's time on a task
// of 10^4 ops, issue 16).
struct UseDef {
  std::vector<uint16_t>& use;
  std::vector<uint16_t>& def;
  uint32_t succ[2] = {UINT32_MAX, UINT32_MAX};
};

void use_def(const bc::Function& fn, uint32_t pc, UseDef& u) {
  const bc::Insn& I = fn.code[pc];
  const bc::OpInfo& info = bc::kOpInfo[(int)I.op];
  auto mode = [&](Mode m, uint16_t r) {
    if (m == Mode::reg || m == Mode::acc) u.use.push_back(r);
    if (m == Mode::dst || m == Mode::acc) u.def.push_back(r);
  };
  mode(info.a, I.a);
  if (!bc::mode_is_d(info.b)) {
    mode(info.b, I.b);
    mode(info.c, I.c);
  }
  u.succ[0] = pc + 1;
  switch (I.op) {
    case Op::jmp: u.succ[0] = (uint32_t)I.d(); break;
    case Op::jz: case Op::jnz: u.succ[1] = (uint32_t)I.d(); break;
    case Op::fori_i32: case Op::fori_i64:
      u.use.push_back(I.a + 1);
      u.succ[1] = (uint32_t)I.d();
      break;
    case Op::forl_i32: case Op::forl_i64:
      u.use.push_back(I.a + 1);
      u.use.push_back(I.a + 2);
      u.succ[1] = (uint32_t)I.d();
      break;
    case Op::end: u.succ[0] = UINT32_MAX; break;
    case Op::rng_init:
      u.def.push_back(I.a + 1);
      u.def.push_back(I.a + 2);
      break;
    case Op::rand:  // reads and advances the task's stream registers
      for (uint16_t k = 0; k < 3; k++) u.use.push_back(fn.rng_reg + k);
      u.def.push_back(fn.rng_reg + 1);
      u.def.push_back(fn.rng_reg + 2);
      break;
    case Op::call:  // a ti.real_func call reads its arguments, writes its results
      if (I.a < fn.calls.size()) {
        const bc::CallDesc& c = fn.calls[I.a];
        for (uint16_t r : c.args) u.use.push_back(r);
        for (uint16_t k = 0; k < c.nrets; k++) u.def.push_back((uint16_t)(c.ret_base + k));
        if (fn.rng_reg != 0xffff) {  // it keys the callee's draws from the task's stream, advancing it
          for (uint16_t k = 0; k < 3; k++) u.use.push_back(fn.rng_reg + k);
          u.def.push_back(fn.rng_reg + 2);
        }
      }
      break;
    case Op::sptr:  // a sparse lookup or SNode op reads its nidx index registers from b
      if (I.c < fn.sparse.size())
        for (uint16_t k = 1; k < fn.sparse[I.c].nidx; k++) u.use.push_back((uint16_t)(I.b + k));
      break;
    case Op::snop:
      if (I.c < fn.snode_ops.size())
        for (uint16_t k = 1; k < fn.snode_ops[I.c].nidx; k++) u.use.push_back((uint16_t)(I.b + k));
      break;
    case Op::assert_:
      if (I.d() >= 0 && (size_t)I.d() < fn.asserts.size())
        for (uint16_t r : fn.asserts[I.d()].regs) u.use.push_back(r);
      break;
    default: break;
  }
}

}  // namespace

Liveness::Liveness(const bc::Function& fn) {
  npc_ = (uint32_t)fn.code.size();
  nreg_ = fn.num_regs < 3 ? 3 : fn.num_regs;
  words_ = (nreg_ + 63) / 64;
  // Per pc: successors, and its reads and writes as ranges of `uses`/`defs`.
  std::vector<uint16_t> uses, defs;
  std::vector<uint32_t> use_at(npc_ + 1), def_at(npc_ + 1);
  std::vector<std::array<uint32_t, 2>> succ(npc_);
  for (uint32_t pc = 0; pc < npc_; pc++) {
    use_at[pc] = (uint32_t)uses.size();
    def_at[pc] = (uint32_t)defs.size();
    UseDef u{uses, defs};
    use_def(fn, pc, u);
    succ[pc] = {u.succ[0], u.succ[1]};
  }
  use_at[npc_] = (uint32_t)uses.size();
  def_at[npc_] = (uint32_t)defs.size();
  const_def_.assign(nreg_, -1);
  std::vector<int> ndefs(nreg_, 0);
  for (uint32_t pc = 0; pc < npc_; pc++)
    for (uint32_t k = def_at[pc]; k < def_at[pc + 1]; k++)
      if (uint16_t r = defs[k]; r < nreg_ && ndefs[r]++ == 0 && (fn.code[pc].op == Op::kimm || fn.code[pc].op == Op::kload))
        const_def_[r] = (int32_t)pc;
  for (uint32_t r = 0; r < nreg_; r++)
    if (ndefs[r] != 1) const_def_[r] = -1;
  if ((uint64_t)npc_ * words_ > (1u << 20)) {  // too large: no pruning
    bits_.clear();
    return;
  }
  // The fixpoint runs over basic blocks, not pcs: a ti.static-unrolled task
  // is one block of 10^4 ops under a loop, and iterating per pc cost a pass
  // over the whole pcs x registers matrix per round (issue 16). A block
  // starts at pc 0, at every jump target and after every op that does not
  // just fall through.
  std::vector<uint32_t> block_at(npc_ + 1, UINT32_MAX);  // leader pc -> its block
  auto lead = [&](uint32_t pc) {
    if (pc <= npc_) block_at[pc] = 0;
  };
  lead(0);
  for (uint32_t pc = 0; pc < npc_; pc++)
    if (succ[pc][1] != UINT32_MAX || succ[pc][0] != pc + 1) {
      lead(succ[pc][0]);
      lead(succ[pc][1]);
      lead(pc + 1);
    }
  std::vector<uint32_t> start;
  for (uint32_t pc = 0; pc < npc_; pc++)
    if (block_at[pc] != UINT32_MAX) {
      block_at[pc] = (uint32_t)start.size();
      start.push_back(pc);
    }
  const uint32_t nb = (uint32_t)start.size();
  start.push_back(npc_);
  // Per block: the registers it reads before writing (gen) and those it
  // writes (kill), by one backward scan of its ops.
  auto row = [this](std::vector<uint64_t>& m, uint32_t i) { return &m[(size_t)i * words_]; };
  auto step = [&](uint64_t* cur, uint32_t pc) {  // live before pc, from live after it
    for (uint32_t k = def_at[pc]; k < def_at[pc + 1]; k++) cur[defs[k] / 64] &= ~(1ull << (defs[k] % 64));
    for (uint32_t k = use_at[pc]; k < use_at[pc + 1]; k++) cur[uses[k] / 64] |= 1ull << (uses[k] % 64);
  };
  std::vector<uint64_t> gen((size_t)nb * words_, 0), kill((size_t)nb * words_, 0), in((size_t)nb * words_, 0);
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t pc = start[b + 1]; pc-- > start[b];) {
      step(row(gen, b), pc);
      for (uint32_t k = def_at[pc]; k < def_at[pc + 1]; k++) row(kill, b)[defs[k] / 64] |= 1ull << (defs[k] % 64);
    }
  std::vector<uint64_t> out(words_);
  auto live_out = [&](uint32_t b) {  // the union of its successors' live-in
    std::fill(out.begin(), out.end(), 0);
    for (uint32_t s : succ[start[b + 1] - 1])
      if (s < npc_)
        for (uint32_t w = 0; w < words_; w++) out[w] |= row(in, block_at[s])[w];
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = nb; b-- > 0;) {
      live_out(b);
      uint64_t* i = row(in, b);
      for (uint32_t w = 0; w < words_; w++) {
        uint64_t v = row(gen, b)[w] | (out[w] & ~row(kill, b)[w]);
        if (v != i[w]) {
          i[w] = v;
          changed = true;
        }
      }
    }
  }
  // Per pc, from its block's live-out backwards.
  bits_.assign((size_t)npc_ * words_, 0);
  for (uint32_t b = 0; b < nb; b++) {
    live_out(b);
    for (uint32_t pc = start[b + 1]; pc-- > start[b];) {
      step(out.data(), pc);
      std::copy(out.begin(), out.end(), bits_.begin() + (size_t)pc * words_);
    }
  }
}

std::vector<bool> written_regs(const bc::Function& fn, uint32_t first, uint32_t last) {
  std::vector<bool> w(fn.num_regs < 3 ? 3 : fn.num_regs, false);
  std::vector<uint16_t> uses, defs;
  for (uint32_t pc = first; pc <= last && pc < fn.code.size(); pc++) {
    UseDef u{uses, defs};
    use_def(fn, pc, u);
  }
  for (uint16_t r : defs)
    if (r < w.size()) w[r] = true;
  return w;
}

}  // namespace kiln::jit
