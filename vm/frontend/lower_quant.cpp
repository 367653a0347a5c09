// Loads, stores and atomics of quantized fields (vm/types/quant.h), lowered
// here to ordinary IR on the field's word so that every engine runs them.
//
// - load: the word, shifted and masked (sign-extended for signed digits),
//   then converted: ints cast, fixed digits times the scale, floats rebuilt
//   bit by bit as an f32.
// - store: the new bits under the field's mask go in with atomic and + or, so
//   two threads writing different fields of one word never lose either
//   update (a field covering the whole word is a plain store).
// - `+=` / `-=` / ti.atomic_add on int and fixed: one atomic add of the
//   digits shifted into place. A carry out of the field's top bit went into
//   its neighbour, so when the field wrapped, the carry is taken back with an
//   atomic sub. Over the whole word all of these are additions modulo 2^W, so
//   the result equals Taichi's compare-and-swap loop (the field wraps and the
//   neighbours are unchanged) once every update has landed.
// - floats have no atomic add: `+=` on a quant.float is a plain
//   read-modify-write, allowed where no two iterations can race (serial code
//   or a parallel loop of one iteration, as Taichi's atomic demotion allows).
// The host's codec (vm/types/quant.cpp) computes the same bits.
#include "vm/frontend/lower.h"

namespace kiln::frontend {

using ir::BinaryOp;
using ir::Stmt;
using ir::StmtKind;
using ir::UnaryOp;

namespace {

uint64_t low_mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

}  // namespace

// The per-use context: the field, the word pointer, and the computation
// types (CW: the word widened to u32 or u64, SW its signed twin).
struct QuantCtx {
  Lowerer& L;
  const QuantRef& ref;
  SourceLoc loc;
  const QuantSlot& s;
  Prim W, CW, SW;
  int cwb;
  QuantCtx(Lowerer& l, const QuantRef& r, SourceLoc lc)
      : L(l), ref(r), loc(lc), s(*r.field->quant), W(s.word), CW(s.word == Prim::u64 ? Prim::u64 : Prim::u32),
        SW(s.word == Prim::u64 ? Prim::i64 : Prim::i32), cwb(prim_bits(CW)) {}

  Stmt* k(Prim p, uint64_t v) { return L.emit_const(ir::Const::of_int(p, (int64_t)v), loc); }
  Stmt* kf(Prim p, double v) { return L.emit_const(ir::Const::of_float(p, v), loc); }
  Stmt* bin(BinaryOp op, Stmt* a, Stmt* b) {
    Prim t = ir::is_comparison(op) ? Prim::i32 : a->type.prim;
    return L.emit_binary(op, a, b, Type::scalar(t), loc);
  }
  Stmt* cast(Stmt* v, Prim p) { return L.emit_cast(v, p, loc); }
  Stmt* bits_as(Stmt* v, Prim p) { return L.emit_unary(UnaryOp::cast_bits, v, Type::scalar(p), loc); }
  Stmt* select(Stmt* c, Stmt* a, Stmt* b) {
    auto st = std::make_unique<Stmt>(StmtKind::select);
    st->ops = {c, a, b};
    st->type = a->type;
    return L.emit(std::move(st), loc);
  }

  // A pointer to the word, typed as the word (the field's handle is typed as
  // its compute type for the rest of the frontend).
  Stmt* word_ptr() {
    auto p = std::make_unique<Stmt>(StmtKind::global_ptr);
    p->ops = ref.handle->ops;
    p->access = ref.handle->access;
    p->type = Type::ptr(W);
    return L.emit(std::move(p), loc);
  }
  Stmt* load_word(Stmt* wp) {
    auto ld = std::make_unique<Stmt>(StmtKind::global_load);
    ld->type = Type::scalar(W);
    ld->ops = {wp};
    return cast(L.emit(std::move(ld), loc), CW);
  }
  // The digits' bit offset of this element, in CW.
  Stmt* shift() { return cast(ref.shift, CW); }
  Stmt* const_shift(int at) { return k(CW, (uint64_t)at); }

