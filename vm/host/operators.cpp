// Operators with Python semantics: int arithmetic is checked i64 (overflow is
// an OverflowError), `/` always gives a float, `//` and `%` floor, `**` stays
// int for non-negative int exponents. User classes overload through dunders.
#include <cmath>

#include "vm/host/evaluator.h"
#include "vm/support/format.h"

namespace kiln::host {

using ast::BinOpKind;
using ast::CmpOpKind;

namespace {

const char* dunder(BinOpKind op) {
  switch (op) {
    case BinOpKind::Add: return "__add__";
    case BinOpKind::Sub: return "__sub__";
    case BinOpKind::Mult: return "__mul__";
    case BinOpKind::MatMult: return "__matmul__";
    case BinOpKind::Div: return "__truediv__";
    case BinOpKind::FloorDiv: return "__floordiv__";
    case BinOpKind::Mod: return "__mod__";
    case BinOpKind::Pow: return "__pow__";
    case BinOpKind::LShift: return "__lshift__";
    case BinOpKind::RShift: return "__rshift__";
    case BinOpKind::BitOr: return "__or__";
    case BinOpKind::BitXor: return "__xor__";
    case BinOpKind::BitAnd: return "__and__";
  }
  return "";
}

// CPython's float divmod: the remainder takes the divisor's sign and the
// quotient is rounded so that q * b + r == a as closely as doubles allow.
void float_divmod(double a, double b, double& q, double& r) {
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, b);
  }
  double fl;
  if (div != 0) {
    fl = std::floor(div);
    if (div - fl > 0.5) fl += 1.0;
  } else {
    fl = std::copysign(0.0, a / b);
  }
  q = fl;
  r = mod;
}

