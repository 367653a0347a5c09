// Compile-time evaluation inside kernels: ti.static(...), annotations, loop
// bounds of ti.static loops, default arguments. Python semantics on Python
// values; anything else is asked of the host (attributes, calls).
#include <cmath>

#include "vm/frontend/lower.h"

namespace kiln::frontend {

using K = StaticValue::Kind;

static bool is_num(const StaticValue& v) { return v.kind == K::integer || v.kind == K::floating || v.kind == K::boolean; }
static double as_f(const StaticValue& v) { return v.kind == K::floating ? v.f : v.kind == K::boolean ? (double)v.b : (double)v.big(); }
static __int128 as_i(const StaticValue& v) { return v.kind == K::boolean ? (__int128)v.b : v.big(); }

std::string big_text(__int128 v) {
  if (v == (__int128)(int64_t)v) return std::to_string((int64_t)v);
  bool neg = v < 0;
  unsigned __int128 u = neg ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
  std::string s;
  while (u) {
    s.insert(s.begin(), (char)('0' + (int)(u % 10)));
    u /= 10;
  }
  return neg ? "-" + s : s;
}
bool static_truthy(const StaticValue& v) {
  switch (v.kind) {
    case K::none: return false;
    case K::boolean: return v.b;
    case K::integer: return v.i != 0;
    case K::floating: return v.f != 0;
    case K::string: return !v.s.empty();
    case K::tuple: return !v.elems.empty();
    default: return true;
  }
}

static __int128 floordiv(__int128 a, __int128 b) {
  __int128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

StaticValue static_binop(ast::BinOpKind op, const StaticValue& a, const StaticValue& b, SourceLoc loc) {
  using O = ast::BinOpKind;
  if (op == O::Add && a.kind == K::string && b.kind == K::string) {
    StaticValue s = a;
    s.s += b.s;
    return s;
  }
  if (op == O::Add && a.kind == K::tuple && b.kind == K::tuple) {
    StaticValue t = a;
    t.elems.insert(t.elems.end(), b.elems.begin(), b.elems.end());
    return t;
  }
  if (op == O::Mult && (a.kind == K::tuple || b.kind == K::tuple) && (a.kind == K::integer || b.kind == K::integer)) {
    // [n] * dim: repetition, as in Python
    const StaticValue& t = a.kind == K::tuple ? a : b;
    int64_t k = a.kind == K::integer ? a.i : b.i;
    StaticValue r;
    r.kind = K::tuple;
    for (int64_t i = 0; i < k; i++) r.elems.insert(r.elems.end(), t.elems.begin(), t.elems.end());
    return r;
  }
  if (!is_num(a) || !is_num(b))
    raise("TypeError", std::string("unsupported operand types for ") + ast::op_symbol(op) + ": " + describe_static(a) +
                           " and " + describe_static(b), loc);
  bool ints = a.kind != K::floating && b.kind != K::floating;
  auto zero = [&]() { raise("ZeroDivisionError", "division by zero", loc); };
  if (ints) {
    // Python's ints are unbounded; 128 bits hold every value a Taichi type
    // can (2 ** 64 - 1 is a u64 literal) and what it takes to get there.
    __int128 x = as_i(a), y = as_i(b), r = 0;
    auto big = [&](bool overflow) {
      if (overflow)
        raise("OverflowError", std::string("the compile-time integer ") + ast::op_symbol(op) + " of " + big_text(x) +
                                   " and " + big_text(y) + " does not fit in 128 bits", loc);
      return StaticValue::of_big(r);
    };
    switch (op) {
      case O::Add: return big(__builtin_add_overflow(x, y, &r));
      case O::Sub: return big(__builtin_sub_overflow(x, y, &r));
      case O::Mult: return big(__builtin_mul_overflow(x, y, &r));
      case O::Div: if (!y) zero(); return StaticValue::of_float((double)x / (double)y);
      case O::FloorDiv: if (!y) zero(); r = floordiv(x, y); return big(false);
      case O::Mod: if (!y) zero(); r = x - floordiv(x, y) * y; return big(false);
      case O::Pow: {
        if (y < 0) return StaticValue::of_float(std::pow((double)x, (double)y));
        r = 1;
        bool over = false;
        while (y-- && !over) over = __builtin_mul_overflow(r, x, &r);
        return big(over);
      }
      case O::LShift:
        if (y < 0) raise("ValueError", "negative shift count", loc);
        r = y >= 127 ? 0 : (__int128)((unsigned __int128)x << (int)y);
        return big(x != 0 && (y >= 127 || (r >> (int)y) != x));
      case O::RShift:
        if (y < 0) raise("ValueError", "negative shift count", loc);
        r = x >> (int)(y > 127 ? 127 : y);
        return big(false);
      case O::BitAnd: r = x & y; return big(false);
      case O::BitOr: r = x | y; return big(false);
      case O::BitXor: r = x ^ y; return big(false);
      default: break;
    }
  } else {
    double x = as_f(a), y = as_f(b);
    switch (op) {
      case O::Add: return StaticValue::of_float(x + y);
      case O::Sub: return StaticValue::of_float(x - y);
      case O::Mult: return StaticValue::of_float(x * y);
      case O::Div: if (y == 0) zero(); return StaticValue::of_float(x / y);
      case O::FloorDiv: if (y == 0) zero(); return StaticValue::of_float(std::floor(x / y));
      case O::Mod: if (y == 0) zero(); return StaticValue::of_float(x - std::floor(x / y) * y);
      case O::Pow: return StaticValue::of_float(std::pow(x, y));
      default: break;
    }
  }
  raise("TypeError", std::string("unsupported operator ") + ast::op_symbol(op) + " in a compile-time expression", loc);
}

bool static_equal(const StaticValue& a, const StaticValue& b) {
  if (is_num(a) && is_num(b)) return as_f(a) == as_f(b) && (a.kind == K::floating || b.kind == K::floating || as_i(a) == as_i(b));
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case K::none: return true;
    case K::string: return a.s == b.s;
    case K::dtype: return a.prim == b.prim;
    case K::field: return a.field == b.field;
    case K::func: case K::kernel: return a.def == b.def;
    case K::builtin: return a.s == b.s;
    case K::tuple:
      if (a.elems.size() != b.elems.size()) return false;
      for (size_t i = 0; i < a.elems.size(); i++)
        if (!static_equal(a.elems[i], b.elems[i])) return false;
      return true;
    default: return a.handle == b.handle;
  }
}

static StaticValue static_compare(ast::CmpOpKind op, const StaticValue& a, const StaticValue& b, SourceLoc loc) {
  using C = ast::CmpOpKind;
  switch (op) {
    case C::Eq: case C::Is: return StaticValue::of_bool(static_equal(a, b));
    case C::NotEq: case C::IsNot: return StaticValue::of_bool(!static_equal(a, b));
    case C::In: case C::NotIn: {
      if (b.kind != K::tuple) raise("TypeError", "'in' needs a tuple or list on its right", loc);
      bool found = false;
      for (auto& e : b.elems) found |= static_equal(a, e);
      return StaticValue::of_bool(op == C::In ? found : !found);
    }
    default: break;
  }
  if (!is_num(a) || !is_num(b)) raise("TypeError", std::string("'") + ast::op_symbol(op) + "' needs numbers at compile time", loc);
  if (a.kind != K::floating && b.kind != K::floating) {  // exactly, beyond a double's 53 bits
    __int128 x = as_i(a), y = as_i(b);
    return StaticValue::of_bool(op == C::Lt ? x < y : op == C::LtE ? x <= y : op == C::Gt ? x > y : x >= y);
  }
  double x = as_f(a), y = as_f(b);
  bool r = op == C::Lt ? x < y : op == C::LtE ? x <= y : op == C::Gt ? x > y : x >= y;
  return StaticValue::of_bool(r);
}

// The name of Python's operator-module function for a binary operator.
static const char* operator_name(ast::BinOpKind op) {
  using O = ast::BinOpKind;
  switch (op) {
    case O::Add: return "add";
    case O::Sub: return "sub";
    case O::Mult: return "mul";
    case O::MatMult: return "matmul";
    case O::Div: return "truediv";
    case O::FloorDiv: return "floordiv";
    case O::Mod: return "mod";
    case O::Pow: return "pow";
    case O::LShift: return "lshift";
    case O::RShift: return "rshift";
    case O::BitOr: return "or_";
    case O::BitXor: return "xor";
    case O::BitAnd: return "and_";
  }
  return "add";
}

StaticValue Lowerer::host_operator(const char* name, const std::vector<StaticValue>& args, SourceLoc loc) {
  StaticValue fn;
  try {
    std::optional<StaticValue> imp = host.lookup(frame().env, "__import__");
    if (!imp) throw Error("NameError", "__import__");
    StaticValue module;
    module.kind = K::string;
    module.s = "operator";
    fn = host.attr(host.call(*imp, {module}, loc), name, loc);
  } catch (const Error&) {
    raise("TypeError", std::string("operator.") + name + " on " + describe_static(args[0]) +
                           " needs the Python host (this host has no objects to compute with)", loc);
  }
  return host.call(fn, args, loc);
}

StaticValue Lowerer::host_binop(ast::BinOpKind op, const StaticValue& a, const StaticValue& b, SourceLoc loc) {
  return host_operator(operator_name(op), {a, b}, loc);
}

StaticValue Lowerer::host_tuple(const StaticValue& seq, SourceLoc loc) {
  StaticValue n = host_operator("length_hint", {seq}, loc);
  if (n.kind != K::integer) raise("TypeError", describe_static(seq) + " has no length to unpack", loc);
  StaticValue t;
  t.kind = K::tuple;
  for (int64_t i = 0; i < n.i; i++) t.elems.push_back(host_operator("getitem", {seq, StaticValue::of_int(i)}, loc));
  return t;
}

StaticValue Lowerer::eval_static(const ast::Expr* e) {
  using EK = ast::ExprKind;
  switch (e->kind) {
    case EK::Constant: {
      auto* c = e->as<ast::Constant>();
      switch (c->tag) {
        case ast::Constant::Tag::Bool: return StaticValue::of_bool(c->b);
        case ast::Constant::Tag::Int: return StaticValue::of_int(c->i);
        case ast::Constant::Tag::Float: return StaticValue::of_float(c->f);
        case ast::Constant::Tag::Str: { StaticValue s; s.kind = K::string; s.s = c->s; return s; }
        default: return {};
      }
    }
    case EK::JoinedStr: {  // format specs and messages: constant pieces only
      StaticValue s;
      s.kind = K::string;
      for (auto* p : e->as<ast::JoinedStr>()->values) {
        if (p->kind != EK::Constant) raise("TypeError", "this f-string must be a compile-time constant", p->loc);
        s.s += p->as<ast::Constant>()->s;
      }
      return s;
    }
    case EK::Name: {
      const std::string& id = e->as<ast::Name>()->id;
      if (Binding* b = find_local(id)) {
        if (b->kind == Binding::Kind::static_) return b->s;
        raise("TypeError", "'" + id + "' is not a compile-time constant here", e->loc);
      }
      if (auto v = host.lookup(frame().env, id)) return *v;
      raise("NameError", "name '" + id + "' is not defined", e->loc);
    }
    case EK::Attribute: {
      auto* a = e->as<ast::Attribute>();
      // `A.n` of a kernel vector or matrix: its shape is a compile-time constant.
      if (a->value->kind == EK::Name) {
        Binding* b = find_local(a->value->as<ast::Name>()->id);
        if (b && b->kind != Binding::Kind::static_) {
          KVal k = lower_expr(e);
          if (k.is_static()) return k.s;
          raise("TypeError", "'" + a->value->as<ast::Name>()->id + "." + a->attr + "' is not a compile-time constant here", e->loc);
        }
      }
      return host.attr(eval_static(a->value), a->attr, e->loc);
    }
    case EK::Subscript: {
      auto* s = e->as<ast::Subscript>();
      StaticValue base = eval_static(s->value);
      StaticValue idx = eval_static(s->slice);
      if (base.kind == K::object) return host_operator("getitem", {base, idx}, e->loc);
      if (base.kind != K::tuple || idx.kind != K::integer)
        raise("TypeError", "compile-time subscripts need a tuple and an int", e->loc);
      int64_t i = idx.i < 0 ? idx.i + (int64_t)base.elems.size() : idx.i;
      if (i < 0 || i >= (int64_t)base.elems.size()) raise("IndexError", "tuple index out of range", s->slice->loc);
      return base.elems[i];
    }
    case EK::Tuple:
    case EK::List: {
      StaticValue t;
      t.kind = K::tuple;
      for (auto* x : e->kind == EK::Tuple ? e->as<ast::Tuple>()->elts : e->as<ast::List>()->elts) t.elems.push_back(eval_static(x));
      return t;
    }
    case EK::BinOp: {
      auto* b = e->as<ast::BinOp>();
      StaticValue l = eval_static(b->left), r = eval_static(b->right);
      if (l.kind == K::object || r.kind == K::object) return host_binop(b->op, l, r, e->loc);
      return static_binop(b->op, l, r, e->loc);
    }
    case EK::UnaryOp: {
      auto* u = e->as<ast::UnaryOp>();
      StaticValue v = eval_static(u->operand);
      switch (u->op) {
        case ast::UnaryOpKind::Not: return StaticValue::of_bool(!static_truthy(v));
        case ast::UnaryOpKind::UAdd: return v;
        case ast::UnaryOpKind::USub:
          if (v.kind == K::floating) return StaticValue::of_float(-v.f);
          if (is_num(v)) return StaticValue::of_big(-as_i(v));
          break;
        case ast::UnaryOpKind::Invert:
          if (v.kind == K::integer || v.kind == K::boolean) return StaticValue::of_big(~as_i(v));
          break;
      }
      raise("TypeError", std::string("bad operand for unary ") + ast::op_symbol(u->op) + ": " + describe_static(v), e->loc);
    }
    case EK::BoolOp: {
      auto* b = e->as<ast::BoolOp>();
      StaticValue v;
      for (auto* x : b->values) {
        v = eval_static(x);
        if ((b->op == ast::BoolOpKind::And) != static_truthy(v)) return v;
      }
      return v;
    }
    case EK::Compare: {
      auto* c = e->as<ast::Compare>();
      StaticValue left = eval_static(c->left);
      for (size_t i = 0; i < c->ops.size(); i++) {
        StaticValue right = eval_static(c->comparators[i]);
        if (!static_compare(c->ops[i], left, right, e->loc).b) return StaticValue::of_bool(false);
        left = right;
      }
      return StaticValue::of_bool(true);
    }
    case EK::NamedExpr: {  // ti.static(range((n := k * 2))): n becomes a compile-time name
      auto* x = e->as<ast::NamedExpr>();
      StaticValue v = eval_static(x->value);
      const std::string& id = x->target->id;
      Binding* old = find_local(id);
      if (old && old->kind != Binding::Kind::static_)
        raise("TypeError", "'" + id + "' is a run-time variable; a compile-time expression cannot reassign it",
              x->target->loc);
      bind_static(id, v);
      return v;
    }
    case EK::IfExp: {
      auto* x = e->as<ast::IfExp>();
      return eval_static(static_truthy(eval_static(x->test)) ? x->body : x->orelse);
    }
    case EK::Call: {
      auto* c = e->as<ast::Call>();
      if (auto r = ndarray_method(c)) return *r;
      StaticValue fn = eval_static(c->func);
      std::vector<StaticValue> args;
      for (auto* a : c->args) {
        if (a->kind == ast::ExprKind::Starred) {  // f(*t) with t a compile-time tuple
          StaticValue t = eval_static(a->as<ast::Starred>()->value);
          if (t.kind == K::object) t = host_tuple(t, a->loc);
          if (t.kind != K::tuple) raise("TypeError", "*args in a compile-time call must be a tuple", a->loc);
          args.insert(args.end(), t.elems.begin(), t.elems.end());
        } else {
          args.push_back(eval_static(a));
        }
      }
      if (fn.kind == K::builtin) {
        const std::string& n = fn.s;
        if (n == "ti.static" && args.size() == 1) return args[0];
        if (n == "ti.static" && args.size() > 1) {
          StaticValue t;
          t.kind = K::tuple;
          t.elems = args;
          return t;
        }
        if (n == "range") {
          for (auto& a : args)
            if (a.kind != K::integer) raise("TypeError", "range() arguments must be integers", c->loc);
          int64_t lo = 0, hi = 0, step = 1;
          if (args.size() == 1) hi = args[0].i;
          else if (args.size() >= 2) { lo = args[0].i; hi = args[1].i; }
          if (args.size() == 3) step = args[2].i;
          if (args.empty() || args.size() > 3 || step == 0) raise("TypeError", "bad arguments to range()", c->loc);
          StaticValue t;
          t.kind = K::tuple;
          for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) t.elems.push_back(StaticValue::of_int(i));
          return t;
        }
        if (n == "len" && args.size() == 1 && args[0].kind == K::tuple) return StaticValue::of_int((int64_t)args[0].elems.size());
        if (n == "len" && args.size() == 1 && args[0].kind == K::string) return StaticValue::of_int((int64_t)args[0].s.size());
        if (n == "int" && args.size() == 1 && is_num(args[0]))
          return StaticValue::of_big(args[0].kind == K::floating ? (__int128)args[0].f : as_i(args[0]));
        if (n == "float" && args.size() == 1 && is_num(args[0])) return StaticValue::of_float(as_f(args[0]));
      }
      if (!c->keywords.empty()) raise("TypeError", "keyword arguments are not supported in compile-time calls", c->loc);
      return host.call(fn, args, c->loc);
    }
    default: break;
  }
  raise("TypeError", "'" + ast::unparse(e) + "' cannot be evaluated at compile time", e->loc);
}

}  // namespace kiln::frontend