  // `bits` bits at `sh` of `word`, zero- or sign-extended (to CW or SW).
  Stmt* extract(Stmt* word, Stmt* sh, int bits, bool is_signed) {
    if (!is_signed) {
      Stmt* v = bin(BinaryOp::bit_shr, word, sh);
      return bits >= cwb ? v : bin(BinaryOp::bit_and, v, k(CW, low_mask(bits)));
    }
    Stmt* left = bin(BinaryOp::sub, k(CW, (uint64_t)(cwb - bits)), sh);
    Stmt* up = bits_as(bin(BinaryOp::bit_shl, word, left), SW);
    return bin(BinaryOp::bit_sar, up, k(SW, (uint64_t)(cwb - bits)));
  }

  // ---- decoding --------------------------------------------------------------
  Stmt* decode(Stmt* word, Stmt* sh) {
    const QuantType& t = s.type;
    if (t.kind == QuantKind::int_) return cast(extract(word, sh, t.bits, t.is_signed), t.compute);
    if (t.kind == QuantKind::fixed) {
      Stmt* d = cast(extract(word, sh, t.bits, t.is_signed), t.compute);
      return bin(BinaryOp::mul, d, kf(t.compute, t.scale));
    }
    return decode_float(s, word, sh);
  }

  Stmt* decode_float(const QuantSlot& m, Stmt* word, Stmt* sh) {
    const QuantType& t = m.type;
    int db = t.digit_bits();
    Prim U = Prim::u32, I = Prim::i32;
    Stmt* in = cast(extract(word, sh, t.bits, false), U);
    Stmt* e = cast(extract(word, const_shift(m.exp_offset), t.exp_bits, false), U);
    Stmt* off = k(I, (uint64_t)t.exponent_offset());
    if (t.exp_bits < 8) off = select(bin(BinaryOp::cmp_ne, e, k(U, 0)), off, k(I, 0));
    Stmt* d = in;
    Stmt* sign = nullptr;
    if (m.shared_exp) {
      if (t.is_signed) {
        sign = bin(BinaryOp::bit_and, d, k(U, 1u << db));
        d = bin(BinaryOp::bit_xor, d, sign);
        sign = bin(BinaryOp::bit_shl, sign, k(U, (uint64_t)(31 - db)));
        d = bin(BinaryOp::bit_shl, d, k(U, 1));
      }
      Stmt* lz = cast(L.emit_unary(UnaryOp::clz, d, Type::scalar(U), loc), I);
      Stmt* extra = bin(BinaryOp::sub, k(I, (uint64_t)(31 - db)), lz);
      off = bin(BinaryOp::add, off, extra);
      if (!t.is_signed) off = bin(BinaryOp::add, off, k(I, 1));
      Stmt* dsh = bin(BinaryOp::sub, k(I, (uint64_t)(23 - db)), extra);
      d = bin(BinaryOp::bit_shl, d, cast(dsh, U));
    } else {
      d = bin(BinaryOp::bit_shl, d, k(U, (uint64_t)(23 - db)));
    }
    Stmt* frac = bin(BinaryOp::bit_and, d, k(U, 0x7fffffu));
    Stmt* ex = bin(BinaryOp::bit_shl, bin(BinaryOp::add, e, cast(off, U)), k(U, 23));
    Stmt* out = bin(BinaryOp::bit_or, ex, frac);
    if (m.shared_exp) {
      Stmt* zero = bin(BinaryOp::bit_or, bin(BinaryOp::cmp_eq, e, k(U, 0)), bin(BinaryOp::cmp_eq, in, k(U, 0)));
      out = select(zero, k(U, 0), out);
    }
    if (t.is_signed) {
      if (!sign) sign = bin(BinaryOp::bit_shl, bin(BinaryOp::bit_and, d, k(U, 1u << 23)), k(U, 8));
      out = bin(BinaryOp::bit_or, out, sign);
    }
    return bits_as(out, Prim::f32);
  }

  // ---- encoding ---------------------------------------------------------------
  // The digits of int/fixed value v (not yet masked), in CW.
  Stmt* digits_of(Stmt* v) {
    const QuantType& t = s.type;
    if (t.kind == QuantKind::int_) return cast(cast(v, t.compute), CW);
    Stmt* x = cast(v, t.compute);
    Stmt* scaled = bin(BinaryOp::mul, kf(t.compute, 1.0 / t.scale), x);
    Stmt* nonneg = bin(BinaryOp::cmp_ge, scaled, kf(t.compute, 0));
    Stmt* r = bin(BinaryOp::add, scaled, select(nonneg, kf(t.compute, 0.5), kf(t.compute, -0.5)));
    return cast(cast(r, Prim::i32), CW);
  }
  Stmt* masked(Stmt* d, int bits) { return bits >= cwb ? d : bin(BinaryOp::bit_and, d, k(CW, low_mask(bits))); }