int64_t int_floordiv(int64_t a, int64_t b, SourceLoc loc) {
  if (b == 0) raise("ZeroDivisionError", "integer division or modulo by zero", loc);
  if (a == INT64_MIN && b == -1) overflow(loc);
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

int64_t int_mod(int64_t a, int64_t b, SourceLoc loc) {
  if (b == 0) raise("ZeroDivisionError", "integer modulo by zero", loc);
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

Value int_pow(int64_t base, int64_t exp, SourceLoc loc) {
  if (exp < 0) {
    if (base == 0) raise("ZeroDivisionError", "0.0 cannot be raised to a negative power", loc);
    return Value::floating(std::pow((double)base, (double)exp));
  }
  int64_t result = 1;
  while (exp > 0) {
    if (exp & 1) result = checked_mul(result, base, loc);
    exp >>= 1;
    if (exp) base = checked_mul(base, base, loc);
  }
  return Value::integer(result);
}

Value repeat(const std::vector<Value>& items, int64_t n, Kind k) {
  std::vector<Value> out;
  if (n > 0) {
    out.reserve(items.size() * (size_t)n);
    for (int64_t r = 0; r < n; r++) out.insert(out.end(), items.begin(), items.end());
  }
  return k == Kind::Tuple ? make_tuple(std::move(out)) : make_list(std::move(out));
}

const std::vector<Value>& seq_items(const Value& v) {
  return v.kind == Kind::Tuple ? v.as<TupleObj>()->items : v.as<ListObj>()->items;
}

}  // namespace

// Numbers and builtin sequences; returns false when the operand types do not apply.
static bool builtin_binop(Evaluator& ev, BinOpKind op, const Value& a, const Value& b, SourceLoc loc, Value& out) {
  if (a.is_number() && b.is_number()) {
    bool fl = a.kind == Kind::Float || b.kind == Kind::Float;
    if (!fl) {
      int64_t x = a.as_int(), y = b.as_int();
      switch (op) {
        case BinOpKind::Add: out = Value::integer(checked_add(x, y, loc)); return true;
        case BinOpKind::Sub: out = Value::integer(checked_sub(x, y, loc)); return true;
        case BinOpKind::Mult: out = Value::integer(checked_mul(x, y, loc)); return true;
        case BinOpKind::Div:
          if (y == 0) raise("ZeroDivisionError", "division by zero", loc);
          out = Value::floating((double)x / (double)y);
          return true;
        case BinOpKind::FloorDiv: out = Value::integer(int_floordiv(x, y, loc)); return true;
        case BinOpKind::Mod: out = Value::integer(int_mod(x, y, loc)); return true;
        case BinOpKind::Pow: out = int_pow(x, y, loc); return true;
        case BinOpKind::LShift:
          if (y < 0) raise("ValueError", "negative shift count", loc);
          if (x != 0 && (y >= 63 || (x > 0 ? x > (INT64_MAX >> y) : x < (INT64_MIN >> y)))) overflow(loc);
          out = Value::integer(x == 0 ? 0 : (int64_t)((uint64_t)x << y));
          return true;
        case BinOpKind::RShift:
          if (y < 0) raise("ValueError", "negative shift count", loc);
          out = Value::integer(y >= 64 ? (x < 0 ? -1 : 0) : x >> y);
          return true;
        case BinOpKind::BitAnd:
        case BinOpKind::BitOr:
        case BinOpKind::BitXor: {
          int64_t r = op == BinOpKind::BitAnd ? (x & y) : op == BinOpKind::BitOr ? (x | y) : (x ^ y);
          // bool & bool stays a bool
          out = a.kind == Kind::Bool && b.kind == Kind::Bool ? Value::boolean(r != 0) : Value::integer(r);
          return true;
        }
        case BinOpKind::MatMult: return false;
      }
    }
    double x = a.as_double(), y = b.as_double();
    switch (op) {
      case BinOpKind::Add: out = Value::floating(x + y); return true;
      case BinOpKind::Sub: out = Value::floating(x - y); return true;
      case BinOpKind::Mult: out = Value::floating(x * y); return true;
      case BinOpKind::Div:
        if (y == 0) raise("ZeroDivisionError", "float division by zero", loc);
        out = Value::floating(x / y);
        return true;
      case BinOpKind::FloorDiv:
      case BinOpKind::Mod: {
        if (y == 0)
          raise("ZeroDivisionError", op == BinOpKind::Mod ? "float modulo" : "float floor division by zero", loc);
        double q, r;
        float_divmod(x, y, q, r);
        out = Value::floating(op == BinOpKind::Mod ? r : q);
        return true;
      }
      case BinOpKind::Pow:
        if (x == 0 && y < 0) raise("ZeroDivisionError", "0.0 cannot be raised to a negative power", loc);
        if (x < 0 && y != std::floor(y) && std::isfinite(y))
          raise("ValueError", "negative number cannot be raised to a fractional power (complex numbers are not supported)", loc);
        out = Value::floating(std::pow(x, y));
        if (std::isinf(out.f) && std::isfinite(x) && std::isfinite(y)) raise("OverflowError", "(34, 'Numerical result out of range')", loc);
        return true;
      default: return false;
    }
  }
  Kind ka = a.kind, kb = b.kind;
  if (op == BinOpKind::Add) {
    if (ka == Kind::Str && kb == Kind::Str) { out = Value::str(str_of(a) + str_of(b)); return true; }
    if ((ka == Kind::List && kb == Kind::List) || (ka == Kind::Tuple && kb == Kind::Tuple)) {
      std::vector<Value> items = seq_items(a);
      auto& more = seq_items(b);
      items.insert(items.end(), more.begin(), more.end());
      out = ka == Kind::Tuple ? make_tuple(std::move(items)) : make_list(std::move(items));
      return true;
    }
    if (ka == Kind::Str || ka == Kind::List || ka == Kind::Tuple) {
      if (kb == Kind::Instance || kb == Kind::Host) return false;
      std::string w = ka == Kind::Str ? "str" : ka == Kind::List ? "list" : "tuple";
      raise("TypeError", "can only concatenate " + w + " (not \"" + ev.type_name(b) + "\") to " + w, loc);
    }
  }
  if (op == BinOpKind::Mult) {
    bool seq_a = ka == Kind::Str || ka == Kind::List || ka == Kind::Tuple;
    bool seq_b = kb == Kind::Str || kb == Kind::List || kb == Kind::Tuple;
    if (seq_a || seq_b) {
      const Value& s = seq_a ? a : b;
      const Value& n = seq_a ? b : a;
      if (!n.is_int_like()) {
        if (n.kind == Kind::Instance || n.kind == Kind::Host) return false;
        raise("TypeError", "can't multiply sequence by non-int of type '" + ev.type_name(n) + "'", loc);
      }
      int64_t times = n.as_int();
      if (s.kind == Kind::Str) {
        std::string r;
        for (int64_t k = 0; k < times; k++) r += str_of(s);
        out = Value::str(std::move(r));
      } else {
        out = repeat(seq_items(s), times, s.kind);
      }
      return true;
    }
  }
  if (op == BinOpKind::Mod && ka == Kind::Str) {
    out = Value::str(percent_format(ev, str_of(a), b, loc));
    return true;
  }
  return false;
}

Value Evaluator::binop(BinOpKind op, const Value& a, const Value& b, SourceLoc loc) {
  Value out;
  if (builtin_binop(*this, op, a, b, loc, out)) return out;
  // User overloads: a.__op__(b), then b.__rop__(a).
  std::string name = dunder(op);
  Value m;
  if ((a.kind == Kind::Instance || a.kind == Kind::Host) && try_get_attr(a, name, loc, m)) {
    out = call(m, {b}, loc);
    if (!(out.kind == Kind::Builtin && out.as<BuiltinObj>()->name == "NotImplemented")) return out;
  }
  std::string rname = "__r" + name.substr(2);
  if ((b.kind == Kind::Instance || b.kind == Kind::Host) && try_get_attr(b, rname, loc, m)) {
    out = call(m, {a}, loc);
    if (!(out.kind == Kind::Builtin && out.as<BuiltinObj>()->name == "NotImplemented")) return out;
  }
  raise("TypeError", std::string("unsupported operand type(s) for ") + ast::op_symbol(op) + ": '" + type_name(a) +
                         "' and '" + type_name(b) + "'", loc);
}

Value Evaluator::unop(ast::UnaryOpKind op, const Value& a, SourceLoc loc) {
  using U = ast::UnaryOpKind;
  if (op == U::Not) return Value::boolean(!truthy(a, loc));
  if (a.is_number()) {
    switch (op) {
      case U::UAdd: return a.kind == Kind::Float ? a : Value::integer(a.as_int());
      case U::USub:
        if (a.kind == Kind::Float) return Value::floating(-a.f);
        if (a.as_int() == INT64_MIN) overflow(loc);
        return Value::integer(-a.as_int());
      case U::Invert:
        if (a.kind == Kind::Float) break;
        return Value::integer(~a.as_int());
      default: break;
    }
  }
  const char* dn = op == U::UAdd ? "__pos__" : op == U::USub ? "__neg__" : "__invert__";
  Value m;
  if ((a.kind == Kind::Instance || a.kind == Kind::Host) && try_get_attr(a, dn, loc, m)) return call(m, {}, loc);
  raise("TypeError", std::string("bad operand type for unary ") + ast::op_symbol(op) + ": '" + type_name(a) + "'", loc);
}

bool Evaluator::eq(const Value& a, const Value& b, SourceLoc loc) {
  Value m;
  if (a.kind == Kind::Instance && try_get_attr(a, "__eq__", loc, m)) return truthy(call(m, {b}, loc), loc);
  if (b.kind == Kind::Instance && try_get_attr(b, "__eq__", loc, m)) return truthy(call(m, {a}, loc), loc);
  return values_equal(a, b);
}

// a < b for builtin types; user classes through __lt__ (or the reflected __gt__).
bool Evaluator::less(const Value& a, const Value& b, SourceLoc loc) {
  return compare(CmpOpKind::Lt, a, b, loc);
}

static int seq_compare(Evaluator& ev, const std::vector<Value>& x, const std::vector<Value>& y, SourceLoc loc, CmpOpKind op,
                       bool& result) {
  size_t n = std::min(x.size(), y.size());
  for (size_t k = 0; k < n; k++) {
    if (ev.eq(x[k], y[k], loc)) continue;
    result = ev.compare(op, x[k], y[k], loc);
    return 1;
  }
  switch (op) {
    case CmpOpKind::Lt: result = x.size() < y.size(); break;
    case CmpOpKind::LtE: result = x.size() <= y.size(); break;
    case CmpOpKind::Gt: result = x.size() > y.size(); break;
    default: result = x.size() >= y.size(); break;
  }
  return 0;
}

bool Evaluator::compare(CmpOpKind op, const Value& a, const Value& b, SourceLoc loc) {
  switch (op) {
    case CmpOpKind::Eq: return eq(a, b, loc);
    case CmpOpKind::NotEq: {
      Value m;
      if (a.kind == Kind::Instance && try_get_attr(a, "__ne__", loc, m)) return truthy(call(m, {b}, loc), loc);
      return !eq(a, b, loc);
    }
    case CmpOpKind::Is:
    case CmpOpKind::IsNot: {
      bool same = a.kind == b.kind && (a.obj ? a.obj == b.obj : (a.kind == Kind::Float ? a.f == b.f : a.i == b.i));
      if (a.kind == Kind::Bool && b.kind == Kind::Bool) same = a.b == b.b;
      return op == CmpOpKind::Is ? same : !same;
    }
    case CmpOpKind::In: return contains(b, a, loc);
    case CmpOpKind::NotIn: return !contains(b, a, loc);
    default: break;
  }
  if (a.is_number() && b.is_number()) {
    if (a.kind != Kind::Float && b.kind != Kind::Float) {
      int64_t x = a.as_int(), y = b.as_int();
      switch (op) {
        case CmpOpKind::Lt: return x < y;
        case CmpOpKind::LtE: return x <= y;
        case CmpOpKind::Gt: return x > y;
        default: return x >= y;
      }
    }
    double x = a.as_double(), y = b.as_double();
    switch (op) {
      case CmpOpKind::Lt: return x < y;
      case CmpOpKind::LtE: return x <= y;
      case CmpOpKind::Gt: return x > y;
      default: return x >= y;
    }
  }
  if (a.kind == Kind::Str && b.kind == Kind::Str) {
    int c = str_of(a).compare(str_of(b));
    switch (op) {
      case CmpOpKind::Lt: return c < 0;
      case CmpOpKind::LtE: return c <= 0;
      case CmpOpKind::Gt: return c > 0;
      default: return c >= 0;
    }
  }
  if ((a.kind == Kind::List && b.kind == Kind::List) || (a.kind == Kind::Tuple && b.kind == Kind::Tuple)) {
    bool r;
    seq_compare(*this, seq_items(a), seq_items(b), loc, op, r);
    return r;
  }
  static const char* names[] = {"__lt__", "__le__", "__gt__", "__ge__"};
  static const char* reflected[] = {"__gt__", "__ge__", "__lt__", "__le__"};
  int idx = op == CmpOpKind::Lt ? 0 : op == CmpOpKind::LtE ? 1 : op == CmpOpKind::Gt ? 2 : 3;
  Value m;
  if ((a.kind == Kind::Instance || a.kind == Kind::Host) && try_get_attr(a, names[idx], loc, m))
    return truthy(call(m, {b}, loc), loc);
  if ((b.kind == Kind::Instance || b.kind == Kind::Host) && try_get_attr(b, reflected[idx], loc, m))
    return truthy(call(m, {a}, loc), loc);
  raise("TypeError", std::string("'") + ast::op_symbol(op) + "' not supported between instances of '" + type_name(a) +
                         "' and '" + type_name(b) + "'", loc);
}

bool Evaluator::contains(const Value& c, const Value& item, SourceLoc loc) {
  switch (c.kind) {
    case Kind::Str:
      if (item.kind != Kind::Str)
        raise("TypeError", "'in <string>' requires string as left operand, not " + type_name(item), loc);
      return str_of(c).find(str_of(item)) != std::string::npos;
    case Kind::List:
    case Kind::Tuple:
      for (auto& x : seq_items(c))
        if ((x.obj && x.obj == item.obj) || eq(x, item, loc)) return true;
      return false;
    case Kind::Dict: return c.as<DictObj>()->find(item, loc) != nullptr;
    case Kind::Range: {
      auto* r = c.as<RangeObj>();
      if (!item.is_number()) return false;
      if (item.kind == Kind::Float && item.f != std::floor(item.f)) return false;
      int64_t v = item.kind == Kind::Float ? (int64_t)item.f : item.as_int();
      if (r->step > 0 ? (v < r->start || v >= r->stop) : (v > r->start || v <= r->stop)) return false;
      return (v - r->start) % r->step == 0;
    }
    default: break;
  }
  Value m;
  if ((c.kind == Kind::Instance || c.kind == Kind::Host) && try_get_attr(c, "__contains__", loc, m))
    return truthy(call(m, {item}, loc), loc);
  if (c.kind == Kind::Iterator) {
    bool found = false;
    iterate(c, loc, [&](const Value& x) { found = eq(x, item, loc); return !found; });
    return found;
  }
  raise("TypeError", "argument of type '" + type_name(c) + "' is not iterable", loc);
}

bool Evaluator::truthy(const Value& v, SourceLoc loc) {
  if (v.kind != Kind::Instance && v.kind != Kind::Host) return truthy_basic(v);
  Value m;
  if (try_get_attr(v, "__bool__", loc, m)) return truthy(call(m, {}, loc), loc);
  if (try_get_attr(v, "__len__", loc, m)) return truthy(call(m, {}, loc), loc);
  return true;
}

int64_t Evaluator::len(const Value& v, SourceLoc loc) {
  switch (v.kind) {
    case Kind::Str: return (int64_t)utf8_length(str_of(v));
    case Kind::List:
    case Kind::Tuple: return (int64_t)seq_items(v).size();
    case Kind::Dict: return (int64_t)v.as<DictObj>()->size();
    case Kind::Range: return v.as<RangeObj>()->length();
    default: break;
  }
  Value m;
  if ((v.kind == Kind::Instance || v.kind == Kind::Host) && try_get_attr(v, "__len__", loc, m)) {
    Value r = call(m, {}, loc);
    if (!r.is_int_like()) raise("TypeError", "'" + type_name(r) + "' object cannot be interpreted as an integer", loc);
    return r.as_int();
  }
  raise("TypeError", "object of type '" + type_name(v) + "' has no len()", loc);
}

}  // namespace kiln::host
