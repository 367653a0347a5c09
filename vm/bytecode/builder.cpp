// The bytecode Builder (builder.h): registers, instructions, constants and
// strings of the Function being lowered; and the two lowering helpers every
// lowering file uses (a constant's bits, a primitive's compute type).
#include <bit>

#include "vm/bytecode/builder.h"

namespace kiln::bc {

void Builder::fail(const std::string& what) const {
  raise("InternalError", "bytecode lowering of '" + fn.name + "': " + what, loc);
}

uint16_t Builder::new_reg() {
  if (!free_regs.empty()) {
    uint16_t r = free_regs.back();
    free_regs.pop_back();
    return r;
  }
  return new_regs(1);
}

uint16_t Builder::def(const ir::Stmt* s) {
  if (!ix.in(s)) fail(std::string("a '") + ir::stmt_kind_name(s->kind) + "' statement outside its task");
  uint16_t r = new_reg();
  reg_of[ix.at(s)] = r;
  if (refs.size() <= r) refs.resize(r + 1, 0);
  refs[r] = 1;
  return r;
}

// Registers not handed out by def() (loop indices, counters, temporaries)
// have no count and are never reused.
void Builder::share(const ir::Stmt* s, uint16_t r) {
  if (!ix.in(s)) fail(std::string("a '") + ir::stmt_kind_name(s->kind) + "' statement outside its task");
  reg_of[ix.at(s)] = r;
  if (r < refs.size() && refs[r] > 0) refs[r]++;
}

void Builder::release(uint16_t r) {
  if (keep_vars) return;
  if (r < refs.size() && refs[r] > 0 && --refs[r] == 0) {
    free_regs.push_back(r);
    // Scanning the open variables at every release would make long tasks
    // with many named values quadratic (issue 16).
    if (r < open_on_reg.size() && open_on_reg[r] > 0) close_vars(0, r);
  }
}

void Builder::close_vars(size_t from, int reg) {
  for (size_t i = open_vars.size(); i-- > from;) {
    VarRange& v = fn.vars[open_vars[i]];
    if (reg >= 0 && v.reg != reg) continue;
    v.end = here();
    if (v.reg < open_on_reg.size()) open_on_reg[v.reg]--;
    open_vars.erase(open_vars.begin() + (std::ptrdiff_t)i);
  }
}

uint16_t Builder::new_regs(int n) {
  // Registers are 16-bit operands; 0xffff stays free so it never aliases kNoStr.
  if (next_reg + n > 0xffff) fail("more than 65535 registers in one task");
  uint16_t r = (uint16_t)next_reg;
  next_reg += n;
  if (next_reg > fn.num_regs) fn.num_regs = next_reg;
  return r;
}

uint32_t Builder::emit(Op op, uint16_t a, uint16_t b, uint16_t c) {
  fn.code.push_back(Insn{op, a, b, c});
  fn.lines.push_back(loc);
  fn.frame_at.push_back(frame);
  return here() - 1;
}

uint32_t Builder::emit_d(Op op, uint16_t a, int32_t d) {
  Insn i{op, a, 0, 0};
  i.set_d(d);
  fn.code.push_back(i);
  fn.lines.push_back(loc);
  fn.frame_at.push_back(frame);
  return here() - 1;
}

uint16_t Builder::reg(const ir::Stmt* s) const {
  if (!has_reg(s))
    fail(std::string("operand of kind '") + ir::stmt_kind_name(s->kind) + "' used before it was lowered");
  return (uint16_t)reg_of[ix.at(s)];
}

uint16_t Builder::add_const(uint64_t bits) {
  auto it = const_index.find(bits);
  if (it != const_index.end()) return it->second;
  if (fn.consts.size() >= 0xffff) fail("more than 65535 constants in one task");
  uint16_t k = (uint16_t)fn.consts.size();
  fn.consts.push_back(bits);
  const_index[bits] = k;
  return k;
}

void Builder::load_bits(uint16_t r, uint64_t bits) {
  if ((uint64_t)(int64_t)(int32_t)bits == bits) emit_d(Op::kimm, r, (int32_t)bits);
  else emit_d(Op::kload, r, add_const(bits));
}

uint16_t Builder::add_string(const std::string& s) {
  for (size_t i = 0; i < fn.strings.size(); i++)
    if (fn.strings[i] == s) return (uint16_t)i;
  if (fn.strings.size() >= 0xfffe) fail("too many strings in one task");
  fn.strings.push_back(s);
  return (uint16_t)(fn.strings.size() - 1);
}

uint64_t const_bits(const ir::Const& c) {
  if (c.prim == Prim::f64) return std::bit_cast<uint64_t>(c.f);
  if (prim_is_float(c.prim)) return std::bit_cast<uint32_t>((float)c.f);
  return c.u;  // ints are kept sign/zero-extended, which is the representation
}

CT compute_type(Prim p) {
  switch (p) {
    case Prim::i8: case Prim::i16: case Prim::i32: return CT::i32;
    case Prim::u8: case Prim::u16: case Prim::u32: return CT::u32;
    case Prim::i64: return CT::i64;
    case Prim::u64: return CT::u64;
    case Prim::f64: return CT::f64;
    default: return CT::f32;  // f16, bf16, f32
  }
}

}  // namespace kiln::bc