  // An f32's exponent and digits as the non-shared encoding stores them
  // (u32 values): Taichi's round-to-nearest on the bits, flush to zero.
  void encode_float(Stmt* v, Stmt*& digits, Stmt*& exponent) {
    const QuantType& t = s.type;
    int db = t.digit_bits();
    Prim U = Prim::u32, I = Prim::i32;
    Stmt* b = bits_as(cast(v, Prim::f32), U);
    Stmt* sign = bin(BinaryOp::bit_and, b, k(U, 0x80000000u));
    if (db < 23) b = bin(BinaryOp::add, b, k(U, 1u << (22 - db)));
    Stmt* e = cast(bin(BinaryOp::bit_and, bin(BinaryOp::bit_shr, b, k(U, 23)), k(U, 255)), I);
    Stmt* d = bin(BinaryOp::bit_and, bin(BinaryOp::bit_shr, b, k(U, (uint64_t)(23 - db))), k(U, low_mask(db)));
    if (t.is_signed) d = bin(BinaryOp::bit_or, d, bin(BinaryOp::bit_shr, sign, k(U, (uint64_t)(31 - db))));
    Stmt* off = select(bin(BinaryOp::cmp_ne, e, k(I, 0)), k(I, (uint64_t)t.exponent_offset()), k(I, 0));
    e = bin(BinaryOp::max, bin(BinaryOp::sub, e, off), k(I, 0));
    e = bin(BinaryOp::min, e, k(I, low_mask(t.exp_bits)));
    digits = select(bin(BinaryOp::cmp_ne, e, k(I, 0)), d, k(U, 0));
    exponent = cast(e, U);
  }

  // Replaces the bits under `mask` with `bits` (both in CW, already in place).
  void store_masked(Stmt* wp, Stmt* bits, Stmt* mask, bool whole) {
    if (whole) {
      auto st = std::make_unique<Stmt>(StmtKind::global_store);
      st->ops = {wp, cast(bits, W)};
      L.emit(std::move(st), loc);
      return;
    }
    atomic(wp, ir::AtomicOp::bit_and, bin(BinaryOp::bit_xor, mask, k(CW, low_mask(cwb))));
    atomic(wp, ir::AtomicOp::bit_or, bits);
  }
  Stmt* atomic(Stmt* wp, ir::AtomicOp op, Stmt* v) {
    auto a = std::make_unique<Stmt>(StmtKind::atomic);
    a->aop = op;
    a->ops = {wp, cast(v, W)};
    a->type = Type::scalar(W);
    return cast(L.emit(std::move(a), loc), CW);
  }

  void store(Stmt* v) {
    const QuantType& t = s.type;
    Stmt* wp = word_ptr();
    int wb = prim_bits(W);
    if (t.kind != QuantKind::float_) {
      Stmt* sh = shift();
      Stmt* bits = bin(BinaryOp::bit_shl, masked(digits_of(v), t.bits), sh);
      Stmt* mask = bin(BinaryOp::bit_shl, k(CW, low_mask(t.bits)), sh);
      store_masked(wp, bits, mask, t.bits == wb);
      return;
    }
    if (s.shared_exp) return store_shared(wp, v);
    Stmt *d, *e;
    encode_float(v, d, e);
    Stmt* bits = bin(BinaryOp::bit_or, bin(BinaryOp::bit_shl, cast(d, CW), const_shift(s.bit_offset)),
                     bin(BinaryOp::bit_shl, cast(e, CW), const_shift(s.exp_offset)));
    uint64_t mask = (low_mask(t.bits) << s.bit_offset) | (low_mask(t.exp_bits) << s.exp_offset);
    store_masked(wp, bits, k(CW, mask), t.bits + t.exp_bits == wb);
  }

