// IR value statements -> typed ops: picking the family member for the
// computation type, the width fixups of narrow types, casts, and the global
// memory statements (address computation with bounds checks, loads, stores,
// atomics).
#include <algorithm>
#include <cstdint>

#include "vm/bytecode/builder.h"

namespace kiln::bc {

namespace {

// Family members are laid out in CT order (T6), i32..u64 (TI), f32, f64 (TF),
// or Prim order (P12, P8); see opcodes.h.
Op t6(Op base, CT ct) { return (Op)((int)base + (int)ct); }
Op tf(Op base, CT ct) { return (Op)((int)base + (int)ct - (int)CT::f32); }
Op pr(Op base, Prim p) { return (Op)((int)base + (int)p); }
bool ct_float(CT ct) { return ct == CT::f32 || ct == CT::f64; }
uint16_t cvt_operand(Prim from, Prim to) { return (uint16_t)((int)from | (int)to << 8); }

void lower_cast(Builder& b, uint16_t d, uint16_t a, Prim from, Prim to) {
  if (from == to) {
    b.emit(Op::mov, d, a);
    return;
  }
  if (prim_is_int(from)) {
    switch (to) {
      case Prim::i8: b.emit(Op::sext8, d, a); return;
      case Prim::i16: b.emit(Op::sext16, d, a); return;
      case Prim::i32: b.emit(Op::sext32, d, a); return;
      case Prim::u8: b.emit(Op::zext8, d, a); return;
      case Prim::u16: b.emit(Op::zext16, d, a); return;
      case Prim::u32: b.emit(Op::zext32, d, a); return;
      case Prim::i64: case Prim::u64: b.emit(Op::mov, d, a); return;
      // Every int register reads as an exact int64 except u64's upper half.
      case Prim::f32: b.emit(from == Prim::u64 ? Op::u64_f32 : Op::i64_f32, d, a); return;
      case Prim::f64: b.emit(from == Prim::u64 ? Op::u64_f64 : Op::i64_f64, d, a); return;
      default: b.emit(Op::cvt, d, a, cvt_operand(from, to)); return;  // one rounding to 16 bits
    }
  }
  if (prim_is_int(to)) {
    if (from == Prim::f64) {
      b.emit(pr(Op::f64_i8, to), d, a);
    } else if (to == Prim::i32) {
      b.emit(Op::f32_i32, d, a);
    } else if (to == Prim::i64) {
      b.emit(Op::f32_i64, d, a);
    } else {
      b.emit(Op::f32_f64, d, a);  // exact, then saturate at the target's width
      b.emit(pr(Op::f64_i8, to), d, d);
    }
    return;
  }
  // float -> float. f16/bf16/f32 registers hold exact f32 values, so every
  // conversion out of them is a single rounding of that value.
  if (from == Prim::f64) {
    if (to == Prim::f32) b.emit(Op::f64_f32, d, a);
    else b.emit(Op::cvt, d, a, cvt_operand(from, to));
    return;
  }
  switch (to) {
    case Prim::f64: b.emit(Op::f32_f64, d, a); return;
    case Prim::f32: b.emit(Op::mov, d, a); return;
    case Prim::f16: b.emit(Op::round_f16, d, a); return;
    default: b.emit(Op::round_bf16, d, a); return;
  }
}

// Casts whose source register already is the result's representation
// (i32 -> i64 is sign-extended either way; f16 -> f32 holds the value exactly).
bool same_representation(Prim from, Prim to) {
  if (from == to) return true;
  if (prim_is_int(from) && (to == Prim::i64 || to == Prim::u64)) return true;
  return (from == Prim::f16 || from == Prim::bf16) && to == Prim::f32;
}

void lower_unary(Builder& b, const ir::Stmt& s) {
  Prim ap = s.ops[0]->type.prim, rp = s.type.prim;
  CT ct = compute_type(ap);
  uint16_t a = b.reg(s.ops[0]);
  using U = ir::UnaryOp;
  if (unary_shares_operand(s)) {
    // Value registers are written only by their defining statement (loop
    // indices only between iterations; in-place local loads, local_reads.cpp,
    // not before their last read), so sharing one is safe.
    b.share(&s, a);
    return;
  }
  uint16_t d = b.def(&s);
  switch (s.uop) {
    case U::neg: b.emit(t6(Op::neg_i32, ct), d, a); emit_fixup(b, rp, d); return;
    case U::abs: b.emit(t6(Op::abs_i32, ct), d, a); emit_fixup(b, rp, d); return;
    case U::logic_not: b.emit(t6(Op::lnot_i32, ct), d, a); return;
    case U::bit_not:
      if (ct_float(ct)) b.fail("bit_not on a float");
      b.emit(t6(Op::bnot_i32, ct), d, a);
      emit_fixup(b, rp, d);
      return;
    case U::popcnt:
    case U::clz:
      if (ct_float(ct)) b.fail("popcnt/clz on a float");
      b.emit(s.uop == U::popcnt ? Op::popcnt : Op::clz, d, a, (uint16_t)prim_bits(ap));
      return;
    case U::cast_value: lower_cast(b, d, a, ap, rp); return;
    case U::cast_bits:
      if (prim_bits(ap) != prim_bits(rp)) b.fail("bit cast between different widths");
      b.emit(Op::bitcast, d, a, cvt_operand(ap, rp));
      return;
    case U::floor: case U::ceil: case U::round:
      if (!ct_float(ct)) {  // identity on integers
        b.emit(Op::mov, d, a);
        return;
      }
      break;
    default: break;
  }
  if (!ct_float(ct)) b.fail(std::string("unary ") + ir::unary_op_name(s.uop) + " on an integer");
  Op base;
  switch (s.uop) {
    case U::sqrt: base = Op::sqrt_f32; break;
    case U::rsqrt: base = Op::rsqrt_f32; break;
    case U::sin: base = Op::sin_f32; break;
    case U::cos: base = Op::cos_f32; break;
    case U::tan: base = Op::tan_f32; break;
    case U::asin: base = Op::asin_f32; break;
    case U::acos: base = Op::acos_f32; break;
    case U::atan: base = Op::atan_f32; break;
    case U::tanh: base = Op::tanh_f32; break;
    case U::exp: base = Op::exp_f32; break;
    case U::log: base = Op::log_f32; break;
    case U::floor: base = Op::floor_f32; break;
    case U::ceil: base = Op::ceil_f32; break;
    default: base = Op::round_f32; break;
  }
  b.emit(tf(base, ct), d, a);
  emit_fixup(b, rp, d);
}

void lower_shift(Builder& b, const ir::Stmt& s, uint16_t d, uint16_t a, uint16_t n, Prim ap, CT ct) {
  // The count register is used as is: its 64-bit representation read as
  // unsigned is eval.h's count. Narrow patterns are first brought to the
  // form whose 32-bit shift equals the width-bit shift (eval.h): logical
  // shifts of signed narrow values see the zero-extended pattern, arithmetic
  // shifts of unsigned narrow values the sign-extended one.
  using B = ir::BinaryOp;
  if (s.bop == B::bit_shl) {
    b.emit(t6(Op::shl_i32, ct), d, a, n);
  } else if (s.bop == B::bit_shr) {
    uint16_t src = a;
    if (ap == Prim::i8 || ap == Prim::i16) {
      src = b.new_reg();
      b.emit(ap == Prim::i8 ? Op::zext8 : Op::zext16, src, a);
    }
    b.emit(t6(Op::shr_i32, ct), d, src, n);
  } else {
    uint16_t src = a;
    if (ap == Prim::u8 || ap == Prim::u16) {
      src = b.new_reg();
      b.emit(ap == Prim::u8 ? Op::sext8 : Op::sext16, src, a);
    }
    b.emit(t6(Op::sar_i32, ct), d, src, n);
  }
  emit_fixup(b, ap, d);
}

void lower_binary(Builder& b, const ir::Stmt& s) {
  Prim ap = s.ops[0]->type.prim;
  CT ct = compute_type(ap);
  uint16_t x = b.reg(s.ops[0]), y = b.reg(s.ops[1]);
  uint16_t d = b.def(&s);
  using B = ir::BinaryOp;
  Op base;
  switch (s.bop) {
    case B::cmp_lt: b.emit(t6(Op::cmp_lt_i32, ct), d, x, y); return;
    case B::cmp_le: b.emit(t6(Op::cmp_le_i32, ct), d, x, y); return;
    case B::cmp_gt: b.emit(t6(Op::cmp_lt_i32, ct), d, y, x); return;
    case B::cmp_ge: b.emit(t6(Op::cmp_le_i32, ct), d, y, x); return;
    case B::cmp_eq: b.emit(t6(Op::cmp_eq_i32, ct), d, x, y); return;
    case B::cmp_ne: b.emit(t6(Op::cmp_ne_i32, ct), d, x, y); return;
    case B::bit_shl: case B::bit_shr: case B::bit_sar:
      if (ct_float(ct) || !prim_is_int(s.ops[1]->type.prim)) b.fail("shift of a float");
      lower_shift(b, s, d, x, y, ap, ct);
      return;
    case B::bit_and: base = Op::band_i32; break;
    case B::bit_or: base = Op::bor_i32; break;
    case B::bit_xor: base = Op::bxor_i32; break;
    case B::add: base = Op::add_i32; break;
    case B::sub: base = Op::sub_i32; break;
    case B::mul: base = Op::mul_i32; break;
    case B::div: base = Op::div_i32; break;
    case B::floordiv: base = Op::floordiv_i32; break;
    case B::mod: base = Op::mod_i32; break;
    case B::raw_mod: base = Op::raw_mod_i32; break;
    case B::pow: base = Op::pow_i32; break;
    case B::max: base = Op::max_i32; break;
    case B::min: base = Op::min_i32; break;
    case B::atan2:
      if (!ct_float(ct)) b.fail("atan2 on integers");
      b.emit(tf(Op::atan2_f32, ct), d, x, y);
      emit_fixup(b, ap, d);
      return;
    default: b.fail("unknown binary op");
  }
  bool bitwise = base == Op::band_i32 || base == Op::bor_i32 || base == Op::bxor_i32;
  if (bitwise && ct_float(ct)) b.fail(std::string(ir::binary_op_name(s.bop)) + " on floats");
  b.emit(t6(base, ct), d, x, y);
  emit_fixup(b, ap, d);
}

// The sparse ops read their indices from consecutive registers.
uint16_t copy_indices(Builder& b, const ir::Operands& ops, size_t n = SIZE_MAX) {
  n = std::min(n, ops.size());
  uint16_t base = b.new_regs((int)std::max<size_t>(n, 1));
  for (size_t k = 0; k < n; k++) b.emit(Op::mov, (uint16_t)(base + k), b.reg(ops[k]));
  return base;
}

void lower_snode_op(Builder& b, const ir::Stmt& s) {
  uint16_t base = copy_indices(b, s.ops);
  uint16_t d = s.has_value() ? b.def(&s) : b.new_reg();
  if (b.fn.snode_ops.size() >= 0xffff) b.fail("too many SNode ops in one task");
  b.fn.snode_ops.push_back(SNodeOpDesc{(uint8_t)s.sop, s.snode, (uint8_t)s.ops.size()});
  b.emit(Op::snop, d, base, (uint16_t)(b.fn.snode_ops.size() - 1));
}

// An ndarray argument's element (ir::Access::ext_arg): bounds against the
// shape arguments, then the C-order address from plain i64 arithmetic, so
// every engine (and the JIT's recorder) sees ordinary ops.
void lower_ext_ptr(Builder& b, const ir::Stmt& s) {
  const ir::Access& acc = s.access;
  if (acc.ext_arg < 0 || acc.ext_arg + (int)s.ops.size() >= b.num_args) b.fail("ndarray argument slots out of range");
  size_t n = s.ops.size();  // 0 for a 0-D ndarray (x[None])
  uint16_t d = b.def(&s);
  std::vector<uint16_t> shape(n);
  for (size_t k = 0; k < n; k++) {
    shape[k] = b.new_reg();
    b.emit_d(Op::arg, shape[k], acc.ext_arg + 1 + (int)k);
  }
  if (acc.checked) {
    for (size_t k = 0; k < n; k++) {
      AccessDesc desc{acc.field, {}};
      desc.ext_arg = acc.ext_arg;
      desc.ndim = (int)n;
      desc.axis = (int)k;
      b.fn.accesses.push_back(desc);
      b.emit(Op::bndx, b.reg(s.ops[k]), shape[k], (uint16_t)(b.fn.accesses.size() - 1));
    }
  }
  // d = ((i0 * s1 + i1) * s2 + ...) * comps + comp, then * size + ptr
  uint16_t t = b.new_reg();
  if (n) b.emit(Op::mov, d, b.reg(s.ops[0]));
  else b.emit_d(Op::kimm, d, 0);
  for (size_t k = 1; k < n; k++) {
    b.emit(Op::mul_i64, d, d, shape[k]);
    b.emit(Op::add_i64, d, d, b.reg(s.ops[k]));
  }
  int64_t size = prim_bits(s.type.prim) / 8;
  b.load_bits(t, (uint64_t)(acc.ext_comps * size));
  b.emit(Op::mul_i64, d, d, t);
  b.emit_d(Op::arg, t, acc.ext_arg);
  b.emit(Op::add_i64, d, d, t);
  if (acc.ext_comp) {
    b.load_bits(t, (uint64_t)(acc.ext_comp * size));
    b.emit(Op::add_i64, d, d, t);
  }
  // the scratch registers are dead after this statement: hand them back
  shape.push_back(t);
  for (uint16_t r : shape) {
    if (b.refs.size() <= r) b.refs.resize(r + 1, 0);
    b.refs[r] = 1;
    b.release(r);
  }
}

void lower_global_ptr(Builder& b, const ir::Stmt& s) {
  const ir::Access& acc = s.access;
  if (acc.ext_arg >= 0) return lower_ext_ptr(b, s);
  uint16_t d = b.def(&s);
  if (acc.checked) {
    if (acc.shape.size() != s.ops.size()) b.fail("global_ptr index count differs from the field's shape");
    AccessDesc ad{acc.field, acc.shape};
    ad.offset = acc.index_offset;
    b.fn.accesses.push_back(ad);
    uint16_t desc = (uint16_t)(b.fn.accesses.size() - 1);
    for (size_t k = 0; k < s.ops.size(); k++) b.emit(Op::bound, b.reg(s.ops[k]), (uint16_t)k, desc);
  }
  if (acc.in_cell) {
    // The struct-for's cell address (ops[0]) plus the element's offset in the cell.
    uint16_t t = b.new_reg();
    b.load_bits(t, (uint64_t)acc.offset);
    b.emit(Op::add_i64, d, b.reg(s.ops[0]), t);
    if (b.refs.size() <= t) b.refs.resize(t + 1, 0);
    b.refs[t] = 1;
    b.release(t);
    return;
  }
  if (acc.sparse_place >= 0) {
    // No affine formula under sparse SNodes: the runtime walks the tree.
    uint16_t base = copy_indices(b, s.ops);
    if (b.fn.sparse.size() >= 0xffff) b.fail("too many sparse accesses in one task");
    b.fn.sparse.push_back(SparseDesc{acc.sparse_place, (uint8_t)s.ops.size(), acc.activate});
    b.emit(Op::sptr, d, base, (uint16_t)(b.fn.sparse.size() - 1));
    return;
  }
  if (acc.tree < 0 || acc.tree > 0xffff) b.fail("tree id out of range");
  b.emit(Op::addr_base, d, (uint16_t)acc.tree, b.add_const((uint64_t)acc.offset));
  for (auto& t : acc.terms) {
    if (t.axis < 0 || t.axis >= (int)s.ops.size()) b.fail("address term names a missing index");
    if (t.div == 0) b.fail("address term divides by zero");
    b.fn.terms.push_back(AddrTerm{t.div, t.mod, t.stride});
    b.emit(Op::addr_idx, d, b.reg(s.ops[t.axis]), (uint16_t)(b.fn.terms.size() - 1));
  }
}

void lower_atomic(Builder& b, const ir::Stmt& s) {
  Prim p = s.ops[0]->type.prim;
  uint16_t ptr = b.reg(s.ops[0]), v = b.reg(s.ops[1]);
  uint16_t d = s.has_value() ? b.def(&s) : b.new_reg();
  Op base;
  switch (s.aop) {
    case ir::AtomicOp::add: base = Op::atom_add_i8; break;
    case ir::AtomicOp::sub: base = Op::atom_sub_i8; break;
    case ir::AtomicOp::min: base = Op::atom_min_i8; break;
    case ir::AtomicOp::max: base = Op::atom_max_i8; break;
    case ir::AtomicOp::bit_and: base = Op::atom_and_i8; break;
    case ir::AtomicOp::bit_or: base = Op::atom_or_i8; break;
    case ir::AtomicOp::mul: base = Op::atom_mul_i8; break;
    default: base = Op::atom_xor_i8; break;
  }
  bool bitwise = s.aop == ir::AtomicOp::bit_and || s.aop == ir::AtomicOp::bit_or ||
                 s.aop == ir::AtomicOp::bit_xor;
  if (bitwise && !prim_is_int(p)) b.fail("bitwise atomic on a float");
  b.emit(pr(base, p), d, ptr, v);
}

}  // namespace

bool unary_shares_operand(const ir::Stmt& s) {
  if (s.kind != ir::StmtKind::unary || s.ops.empty()) return false;
  Prim ap = s.ops[0]->type.prim, rp = s.type.prim;
  using U = ir::UnaryOp;
  // A pointer's address as a u64 (ti.get_addr): the pointer register is the address.
  if (s.uop == U::cast_bits && s.ops[0]->type.is_ptr) return true;
  return (s.uop == U::cast_value && same_representation(ap, rp)) ||
         ((s.uop == U::floor || s.uop == U::ceil || s.uop == U::round) && prim_is_int(ap));
}

void emit_fixup(Builder& b, Prim p, uint16_t r) {
  switch (p) {
    case Prim::i8: b.emit(Op::sext8, r, r); break;
    case Prim::i16: b.emit(Op::sext16, r, r); break;
    case Prim::u8: b.emit(Op::zext8, r, r); break;
    case Prim::u16: b.emit(Op::zext16, r, r); break;
    case Prim::f16: b.emit(Op::round_f16, r, r); break;
    case Prim::bf16: b.emit(Op::round_bf16, r, r); break;
    default: break;
  }
}

bool lower_value(Builder& b, const ir::Stmt& s) {
  switch (s.kind) {
    case ir::StmtKind::const_:
      b.load_bits(b.def(&s), const_bits(s.value));
      return true;
    case ir::StmtKind::unary: lower_unary(b, s); return true;
    case ir::StmtKind::binary: lower_binary(b, s); return true;
    case ir::StmtKind::select: {
      uint16_t d = b.def(&s);
      b.emit(Op::mov, d, b.reg(s.ops[0]));
      b.emit(Op::sel, d, b.reg(s.ops[1]), b.reg(s.ops[2]));
      return true;
    }
    case ir::StmtKind::fma: {
      uint16_t d = b.def(&s);
      b.emit(Op::mov, d, b.reg(s.ops[0]));
      b.emit(tf(Op::fma_f32, compute_type(s.type.prim)), d, b.reg(s.ops[1]), b.reg(s.ops[2]));
      return true;
    }
    case ir::StmtKind::global_ptr: lower_global_ptr(b, s); return true;
    case ir::StmtKind::global_load:
      b.emit(pr(Op::ld_i8, s.ops[0]->type.prim), b.def(&s), b.reg(s.ops[0]));
      return true;
    case ir::StmtKind::global_store:
      b.emit(pr(Op::st_i8, s.ops[0]->type.prim), b.reg(s.ops[0]), b.reg(s.ops[1]));
      return true;
    case ir::StmtKind::atomic: lower_atomic(b, s); return true;
    case ir::StmtKind::snode_op: lower_snode_op(b, s); return true;
    default: return false;
  }
}

}  // namespace kiln::bc
