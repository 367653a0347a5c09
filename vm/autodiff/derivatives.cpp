// The derivative rules of every differentiable IR op (LANGUAGE.md's math
// functions): one switch, shared by both modes.
#include "vm/autodiff/derivatives.h"

#include <functional>

#include "vm/support/diag.h"

namespace kiln::autodiff {

using ir::BinaryOp;
using ir::Stmt;
using ir::StmtKind;
using ir::UnaryOp;

bool is_real(const Stmt* s) {
  return s && s->has_value() && !s->type.is_ptr && s->type.is_scalar() && prim_is_float(s->type.prim);
}

Stmt* Emit::scale(Stmt* g, const Partial& p) {
  switch (p.kind) {
    case Partial::Kind::none: return nullptr;
    case Partial::Kind::one: return g;
    case Partial::Kind::minus_one: return neg(g);
    case Partial::Kind::value: return mul(g, p.v);
  }
  return nullptr;
}

std::array<Partial, 3> partials(Emit& e, const Stmt* s, const std::function<Stmt*(int)>& operand,
                                const std::function<Stmt*()>& result, std::array<bool, 3> need) {
  using K = Partial::Kind;
  std::array<Partial, 3> d{};
  // Primal values, fetched once and only by the rules that use them.
  Stmt* got[3] = {nullptr, nullptr, nullptr};
  Stmt* got_y = nullptr;
  auto op = [&](int i) { return got[i] ? got[i] : got[i] = operand(i); };
  auto y = [&] { return got_y ? got_y : got_y = result(); };
  Prim p = s->type.prim;
  auto one = [&] { return e.k(p, 1.0); };
  auto zero = [&] { return e.k(p, 0.0); };
  auto unsupported = [&](const char* what) {
    raise("NotImplementedError", std::string("automatic differentiation of ") + what + " is not supported", s->loc);
  };
  if (s->kind == StmtKind::select) {
    // select(c, t, f): the gradient goes to the chosen operand
    if (need[1]) d[1] = Partial::of(e.select(op(0), one(), zero()));
    if (need[2]) d[2] = Partial::of(e.select(op(0), zero(), one()));
    return d;
  }
  if (s->kind == StmtKind::unary) {
    auto a = [&] { return op(0); };
    if (!is_real(s->ops[0]) || !need[0]) return d;  // int -> float casts carry no gradient
    switch (s->uop) {
      case UnaryOp::neg: d[0].kind = K::minus_one; break;
      case UnaryOp::cast_value: d[0].kind = K::one; break;  // float -> float (the caller converts the type)
      case UnaryOp::abs: {  // sign(x)
        Stmt* pos = e.bin(BinaryOp::cmp_gt, a(), zero());
        Stmt* negv = e.bin(BinaryOp::cmp_lt, a(), zero());
        d[0] = Partial::of(e.select(pos, one(), e.select(negv, e.k(p, -1.0), zero())));
        break;
      }
      case UnaryOp::sqrt: d[0] = Partial::of(e.div(e.k(p, 0.5), y())); break;
      case UnaryOp::rsqrt: d[0] = Partial::of(e.mul(e.k(p, -0.5), e.div(y(), a()))); break;
      case UnaryOp::sin: d[0] = Partial::of(e.un(UnaryOp::cos, a())); break;
      case UnaryOp::cos: d[0] = Partial::of(e.neg(e.un(UnaryOp::sin, a()))); break;
      case UnaryOp::tan: d[0] = Partial::of(e.add(one(), e.mul(y(), y()))); break;
      case UnaryOp::asin:
        d[0] = Partial::of(e.div(one(), e.un(UnaryOp::sqrt, e.sub(one(), e.mul(a(), a())))));
        break;
      case UnaryOp::acos:
        d[0] = Partial::of(e.div(e.k(p, -1.0), e.un(UnaryOp::sqrt, e.sub(one(), e.mul(a(), a())))));
        break;
      case UnaryOp::atan: d[0] = Partial::of(e.div(one(), e.add(one(), e.mul(a(), a())))); break;
      case UnaryOp::tanh: d[0] = Partial::of(e.sub(one(), e.mul(y(), y()))); break;
      case UnaryOp::exp: d[0] = Partial::of(y()); break;
      case UnaryOp::log: d[0] = Partial::of(e.div(one(), a())); break;
      case UnaryOp::floor:
      case UnaryOp::ceil:
      case UnaryOp::round:
      case UnaryOp::cast_bits: break;  // piecewise constant / a reinterpretation
      default: unsupported(ir::unary_op_name(s->uop));
    }
    return d;
  }
  if (s->kind != StmtKind::binary) unsupported(ir::stmt_kind_name(s->kind));
  auto a = [&] { return op(0); };
  auto b = [&] { return op(1); };
  switch (s->bop) {
    case BinaryOp::add: d[0].kind = d[1].kind = K::one; break;
    case BinaryOp::sub: d[0].kind = K::one; d[1].kind = K::minus_one; break;
    case BinaryOp::mul:
      if (need[0]) d[0] = Partial::of(b());
      if (need[1]) d[1] = Partial::of(a());
      break;
    case BinaryOp::div:
      if (need[0]) d[0] = Partial::of(e.div(one(), b()));
      if (need[1]) d[1] = Partial::of(e.neg(e.div(a(), e.mul(b(), b()))));
      break;
    case BinaryOp::pow:  // d/da = b a^(b-1), d/db = a^b log a
      if (need[0]) d[0] = Partial::of(e.mul(b(), e.bin(BinaryOp::pow, a(), e.sub(b(), one()))));
      if (need[1]) d[1] = Partial::of(e.mul(y(), e.un(UnaryOp::log, a())));
      break;
    case BinaryOp::max:
      if (need[0]) d[0] = Partial::of(e.select(e.bin(BinaryOp::cmp_gt, a(), b()), one(), zero()));
      if (need[1]) d[1] = Partial::of(e.select(e.bin(BinaryOp::cmp_gt, a(), b()), zero(), one()));
      break;
    case BinaryOp::min:
      if (need[0]) d[0] = Partial::of(e.select(e.bin(BinaryOp::cmp_lt, a(), b()), one(), zero()));
      if (need[1]) d[1] = Partial::of(e.select(e.bin(BinaryOp::cmp_lt, a(), b()), zero(), one()));
      break;
    case BinaryOp::atan2: {  // atan2(a, b): d/da = b / (a^2 + b^2), d/db = -a / (a^2 + b^2)
      Stmt* r = e.add(e.mul(a(), a()), e.mul(b(), b()));
      if (need[0]) d[0] = Partial::of(e.div(b(), r));
      if (need[1]) d[1] = Partial::of(e.neg(e.div(a(), r)));
      break;
    }
    case BinaryOp::mod:
    case BinaryOp::raw_mod:  // y = a - q b with q = floor or trunc of a / b, constant piecewise
      d[0].kind = K::one;
      if (need[1]) d[1] = Partial::of(e.neg(e.div(e.sub(a(), y()), b())));  // -q
      break;
    case BinaryOp::floordiv: break;  // piecewise constant
    default:
      if (ir::is_comparison(s->bop)) break;
      unsupported(ir::binary_op_name(s->bop));
  }
  return d;
}

}  // namespace kiln::autodiff
