// Arithmetic and linear algebra on host matrices. In Python scope Taichi
// evaluates these with numpy (ops._binary_operation applies the operator to
// the numpy arrays; matrix_ops' @pyfunc bodies run on numpy scalars), so
// result dtypes follow numpy's promotion, and scalars from Python are
// "weak" (NEP 50: int64 array + 1.5 -> float64, float32 array + 1.5 ->
// float32). Float math is done in double and rounded to the result dtype,
// which for + - * / sqrt gives exactly the float32 result.
#include <cmath>

#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"
#include "vm/host/ti_compound.h"

namespace kiln::host {

using ast::BinOpKind;
using ast::CmpOpKind;

Prim np_infer(const std::vector<Value>& vals);
Prim matrix_dtype(const MatrixObj& mo, SourceLoc loc);
std::vector<int64_t> matrix_shape(const MatrixObj& mo);

namespace {

}  // namespace

// numpy's promote_types over Kiln's prims (Prim::none = bool).
Prim np_promote(Prim a, Prim b) {
  if (a == Prim::none) return b;
  if (b == Prim::none) return a;
  if (a == b) return a;
  if (a == Prim::bf16) a = Prim::f32;
  if (b == Prim::bf16) b = Prim::f32;
  bool fa = prim_is_float(a), fb = prim_is_float(b);
  if (fa && fb) return prim_bits(a) >= prim_bits(b) ? a : b;
  if (fa || fb) {
    Prim f = fa ? a : b, i = fa ? b : a;
    // the smallest float that holds the integer type, as numpy picks it
    Prim need = prim_bits(i) == 8 ? Prim::f16 : prim_bits(i) == 16 ? Prim::f32 : Prim::f64;
    return prim_bits(need) >= prim_bits(f) ? need : f;
  }
  bool sa = prim_is_signed(a), sb = prim_is_signed(b);
  if (sa == sb) return prim_bits(a) >= prim_bits(b) ? a : b;
  Prim s = sa ? a : b, u = sa ? b : a;
  if (prim_bits(s) > prim_bits(u)) return s;
  switch (prim_bits(u)) {
    case 8: return Prim::i16;
    case 16: return Prim::i32;
    case 32: return Prim::i64;
    default: return Prim::f64;
  }
}

namespace {

// An operand: a matrix (strong dtype) or a Python scalar (weak).
struct Operand {
  std::vector<int64_t> shape;  // empty for a scalar
  std::vector<Value> vals;
  Prim dtype = Prim::i64;
  bool weak = false;
};

bool operand(Evaluator& ev, const Value& v, SourceLoc loc, Operand& o) {
  if (auto* mo = host_as<MatrixObj>(v)) {
    o.shape = matrix_shape(*mo);
    o.vals = mo->values(loc);
    o.dtype = matrix_dtype(*mo, loc);
    return true;
  }
  if (v.is_number()) {
    o.vals = {v};
    o.dtype = v.kind == Kind::Float ? Prim::f64 : v.kind == Kind::Int ? Prim::i64 : Prim::none;
    o.weak = true;
    return true;
  }
  if (v.kind == Kind::List || v.kind == Kind::Tuple) {  // np.asarray of a (flat) list
    o.vals = ev.to_vector(v, loc);
    for (auto& x : o.vals)
      if (!x.is_number()) return false;
    o.shape = {(int64_t)o.vals.size()};
    o.dtype = np_infer(o.vals);
    return true;
  }
  return false;
}

Prim result_dtype(const Operand& a, const Operand& b) {
  if (a.weak == b.weak) return np_promote(a.dtype, b.dtype);
  const Operand& arr = a.weak ? b : a;
  const Operand& s = a.weak ? a : b;
  if (s.dtype == Prim::f64) return prim_is_float(arr.dtype) ? arr.dtype : Prim::f64;
  if (s.dtype == Prim::i64) return arr.dtype == Prim::none ? Prim::i64 : arr.dtype;
  return arr.dtype;
}

int64_t ipow(int64_t b, int64_t e) {
  uint64_t r = 1, x = (uint64_t)b;
  while (e > 0) {
    if (e & 1) r *= x;
    x *= x;
    e >>= 1;
  }
  return (int64_t)r;
}

}  // namespace

// One element of `x op y` computed in dtype `ct` (numpy's loops), cast to it.
Value np_scalar_op(Evaluator& ev, BinOpKind op, const Value& x, const Value& y, Prim ct, SourceLoc loc) {
  if (op == BinOpKind::Div && !prim_is_float(ct)) ct = Prim::f64;
  if (ct == Prim::none && op != BinOpKind::BitAnd && op != BinOpKind::BitOr && op != BinOpKind::BitXor) ct = Prim::i64;
  if (prim_is_float(ct)) {
    double a = x.as_double(), b = y.as_double(), r = 0;
    switch (op) {
      case BinOpKind::Add: r = a + b; break;
      case BinOpKind::Sub: r = a - b; break;
      case BinOpKind::Mult: r = a * b; break;
      case BinOpKind::Div: r = a / b; break;
      case BinOpKind::Pow: r = std::pow(a, b); break;
      case BinOpKind::FloorDiv:
      case BinOpKind::Mod: {
        // numpy's npy_divmod: Python's floor semantics, inf/nan on zero
        if (b == 0) { r = op == BinOpKind::Mod ? std::fmod(a, b) : a / b; break; }
        double mod = std::fmod(a, b), div = (a - mod) / b;
        if (mod != 0) {
          if ((b < 0) != (mod < 0)) { mod += b; div -= 1.0; }
        } else {
          mod = std::copysign(0.0, b);
        }
        double fl = std::floor(div);
        if (div - fl > 0.5) fl += 1.0;
        r = op == BinOpKind::Mod ? mod : fl;
        break;
      }
      default:
        raise("TypeError", std::string("ufunc '") + ast::op_symbol(op) + "' not supported for the input types", loc);
    }
    return np_cast(ev, Value::floating(r), ct, loc);
  }
  if (ct == Prim::none) {
    bool a = ev.truthy(x), b = ev.truthy(y);
    bool r = op == BinOpKind::BitAnd ? (a && b) : op == BinOpKind::BitOr ? (a || b) : (a != b);
    return Value::boolean(r);
  }
  int64_t a = x.as_int(), b = y.as_int();
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  bool sg = prim_is_signed(ct);
  int64_t r = 0;
  switch (op) {
    case BinOpKind::Add: r = (int64_t)(ua + ub); break;
    case BinOpKind::Sub: r = (int64_t)(ua - ub); break;
    case BinOpKind::Mult: r = (int64_t)(ua * ub); break;
    case BinOpKind::FloorDiv:
      if (b == 0) r = 0;  // numpy: 0 and a RuntimeWarning
      else if (!sg) r = (int64_t)(ua / ub);
      else if (a == INT64_MIN && b == -1) r = a;
      else { r = a / b; if ((a % b != 0) && ((a < 0) != (b < 0))) r--; }
      break;
    case BinOpKind::Mod:
      if (b == 0) r = 0;
      else if (!sg) r = (int64_t)(ua % ub);
      else if (b == -1) r = 0;
      else { r = a % b; if (r != 0 && ((r < 0) != (b < 0))) r += b; }
      break;
    case BinOpKind::Pow:
      if (b < 0 && sg) raise("ValueError", "Integers to negative integer powers are not allowed.", loc);
      r = ipow(a, b);
      break;
    case BinOpKind::BitAnd: r = a & b; break;
    case BinOpKind::BitOr: r = a | b; break;
    case BinOpKind::BitXor: r = a ^ b; break;
    case BinOpKind::LShift: r = (b < 0 || b >= 64) ? 0 : (int64_t)(ua << b); break;
    case BinOpKind::RShift:
      if (sg) r = (b < 0 || b >= 64) ? (a < 0 ? -1 : 0) : (a >> b);
      else r = (b < 0 || b >= 64) ? 0 : (int64_t)(ua >> b);
      break;
    default: raise("TypeError", std::string("unsupported operand for ") + ast::op_symbol(op), loc);
  }
  return np_cast(ev, Value::integer(r), ct, loc);
}

// One element of `x op y` compared in dtype `ct` (NaN compares unequal to everything).
bool np_compare_scalar(CmpOpKind op, const Value& x, const Value& y, Prim ct) {
  int c;
  if (prim_is_float(ct)) {
    double a = x.as_double(), b = y.as_double();
    if (std::isnan(a) || std::isnan(b)) return op == CmpOpKind::NotEq;
    c = a < b ? -1 : a > b ? 1 : 0;
  } else if (ct != Prim::none && !prim_is_signed(ct)) {
    uint64_t a = (uint64_t)x.as_int(), b = (uint64_t)y.as_int();
    c = a < b ? -1 : a > b ? 1 : 0;
  } else {
    int64_t a = x.as_int(), b = y.as_int();
    c = a < b ? -1 : a > b ? 1 : 0;
  }
  switch (op) {
    case CmpOpKind::Eq: return c == 0;
    case CmpOpKind::NotEq: return c != 0;
    case CmpOpKind::Lt: return c < 0;
    case CmpOpKind::LtE: return c <= 0;
    case CmpOpKind::Gt: return c > 0;
    default: return c >= 0;
  }
}

namespace {


std::string shape_str(const std::vector<int64_t>& s) {
  std::string r = "(";
  for (size_t k = 0; k < s.size(); k++) r += (k ? "," : "") + std::to_string(s[k]);
  return r + (s.size() == 1 ? ",)" : ")");
}

// numpy broadcasting for the shapes a host matrix can have (rank <= 2).
std::vector<int64_t> broadcast(const Operand& a, const Operand& b, SourceLoc loc) {
  if (a.shape.empty()) return b.shape;
  if (b.shape.empty() || a.shape == b.shape) return a.shape;
  size_t r = std::max(a.shape.size(), b.shape.size());
  std::vector<int64_t> out(r);
  for (size_t k = 0; k < r; k++) {
    int64_t x = k + a.shape.size() >= r ? a.shape[k + a.shape.size() - r] : 1;
    int64_t y = k + b.shape.size() >= r ? b.shape[k + b.shape.size() - r] : 1;
    if (x != y && x != 1 && y != 1)
      raise("ValueError", "operands could not be broadcast together with shapes " + shape_str(a.shape) + " " + shape_str(b.shape) + " ", loc);
    out[k] = std::max(x, y);
  }
  return out;
}

const Value& at(const Operand& o, const std::vector<int64_t>& shape, int64_t flat) {
  if (o.shape.empty()) return o.vals[0];
  // index of `flat` in `shape`, then into o's (right-aligned, size-1 axes broadcast)
  int64_t off = 0, stride = 1, rest = flat;
  for (size_t k = shape.size(); k-- > 0;) {
    int64_t i = rest % shape[k];
    rest /= shape[k];
    size_t ok = k + o.shape.size();
    if (ok >= shape.size()) {
      int64_t dim = o.shape[ok - shape.size()];
      off += (dim == 1 ? 0 : i) * stride;
      stride *= dim;
    }
  }
  return o.vals[(size_t)off];
}

Value from_shape(Evaluator& ev, const std::vector<int64_t>& shape, Prim dt, std::vector<Value> vals, SourceLoc loc) {
  if (shape.size() == 1) return make_matrix(ev, (int)shape[0], 1, 1, dt, std::move(vals), loc);
  return make_matrix(ev, (int)shape[0], (int)shape[1], 2, dt, std::move(vals), loc);
}

}  // namespace

// a op b with at least one host matrix; false when an operand is not numeric.
bool matrix_binop(Evaluator& ev, BinOpKind op, const Value& a, const Value& b, SourceLoc loc, Value& out) {
  Operand x, y;
  if (!operand(ev, a, loc, x) || !operand(ev, b, loc, y)) return false;
  auto shape = broadcast(x, y, loc);
  Prim ct = result_dtype(x, y);
  Prim rt = op == BinOpKind::Div && !prim_is_float(ct) ? Prim::f64 : ct;
  if (ct == Prim::none && op != BinOpKind::BitAnd && op != BinOpKind::BitOr && op != BinOpKind::BitXor) rt = op == BinOpKind::Div ? Prim::f64 : Prim::i64;
  int64_t total = 1;
  for (auto d : shape) total *= d;
  std::vector<Value> vals;
  for (int64_t k = 0; k < total; k++) vals.push_back(np_scalar_op(ev, op, at(x, shape, k), at(y, shape, k), ct, loc));
  out = from_shape(ev, shape, rt, std::move(vals), loc);
  return true;
}

bool host_rich_compare(Evaluator& ev, CmpOpKind op, const Value& a, const Value& b, SourceLoc loc, Value& out) {
  if (np_as(a) || np_as(b)) return np_compare(ev, op, a, b, loc, out);
  if (!host_as<MatrixObj>(a) && !host_as<MatrixObj>(b)) return false;
  if (op != CmpOpKind::Eq && op != CmpOpKind::NotEq && op != CmpOpKind::Lt && op != CmpOpKind::LtE &&
      op != CmpOpKind::Gt && op != CmpOpKind::GtE)
    return false;
  Operand x, y;
  if (!operand(ev, a, loc, x) || !operand(ev, b, loc, y)) {
    if (op == CmpOpKind::Eq || op == CmpOpKind::NotEq) return false;
    raise("TypeError", std::string("'") + ast::op_symbol(op) + "' not supported between instances of '" + ev.type_name(a) +
                           "' and '" + ev.type_name(b) + "'", loc);
  }
  auto shape = broadcast(x, y, loc);
  Prim ct = result_dtype(x, y);
  int64_t total = 1;
  for (auto d : shape) total *= d;
  std::vector<Value> vals;
  for (int64_t k = 0; k < total; k++) vals.push_back(Value::boolean(np_compare_scalar(op, at(x, shape, k), at(y, shape, k), ct)));
  out = from_shape(ev, shape, Prim::none, std::move(vals), loc);
  return true;
}

Value matrix_unop(Evaluator& ev, const MatrixObj& mo, char op, SourceLoc loc) {
  Prim dt = matrix_dtype(mo, loc);
  std::vector<Value> vals = mo.values(loc);
  for (auto& v : vals) {
    if (op == '-') {
      if (dt == Prim::none) raise("TypeError", "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.", loc);
      v = prim_is_float(dt) ? Value::floating(-v.f) : np_cast(ev, Value::integer((int64_t)(0 - (uint64_t)v.as_int())), dt, loc);
    } else if (op == '~') {
      if (prim_is_float(dt)) raise("TypeError", "ufunc 'invert' not supported for the input types", loc);
      v = dt == Prim::none ? Value::boolean(!v.b) : np_cast(ev, Value::integer(~v.as_int()), dt, loc);
    } else if (op == 'a') {
      if (prim_is_float(dt)) v = Value::floating(std::fabs(v.f));
      else if (dt != Prim::none) v = np_cast(ev, Value::integer(v.as_int() < 0 ? (int64_t)(0 - (uint64_t)v.as_int()) : v.as_int()), dt, loc);
    }
  }
  return from_shape(ev, matrix_shape(mo), dt, std::move(vals), loc);
}

}  // namespace kiln::host