  // Every member of the exponent group re-encoded under the group's largest
  // exponent (the others as the word holds them now).
  void store_shared(Stmt* wp, Stmt* v) {
    const QuantType& t = s.type;
    Prim U = Prim::u32, I = Prim::i32;
    Stmt* word = load_word(wp);
    std::vector<const QuantSlot*> group;
    std::vector<Stmt*> vals;
    Stmt* max_e = nullptr;
    for (int id : s.exp_group) {
      const QuantSlot* m = L.prog.fields[(size_t)id]->quant.get();
      group.push_back(m);
      Stmt* f = m == &s ? cast(v, Prim::f32) : decode_float(*m, word, const_shift(m->bit_offset));
      Stmt* b = bits_as(f, U);
      vals.push_back(b);
      Stmt* e = bin(BinaryOp::bit_and, bin(BinaryOp::bit_shr, b, k(U, 23)), k(U, 255));
      max_e = max_e ? bin(BinaryOp::max, max_e, e) : e;
    }
    Stmt* me = cast(max_e, I);
    Stmt* off = select(bin(BinaryOp::cmp_ne, me, k(I, 0)), k(I, (uint64_t)t.exponent_offset()), k(I, 0));
    Stmt* stored = bin(BinaryOp::min, bin(BinaryOp::max, bin(BinaryOp::sub, me, off), k(I, 0)), k(I, low_mask(t.exp_bits)));
    Stmt* bits = bin(BinaryOp::bit_shl, cast(stored, CW), const_shift(s.exp_offset));
    uint64_t mask = low_mask(t.exp_bits) << s.exp_offset;
    for (size_t i = 0; i < group.size(); i++) {
      const QuantType& mt = group[i]->type;
      int db = mt.digit_bits(), rs = 24 - db;
      Stmt* b = vals[i];
      Stmt* e = bin(BinaryOp::bit_and, bin(BinaryOp::bit_shr, b, k(U, 23)), k(U, 255));
      Stmt* d = bin(BinaryOp::bit_or, bin(BinaryOp::bit_and, b, k(U, 0x7fffffu)), k(U, 1u << 23));
      d = bin(BinaryOp::bit_shr, d, bin(BinaryOp::min, bin(BinaryOp::sub, max_e, e), k(U, 31)));
      d = bin(BinaryOp::add, d, k(U, 1u << (rs - 1)));
      d = bin(BinaryOp::min, d, k(U, (1u << 24) - 1));
      d = bin(BinaryOp::bit_shr, d, k(U, (uint64_t)rs));
      if (mt.is_signed)
        d = bin(BinaryOp::bit_or, d, bin(BinaryOp::bit_shr, bin(BinaryOp::bit_and, b, k(U, 0x80000000u)), k(U, (uint64_t)(31 - db))));
      bits = bin(BinaryOp::bit_or, bits, bin(BinaryOp::bit_shl, cast(d, CW), const_shift(group[i]->bit_offset)));
      mask |= low_mask(mt.bits) << group[i]->bit_offset;
    }
    store_masked(wp, bits, k(CW, mask), mask == low_mask(prim_bits(W)));
  }

