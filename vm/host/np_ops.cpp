// Arithmetic on numpy arrays: element-wise operators and comparisons with
// broadcasting, unary ufuncs, and reductions with `axis`. Result dtypes are
// numpy 1.24's: arrays promote with promote_types, and a scalar (a Python
// number, a numpy scalar or a 0-d array) combined with an array of the same
// or a higher kind (bool < int < float) only counts by its value
// (min_scalar_type), so int8 array + 1000 is int16 and float32 array + 1.5
// stays float32. Element math reuses the host matrices' numpy loops
// (np_scalar_op in ti_matrix_ops.cpp).
#include <cmath>
#include <cstring>

#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"

namespace kiln::host {

using ast::BinOpKind;
using ast::CmpOpKind;

Value np_scalar_op(Evaluator& ev, BinOpKind op, const Value& x, const Value& y, Prim ct, SourceLoc loc);

namespace {

struct Operand {
  std::shared_ptr<NpArrayObj> arr;
  bool scalar = false;  // Python number, numpy scalar or 0-d array
};

bool operand(Evaluator& ev, const Value& v, SourceLoc loc, Operand& o) {
  if (auto* a = np_as(v)) {
    o.arr = std::static_pointer_cast<NpArrayObj>(v.obj);
    o.scalar = a->ndim() == 0;
    return true;
  }
  if (v.is_number()) {
    Prim dt = v.kind == Kind::Float ? Prim::f64 : v.kind == Kind::Int ? Prim::i64 : Prim::none;
    o.arr = np_new(dt, {});
    NpArrayObj::store(ev, dt, o.arr->data(), v, loc);
    o.scalar = true;
    return true;
  }
  if (v.kind == Kind::List || v.kind == Kind::Tuple || host_as<MatrixObj>(v)) {
    o.arr = np_from_value(ev, v, false, Prim::none, loc);
    o.scalar = o.arr->ndim() == 0;
    return true;
  }
  return false;
}

int kind_rank(Prim p) { return p == Prim::none ? 0 : prim_is_float(p) ? 2 : 1; }

// numpy's min_scalar_type of a 0-d value, seen next to an array of dtype `arr`.
Prim min_scalar(const NpArrayObj& s, Prim arr) {
  Value v = s.get_flat(0);
  if (s.dtype == Prim::none) return Prim::none;
  if (prim_is_float(s.dtype)) {
    double d = std::fabs(v.as_double());
    if (!std::isfinite(d) || d <= 65504.0) return Prim::f16;
    return d <= 3.4028234663852886e38 ? Prim::f32 : Prim::f64;
  }
  if (!prim_is_signed(s.dtype) && v.as_int() < 0) return Prim::u64;  // a u64 above 2^63
  int64_t x = v.as_int();
  if (x < 0) return x >= INT8_MIN ? Prim::i8 : x >= INT16_MIN ? Prim::i16 : x >= INT32_MIN ? Prim::i32 : Prim::i64;
  Prim u = x <= UINT8_MAX ? Prim::u8 : x <= UINT16_MAX ? Prim::u16 : x <= (int64_t)UINT32_MAX ? Prim::u32 : Prim::u64;
  // a small unsigned value next to a signed array counts as the signed type of its size
  bool signed_arr = arr != Prim::none && prim_is_signed(arr) && !prim_is_float(arr);
  if (signed_arr) {
    int bits = prim_bits(u);
    if (bits == 8 && x <= INT8_MAX) return Prim::i8;
    if (bits == 16 && x <= INT16_MAX) return Prim::i16;
    if (bits == 32 && x <= INT32_MAX) return Prim::i32;
    if (bits == 64) return Prim::i64;
  }
  return u;
}

Prim result_type(const Operand& a, const Operand& b) {
  if (a.scalar == b.scalar) return np_promote(a.arr->dtype, b.arr->dtype);
  const Operand& arr = a.scalar ? b : a;
  const Operand& s = a.scalar ? a : b;
  if (kind_rank(s.arr->dtype) > kind_rank(arr.arr->dtype)) return np_promote(arr.arr->dtype, s.arr->dtype);
  return np_promote(arr.arr->dtype, min_scalar(*s.arr, arr.arr->dtype));
}

std::vector<int64_t> broadcast_shape(const NpArrayObj& a, const NpArrayObj& b, SourceLoc loc) {
  return np_broadcast_shape(a.shape, b.shape, loc);
}

}  // namespace

std::vector<int64_t> np_broadcast_shape(const std::vector<int64_t>& as, const std::vector<int64_t>& bs, SourceLoc loc) {
  struct { const std::vector<int64_t>& shape; } a{as}, b{bs};
  size_t r = std::max(a.shape.size(), b.shape.size());
  std::vector<int64_t> out(r);
  for (size_t k = 0; k < r; k++) {
    int64_t x = k + a.shape.size() >= r ? a.shape[k + a.shape.size() - r] : 1;
    int64_t y = k + b.shape.size() >= r ? b.shape[k + b.shape.size() - r] : 1;
    if (x != y && x != 1 && y != 1) {
      auto s = [](const std::vector<int64_t>& v) {
        std::string t = "(";
        for (size_t i = 0; i < v.size(); i++) t += (i ? "," : "") + std::to_string(v[i]);
        return t + (v.size() == 1 ? ",)" : ")");
      };
      raise("ValueError", "operands could not be broadcast together with shapes " + s(a.shape) + " " + s(b.shape) + " ", loc);
    }
    out[k] = std::max(x, y);
  }
  return out;
}

namespace {

// Byte strides of `a` seen with shape `shape` (broadcast axes get stride 0).
std::vector<int64_t> bstrides(const NpArrayObj& a, const std::vector<int64_t>& shape) {
  std::vector<int64_t> st(shape.size(), 0);
  size_t off = shape.size() - a.shape.size();
  for (size_t k = 0; k < a.shape.size(); k++)
    if (a.shape[k] != 1) st[off + k] = a.strides[k];
  return st;
}

// Calls fn(flat, x, y) for each element of the broadcast of a and b.
template <class F> std::vector<int64_t> each_pair(const NpArrayObj& a, const NpArrayObj& b, SourceLoc loc, F&& fn) {
  auto shape = broadcast_shape(a, b, loc);
  auto sa = bstrides(a, shape), sb = bstrides(b, shape);
  int64_t n = 1;
  for (auto d : shape) n *= d;
  for (int64_t k = 0; k < n; k++) {
    int64_t r = k, oa = 0, ob = 0;
    for (size_t d = shape.size(); d-- > 0;) {
      int64_t i = r % shape[d];
      r /= shape[d];
      oa += i * sa[d];
      ob += i * sb[d];
    }
    fn(k, NpArrayObj::load(a.dtype, a.data() + oa), NpArrayObj::load(b.dtype, b.data() + ob));
  }
  return shape;
}

// Raw element access for the arithmetic fast path.
double load_f(Prim dt, const uint8_t* p) {
  switch (dt) {
    case Prim::f64: { double d; std::memcpy(&d, p, 8); return d; }
    case Prim::f32: { float f; std::memcpy(&f, p, 4); return f; }
    default: return NpArrayObj::load(dt, p).as_double();
  }
}
int64_t load_i(Prim dt, const uint8_t* p) {
  switch (dt) {
    case Prim::i64: case Prim::u64: { int64_t v; std::memcpy(&v, p, 8); return v; }
    case Prim::i32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case Prim::u32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    case Prim::i16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case Prim::u16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case Prim::i8: return (int8_t)*p;
    case Prim::u8: case Prim::none: return *p;
    default: return NpArrayObj::load(dt, p).as_int();
  }
}

// + - * (and / into a float) without boxing each element: the same results
// as np_scalar_op (floats computed in double and rounded once to the result
// type, integers wrapping at their width), a hundred times faster on big arrays.
bool fast_arith(BinOpKind op, const NpArrayObj& a, const NpArrayObj& b, Prim ct, Prim rt,
                const std::vector<int64_t>& shape, NpArrayObj& r) {
  bool fl = prim_is_float(rt);
  if (!(op == BinOpKind::Add || op == BinOpKind::Sub || op == BinOpKind::Mult || (op == BinOpKind::Div && fl))) return false;
  if (ct == Prim::none || rt == Prim::bf16 || (!fl && !prim_is_int(rt))) return false;
  auto sa = bstrides(a, shape), sb = bstrides(b, shape);
  size_t nd = shape.size();
  std::vector<int64_t> idx(nd, 0);
  int64_t n = r.size(), is = r.itemsize(), oa = 0, ob = 0;
  uint8_t* out = r.data();
  for (int64_t k = 0; k < n; k++) {
    const uint8_t* pa = a.data() + oa;
    const uint8_t* pb = b.data() + ob;
    if (fl) {
      double x = load_f(a.dtype, pa), y = load_f(b.dtype, pb), v;
      switch (op) {
        case BinOpKind::Add: v = x + y; break;
        case BinOpKind::Sub: v = x - y; break;
        case BinOpKind::Mult: v = x * y; break;
        default: v = x / y; break;
      }
      if (rt == Prim::f64) std::memcpy(out + k * is, &v, 8);
      else if (rt == Prim::f32) { float f = (float)v; std::memcpy(out + k * is, &f, 4); }
      else { uint16_t h = f64_to_f16_bits(v); std::memcpy(out + k * is, &h, 2); }
    } else {
      uint64_t x = (uint64_t)load_i(a.dtype, pa), y = (uint64_t)load_i(b.dtype, pb), v;
      v = op == BinOpKind::Add ? x + y : op == BinOpKind::Sub ? x - y : x * y;
      std::memcpy(out + k * is, &v, (size_t)is);  // little-endian: the low bytes wrap to the width
    }
    for (size_t d = nd; d-- > 0;) {  // next index, row-major
      oa += sa[d];
      ob += sb[d];
      if (++idx[d] < shape[d]) break;
      oa -= sa[d] * shape[d];
      ob -= sb[d] * shape[d];
      idx[d] = 0;
    }
  }
  return true;
}

Value finish(std::shared_ptr<NpArrayObj> r, bool scalar) {
  if (scalar) return np_scalar_value(r->dtype, r->get_flat(0));
  return Value::of(std::move(r));
}


}  // namespace

bool np_binop(Evaluator& ev, BinOpKind op, const Value& a, const Value& b, SourceLoc loc, Value& out) {
  if (op == BinOpKind::MatMult) return false;
  Operand x, y;
  if (!operand(ev, a, loc, x) || !operand(ev, b, loc, y)) return false;
  Prim ct = result_type(x, y);
  bool bitwise = op == BinOpKind::BitAnd || op == BinOpKind::BitOr || op == BinOpKind::BitXor;
  if (bitwise && prim_is_float(ct))
    raise("TypeError", std::string("ufunc '") + (op == BinOpKind::BitAnd ? "bitwise_and" : op == BinOpKind::BitOr ? "bitwise_or" : "bitwise_xor") +
                           "' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''", loc);
  if (op == BinOpKind::Sub && ct == Prim::none)
    raise("TypeError", "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.", loc);
  // bool with bool: + is or, * is and (still bool); // % ** compute in int8
  if (ct == Prim::none && (op == BinOpKind::Add || op == BinOpKind::Mult)) {
    op = op == BinOpKind::Add ? BinOpKind::BitOr : BinOpKind::BitAnd;
    bitwise = true;
  }
  if (ct == Prim::none && (op == BinOpKind::FloorDiv || op == BinOpKind::Mod || op == BinOpKind::Pow)) ct = Prim::i8;
  Prim rt = ct;
  if (op == BinOpKind::Div && !prim_is_float(ct)) rt = Prim::f64;
  {
    auto shape = broadcast_shape(*x.arr, *y.arr, loc);
    auto r = np_new(rt, shape, false);
    if (fast_arith(op, *x.arr, *y.arr, ct, rt, shape, *r)) {
      out = finish(r, x.scalar && y.scalar);
      return true;
    }
  }
  std::vector<Value> vals;
  auto shape = each_pair(*x.arr, *y.arr, loc, [&](int64_t, const Value& p, const Value& q) {
    vals.push_back(np_scalar_op(ev, op, p, q, ct, loc));
  });
  auto r = np_new(rt, shape);
  int64_t is = r->itemsize();
  for (size_t k = 0; k < vals.size(); k++) NpArrayObj::store(ev, rt, r->data() + (int64_t)k * is, vals[k], loc);
  out = finish(r, x.scalar && y.scalar);
  return true;
}

bool np_compare(Evaluator& ev, CmpOpKind op, const Value& a, const Value& b, SourceLoc loc, Value& out) {
  if (op != CmpOpKind::Eq && op != CmpOpKind::NotEq && op != CmpOpKind::Lt && op != CmpOpKind::LtE &&
      op != CmpOpKind::Gt && op != CmpOpKind::GtE)
    return false;
  if (!np_as(a) && !np_as(b)) return false;
  Operand x, y;
  if (!operand(ev, a, loc, x) || !operand(ev, b, loc, y)) {
    if (op == CmpOpKind::Eq || op == CmpOpKind::NotEq) return false;
    raise("TypeError", std::string("'") + ast::op_symbol(op) + "' not supported between instances of '" + ev.type_name(a) +
                           "' and '" + ev.type_name(b) + "'", loc);
  }
  Prim ct = result_type(x, y);
  std::vector<uint8_t> bits;
  auto shape = each_pair(*x.arr, *y.arr, loc, [&](int64_t, const Value& p, const Value& q) {
    bits.push_back(np_compare_scalar(op, p, q, ct));
  });
  auto r = np_new(Prim::none, shape);
  std::copy(bits.begin(), bits.end(), r->data());
  out = finish(r, x.scalar && y.scalar);
  return true;
}

Value np_unop(Evaluator& ev, const NpArrayObj& a, char op, SourceLoc loc) {
  Prim dt = a.dtype;
  if (op == '-' && dt == Prim::none)
    raise("TypeError", "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.", loc);
  if (op == '~' && prim_is_float(dt)) raise("TypeError", "ufunc 'invert' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''", loc);
  auto r = np_new(dt, a.shape);
  int64_t n = a.size(), is = r->itemsize();
  for (int64_t k = 0; k < n; k++) {
    Value v = a.get_flat(k);
    if (op == '-') v = prim_is_float(dt) ? Value::floating(-v.f) : Value::integer((int64_t)(0 - (uint64_t)v.as_int()));
    else if (op == '~') v = dt == Prim::none ? Value::boolean(!v.b) : Value::integer(~v.as_int());
    NpArrayObj::store(ev, dt, r->data() + k * is, v, loc);
  }
  return finish(r, a.ndim() == 0);
}

// ---- one-argument ufuncs ---------------------------------------------------------------------

Value np_ufunc1(Evaluator& ev, const std::string& name, const Value& xv, SourceLoc loc) {
  Operand x;
  if (!operand(ev, xv, loc, x))
    raise("TypeError", "ufunc '" + name + "' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''", loc);
  const NpArrayObj& a = *x.arr;
  bool keeps = name == "abs" || name == "absolute" || name == "square" || name == "negative";
  Prim rt = a.dtype;
  if (!keeps) rt = prim_is_float(a.dtype) ? a.dtype : (a.dtype == Prim::none || prim_bits(a.dtype) <= 8) ? Prim::f16 : prim_bits(a.dtype) == 16 ? Prim::f32 : Prim::f64;
  if (keeps && rt == Prim::none && name != "abs" && name != "absolute") rt = Prim::i64;
  auto r = np_new(rt, a.shape);
  int64_t n = a.size(), is = r->itemsize();
  for (int64_t k = 0; k < n; k++) {
    Value v = a.get_flat(k);
    Value o;
    if (keeps && !prim_is_float(rt)) {
      int64_t i = v.as_int();
      if (name == "square") o = Value::integer((int64_t)((uint64_t)i * (uint64_t)i));
      else if (name == "negative") o = Value::integer((int64_t)(0 - (uint64_t)i));
      else o = rt == Prim::none ? v : Value::integer(i < 0 ? (int64_t)(0 - (uint64_t)i) : i);
    } else {
      double d = v.as_double(), res;
      if (name == "sqrt") res = std::sqrt(d);
      else if (name == "abs" || name == "absolute") res = std::fabs(d);
      else if (name == "square") res = d * d;
      else if (name == "negative") res = -d;
      else if (name == "exp") res = std::exp(d);
      else if (name == "log") res = std::log(d);
      else if (name == "sin") res = std::sin(d);
      else if (name == "cos") res = std::cos(d);
      else if (name == "tan") res = std::tan(d);
      else if (name == "arctan") res = std::atan(d);
      else if (name == "tanh") res = std::tanh(d);
      else if (name == "floor") res = std::floor(d);
      else if (name == "ceil") res = std::ceil(d);
      else if (name == "round") res = std::nearbyint(d);
      else raise("AttributeError", "module 'numpy' has no attribute '" + name + "'", loc);
      o = Value::floating(res);
    }
    NpArrayObj::store(ev, rt, r->data() + k * is, o, loc);
  }
  if (x.scalar && !np_as(xv)) {  // a Python number in, a numpy scalar out
    Value v = r->get_flat(0);
    return np_scalar_value(rt, v);
  }
  return finish(r, x.scalar);
}

// ---- reductions ----------------------------------------------------------------------------------

namespace {

// numpy's pairwise summation (used along a contiguous axis): blocks of 8
// partial sums below 128 elements, halves above, rounding to `dt` each add.
double pairwise(const std::vector<double>& v, size_t lo, size_t n, Prim dt) {
  auto rnd = [dt](double d) { return dt == Prim::f32 ? (double)(float)d : dt == Prim::f16 ? round_to_f16(d) : d; };
  if (n < 8) {
    double r = dt == Prim::f64 ? 0.0 : -0.0;
    r = 0.0;
    for (size_t i = 0; i < n; i++) r = rnd(r + v[lo + i]);
    return r;
  }
  if (n <= 128) {
    double p[8];
    for (int j = 0; j < 8; j++) p[j] = v[lo + (size_t)j];
    size_t i;
    for (i = 8; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; j++) p[j] = rnd(p[j] + v[lo + i + (size_t)j]);
    double r = rnd(rnd(rnd(p[0] + p[1]) + rnd(p[2] + p[3])) + rnd(rnd(p[4] + p[5]) + rnd(p[6] + p[7])));
    for (; i < n; i++) r = rnd(r + v[lo + i]);
    return r;
  }
  size_t n2 = n / 2;
  n2 -= n2 % 8;
  return rnd(pairwise(v, lo, n2, dt) + pairwise(v, lo + n2, n - n2, dt));
}

// A float sum in `acc` precision: pairwise along a contiguous run, else in order.
double float_sum(const std::vector<double>& d, bool pairwise_ok, Prim acc) {
  if (pairwise_ok) return pairwise(d, 0, d.size(), acc);
  double s = 0;
  for (double x : d) s = acc == Prim::f32 ? (double)(float)(s + x) : acc == Prim::f16 ? round_to_f16(s + x) : s + x;
  return s;
}

Prim sum_dtype(Prim dt) {
  if (dt == Prim::none) return Prim::i64;
  if (prim_is_float(dt)) return dt;
  return prim_is_signed(dt) ? Prim::i64 : Prim::u64;
}

const char* ufunc_name(const std::string& what) {
  if (what == "max") return "maximum";
  if (what == "min") return "minimum";
  return what.c_str();
}

// Reduces the values `v` (in order along the reduced axis) as `what`.
Value reduce_line(Evaluator& ev, const std::string& what, Prim dt, const std::vector<Value>& v, bool pairwise_ok,
                  SourceLoc loc) {
  size_t n = v.size();
  if (what == "any" || what == "all") {
    bool all = what == "all";
    for (auto& x : v)
      if ((x.kind == Kind::Float ? x.f != 0 : x.as_int() != 0) != all) return Value::boolean(!all);
    return Value::boolean(all);
  }
  if (what == "min" || what == "max" || what == "argmin" || what == "argmax") {
    if (n == 0) {
      if (what[0] == 'a') raise("ValueError", "attempt to get " + what + " of an empty sequence", loc);
      raise("ValueError", std::string("zero-size array to reduction operation ") + ufunc_name(what) + " which has no identity", loc);
    }
    bool mx = what.find("max") != std::string::npos;
    size_t best = 0;
    for (size_t i = 1; i < n; i++) {
      if (prim_is_float(dt)) {
        double b = v[best].f, c = v[i].f;
        if (std::isnan(b)) break;
        if (std::isnan(c) || (mx ? c > b : c < b)) best = i;
      } else if (dt != Prim::none && !prim_is_signed(dt)) {
        uint64_t b = (uint64_t)v[best].as_int(), c = (uint64_t)v[i].as_int();
        if (mx ? c > b : c < b) best = i;
      } else {
        int64_t b = v[best].as_int(), c = v[i].as_int();
        if (mx ? c > b : c < b) best = i;
      }
    }
    if (what[0] == 'a') return Value::integer((int64_t)best);
    return v[best];
  }
  bool mean = what == "mean";
  Prim acc = mean ? (prim_is_float(dt) ? dt : Prim::f64) : sum_dtype(dt);
  if (what == "prod") {
    Value r = prim_is_float(acc) ? Value::floating(1) : Value::integer(1);
    for (auto& x : v) r = np_scalar_op(ev, BinOpKind::Mult, r, x, acc, loc);
    return r;
  }
  Value r;
  if (prim_is_float(acc)) {
    std::vector<double> d;
    d.reserve(n);
    for (auto& x : v) d.push_back(x.as_double());
    r = Value::floating(float_sum(d, pairwise_ok, acc));
  } else {
    uint64_t s = 0;
    for (auto& x : v) s += (uint64_t)x.as_int();
    r = Value::integer((int64_t)s);
  }
  if (mean) {
    if (n == 0) return Value::floating(NAN);
    double m = r.as_double() / (double)n;
    if (acc == Prim::f32) m = (double)(float)m;
    return Value::floating(m);
  }
  return r;
}

Prim reduce_result_dtype(const std::string& what, Prim dt) {
  if (what == "any" || what == "all") return Prim::none;
  if (what == "argmin" || what == "argmax") return Prim::i64;
  if (what == "min" || what == "max") return dt;
  if (what == "mean") return prim_is_float(dt) ? dt : Prim::f64;
  return sum_dtype(dt);
}

}  // namespace

Value np_reduce(Evaluator& ev, const std::string& what, const NpArrayObj& a, bool has_axis, int64_t axis, SourceLoc loc) {
  Prim rt = reduce_result_dtype(what, a.dtype);
  if (!has_axis && prim_is_float(a.dtype) && a.dtype != Prim::bf16 && (what == "sum" || what == "mean") && a.size() > 0) {
    // the common whole-array float sum without boxing each element
    int64_t n = a.size();
    std::vector<double> d((size_t)n);
    for (int64_t k = 0; k < n; k++) d[(size_t)k] = load_f(a.dtype, a.data() + a.flat_offset(k));
    double s = float_sum(d, a.contiguous(), a.dtype);
    if (what == "mean") {
      s /= (double)n;
      if (a.dtype == Prim::f32) s = (double)(float)s;
    }
    return np_scalar_value(rt, Value::floating(s));
  }
  if (!has_axis) {
    std::vector<Value> v;
    int64_t n = a.size();
    v.reserve((size_t)n);
    for (int64_t k = 0; k < n; k++) v.push_back(a.get_flat(k));
    Value r = reduce_line(ev, what, a.dtype, v, a.contiguous(), loc);
    return np_scalar_value(rt, r);
  }
  int nd = a.ndim();
  if (axis < -nd || axis >= nd)
    raise("AxisError", "axis " + std::to_string(axis) + " is out of bounds for array of dimension " + std::to_string(nd), loc);
  if (axis < 0) axis += nd;
  std::vector<int64_t> oshape;
  for (int d = 0; d < nd; d++)
    if (d != axis) oshape.push_back(a.shape[(size_t)d]);
  auto r = np_new(rt, oshape);
  int64_t on = r->size(), len = a.shape[(size_t)axis], is = r->itemsize();
  // numpy sums a non-last axis row by row (no pairwise), the last one pairwise
  bool pw = axis == nd - 1;
  for (int64_t k = 0; k < on; k++) {
    int64_t rest = k, base = 0;
    for (int d = nd; d-- > 0;) {
      if (d == axis) continue;
      int64_t i = rest % a.shape[(size_t)d];
      rest /= a.shape[(size_t)d];
      base += i * a.strides[(size_t)d];
    }
    std::vector<Value> v;
    for (int64_t i = 0; i < len; i++) v.push_back(NpArrayObj::load(a.dtype, a.data() + base + i * a.strides[(size_t)axis]));
    NpArrayObj::store(ev, rt, r->data() + k * is, reduce_line(ev, what, a.dtype, v, pw, loc), loc);
  }
  if (oshape.empty()) return np_scalar_value(rt, r->get_flat(0));
  return Value::of(r);
}

}  // namespace kiln::host
