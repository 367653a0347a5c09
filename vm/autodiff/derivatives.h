// Local derivatives: for one value statement, the partial derivative of its
// result with respect to each operand, as IR emitted at the current point.
// Both modes use them: reverse mode scales an adjoint by them, forward mode
// sums tangents scaled by them. Every rule matches Taichi's (d|x| = sign(x),
// max passes the gradient to the larger operand, ...).
#pragma once
#include <array>
#include <functional>

#include "vm/ir/builder.h"

namespace kiln::autodiff {

// A partial derivative: absent (the operand does not influence the result
// differentiably), exactly 1 or -1 (no multiply needed), or a value.
struct Partial {
  enum class Kind : uint8_t { none, one, minus_one, value } kind = Kind::none;
  ir::Stmt* v = nullptr;
  static Partial of(ir::Stmt* s) { return {Kind::value, s}; }
};

// Builds arithmetic in one float type at the builder's cursor.
struct Emit {
  ir::Builder b;
  SourceLoc loc;
  explicit Emit(ir::Block& blk, SourceLoc l = {}) : b(blk), loc(l) {}
  ir::Stmt* at(ir::Stmt* s) { s->loc = loc; return s; }
  ir::Stmt* k(Prim p, double v) { return at(b.const_float(p, v)); }
  ir::Stmt* bin(ir::BinaryOp op, ir::Stmt* x, ir::Stmt* y) { return at(b.binary(op, x, y)); }
  ir::Stmt* un(ir::UnaryOp op, ir::Stmt* x) { return at(b.unary(op, x)); }
  ir::Stmt* add(ir::Stmt* x, ir::Stmt* y) { return bin(ir::BinaryOp::add, x, y); }
  ir::Stmt* sub(ir::Stmt* x, ir::Stmt* y) { return bin(ir::BinaryOp::sub, x, y); }
  ir::Stmt* mul(ir::Stmt* x, ir::Stmt* y) { return bin(ir::BinaryOp::mul, x, y); }
  ir::Stmt* div(ir::Stmt* x, ir::Stmt* y) { return bin(ir::BinaryOp::div, x, y); }
  ir::Stmt* neg(ir::Stmt* x) { return un(ir::UnaryOp::neg, x); }
  ir::Stmt* select(ir::Stmt* c, ir::Stmt* t, ir::Stmt* f) { return at(b.select(c, t, f)); }
  // g scaled by partial p (null when p is none).
  ir::Stmt* scale(ir::Stmt* g, const Partial& p);
};

// True for a statement whose value carries a derivative (a float scalar).
bool is_real(const ir::Stmt* s);

// The partials of `s` (unary, binary or select of real type) with respect to
// ops[0..2]. `x(i)` gives primal operand i and `y()` the primal result as
// values usable at the emitter's point (the caller decides where they come
// from: reverse mode tapes them); each is asked for only by the rules that
// use it, at most once. Only the partials `need` names are built (reverse
// mode asks for none of a constant's: each primal fetched is a value taped in
// a loop). Throws NotImplementedError for an op without a rule.
std::array<Partial, 3> partials(Emit& e, const ir::Stmt* s, const std::function<ir::Stmt*(int)>& x,
                                const std::function<ir::Stmt*()>& y, std::array<bool, 3> need = {true, true, true});

}  // namespace kiln::autodiff