  // ---- atomics ----------------------------------------------------------------
  Stmt* update(ir::AtomicOp op, Stmt* v) {
    const QuantType& t = s.type;
    Stmt* wp = word_ptr();
    Stmt* sh = shift();
    int wb = prim_bits(W);
    if (op == ir::AtomicOp::add || op == ir::AtomicOp::sub) {
      Stmt* d = digits_of(v);
      if (op == ir::AtomicOp::sub) d = bin(BinaryOp::sub, k(CW, 0), d);
      Stmt* add = masked(d, t.bits);
      Stmt* old = atomic(wp, ir::AtomicOp::add, bin(BinaryOp::bit_shl, add, sh));
      bool top = ref.field->quant->array_dims.empty() && s.bit_offset + t.bits >= wb;
      if (!top && t.bits < cwb) {
        // Take back the carry this add pushed out of the field, if any.
        Stmt* f = masked(bin(BinaryOp::bit_shr, old, sh), t.bits);
        Stmt* carry = bin(BinaryOp::bit_shr, bin(BinaryOp::add, f, add), k(CW, (uint64_t)t.bits));
        Stmt* at = bin(BinaryOp::add, sh, k(CW, (uint64_t)(t.bits - 1)));
        Stmt* fix = bin(BinaryOp::bit_shl, bin(BinaryOp::bit_shl, carry, at), k(CW, 1));
        atomic(wp, ir::AtomicOp::sub, fix);
      }
      return decode(old, sh);
    }
    Stmt* d = bin(BinaryOp::bit_shl, masked(digits_of(v), t.bits), sh);
    if (op == ir::AtomicOp::bit_and) {
      Stmt* keep = bin(BinaryOp::bit_xor, bin(BinaryOp::bit_shl, k(CW, low_mask(t.bits)), sh), k(CW, low_mask(cwb)));
      d = bin(BinaryOp::bit_or, d, keep);
    }
    return decode(atomic(wp, op, d), sh);
  }
};

bool Lowerer::is_quant_ptr(const Stmt* p) const { return quant_refs.count(p) != 0; }

Stmt* Lowerer::quant_load(Stmt* p, SourceLoc loc) {
  QuantCtx q(*this, quant_refs.at(p), loc);
  Stmt* wp = q.word_ptr();
  return q.decode(q.load_word(wp), q.shift());
}

void Lowerer::quant_store(Stmt* p, Stmt* v, SourceLoc loc) {
  QuantCtx q(*this, quant_refs.at(p), loc);
  if (v->type.rows) raise("TypeError", "cannot store a vector into " + q.ref.field->describe(), loc);
  q.store(v);
}

Stmt* Lowerer::quant_atomic(Stmt* p, ir::AtomicOp op, Stmt* v, SourceLoc loc) {
  const QuantRef& ref = quant_refs.at(p);
  const QuantType& t = ref.field->quant->type;
  std::string what = ref.field->describe() + " (" + t.describe() + ")";
  if (op == ir::AtomicOp::min || op == ir::AtomicOp::max || op == ir::AtomicOp::mul)
    raise("TypeError", std::string("atomic ") + ir::atomic_op_name(op) + " is not supported on " + what, loc);
  bool bitwise = op != ir::AtomicOp::add && op != ir::AtomicOp::sub;
  if (bitwise && t.kind != QuantKind::int_) raise("TypeError", "bitwise updates need integers, and " + what + " is not", loc);
  if (t.kind == QuantKind::float_) {
    // No atomic add on a float's bits: only where nothing can race.
    for (const Frame& f : frames)
      for (const Loop& l : f.loops) {
        if (!l.parallel) continue;
        Stmt* s = l.stmt;
        bool one = s->kind == StmtKind::range_for && s->ops.size() == 2 && s->ops[0]->kind == StmtKind::const_ &&
                   s->ops[1]->kind == StmtKind::const_ && s->ops[1]->value.i - s->ops[0]->value.i <= 1;
        if (!one)
          raise("TypeError", "atomic " + std::string(ir::atomic_op_name(op)) + " on " + what +
                                 " in a parallel loop: quantized floats have no atomic add (update it in a serial loop, "
                                 "ti.loop_config(serialize=True))", loc);
      }
    Stmt* old = quant_load(p, loc);
    Stmt* nv = emit_binary(op == ir::AtomicOp::add ? BinaryOp::add : BinaryOp::sub, old, emit_cast(v, Prim::f32, loc),
                           Type::scalar(Prim::f32), loc);
    quant_store(p, nv, loc);
    return old;
  }
  QuantCtx q(*this, ref, loc);
  return q.update(op, v);
}

// The handle global_ptr() returns for element `ops` of quantized field f.
void Lowerer::note_quant_ptr(Stmt* handle, const FieldInfo& f, SourceLoc loc) {
  const QuantSlot& s = *f.quant;
  QuantRef r{&f, handle, nullptr};
  if (!s.array_dims.empty()) {
    Type i32 = Type::scalar(Prim::i32);
    Stmt* cell = nullptr;
    for (auto [v, n] : s.array_dims) {
      Stmt* k = emit_const(ir::Const::of_int(Prim::i32, n), loc);
      Stmt* c = emit_binary(BinaryOp::raw_mod, handle->ops[(size_t)v], k, i32, loc);
      cell = cell ? emit_binary(BinaryOp::add, emit_binary(BinaryOp::mul, cell, k, i32, loc), c, i32, loc) : c;
    }
    Stmt* at = emit_binary(BinaryOp::mul, cell, emit_const(ir::Const::of_int(Prim::i32, s.type.bits), loc), i32, loc);
    r.shift = emit_binary(BinaryOp::add, at, emit_const(ir::Const::of_int(Prim::i32, s.bit_offset), loc), i32, loc);
  } else {
    r.shift = emit_const(ir::Const::of_int(Prim::i32, s.bit_offset), loc);
  }
  quant_refs[handle] = r;
}

}  // namespace kiln::frontend
