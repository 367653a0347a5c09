// Python's `math` module (the functions host programs use), with CPython's
// error conventions: domain errors are ValueError("math domain error"),
// overflow is OverflowError("math range error").
#include <cerrno>
#include <cmath>
#include <numeric>

#include "vm/host/evaluator.h"

namespace kiln::host {

namespace {

using F1 = double (*)(double);

double num(Evaluator& ev, CallArgs& a, size_t k) { return arg_float(ev, a.pos[k], "math", a.loc); }

// Wraps a one-argument libm function: domain errors (NaN from non-NaN input)
// and overflow (inf from finite input) become Python exceptions.
NativeFn unary(const char* name, F1 f, bool can_overflow = true) {
  return [name, f, can_overflow](Evaluator& ev, CallArgs& a) {
    expect_args(a, name, 1, 1);
    double x = num(ev, a, 0);
    double r = f(x);
    if (std::isnan(r) && !std::isnan(x)) raise("ValueError", "math domain error", a.loc);
    if (std::isinf(r) && std::isfinite(x)) {
      if (can_overflow) raise("OverflowError", "math range error", a.loc);
      raise("ValueError", "math domain error", a.loc);
    }
    return Value::floating(r);
  };
}

double log_checked(double x, SourceLoc loc) {
  if (std::isnan(x)) return x;
  if (x <= 0) raise("ValueError", "math domain error", loc);
  return std::log(x);
}

// Shewchuk's exact summation: keep a list of non-overlapping partial sums so
// that no precision is lost, then add them up with one final rounding.
double fsum(Evaluator& ev, const std::vector<Value>& xs, SourceLoc loc) {
  std::vector<double> partials;
  double special = 0;
  bool has_special = false;
  for (auto& v : xs) {
    double x = arg_float(ev, v, "fsum", loc);
    if (!std::isfinite(x)) {
      special = has_special ? special + x : x;
      has_special = true;
      continue;
    }
    size_t used = 0;
    for (double y : partials) {
      if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
      double hi = x + y;
      double lo = y - (hi - x);
      if (lo != 0) partials[used++] = lo;
      x = hi;
    }
    partials.resize(used);
    partials.push_back(x);
  }
  if (has_special) {
    if (std::isnan(special)) raise("ValueError", "-inf + inf in fsum", loc);
    return special;
  }
  if (partials.empty()) return 0.0;
  // Add from the top; correct the final rounding when it was a half-way case.
  size_t n = partials.size();
  double hi = partials[--n], lo = 0;
  while (n > 0) {
    double x = hi, y = partials[--n];
    hi = x + y;
    double yr = hi - x;
    lo = y - yr;
    if (lo != 0) break;
  }
  if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
    double y = lo * 2;
    double x = hi + y;
    double yr = x - hi;
    if (y == yr) hi = x;
  }
  return hi;
}

int64_t to_int_checked(double d, SourceLoc loc) { return float_to_int(d, loc); }

}  // namespace

static Value make_math(Evaluator& ev) {
  auto m = std::make_shared<ModuleObj>();
  m->name = "math";
  auto def = [&](const char* name, NativeFn fn) { m->attrs[name] = make_builtin(std::string("math.") + name, std::move(fn)); };
  m->attrs["pi"] = Value::floating(M_PI);
  m->attrs["e"] = Value::floating(M_E);
  m->attrs["tau"] = Value::floating(2 * M_PI);
  m->attrs["inf"] = Value::floating(INFINITY);
  m->attrs["nan"] = Value::floating(NAN);
  def("sqrt", unary("sqrt", [](double x) { return std::sqrt(x); }));
  def("sin", unary("sin", [](double x) { return std::sin(x); }, false));
  def("cos", unary("cos", [](double x) { return std::cos(x); }, false));
  def("tan", unary("tan", [](double x) { return std::tan(x); }, false));
  def("asin", unary("asin", [](double x) { return std::asin(x); }));
  def("acos", unary("acos", [](double x) { return std::acos(x); }));
  def("atan", unary("atan", [](double x) { return std::atan(x); }));
  def("sinh", unary("sinh", [](double x) { return std::sinh(x); }));
  def("cosh", unary("cosh", [](double x) { return std::cosh(x); }));
  def("tanh", unary("tanh", [](double x) { return std::tanh(x); }));
  def("asinh", unary("asinh", [](double x) { return std::asinh(x); }));
  def("acosh", unary("acosh", [](double x) { return std::acosh(x); }));
  def("atanh", unary("atanh", [](double x) { return std::fabs(x) >= 1 ? NAN : std::atanh(x); }));
  def("exp", unary("exp", [](double x) { return std::exp(x); }));
  def("exp2", unary("exp2", [](double x) { return std::exp2(x); }));
  def("expm1", unary("expm1", [](double x) { return std::expm1(x); }));
  def("log1p", unary("log1p", [](double x) { return x <= -1 ? NAN : std::log1p(x); }));
  def("log2", unary("log2", [](double x) { return x <= 0 ? NAN : std::log2(x); }));
  def("log10", unary("log10", [](double x) { return x <= 0 ? NAN : std::log10(x); }));
  def("fabs", unary("fabs", [](double x) { return std::fabs(x); }));
  def("erf", unary("erf", [](double x) { return std::erf(x); }));
  def("erfc", unary("erfc", [](double x) { return std::erfc(x); }));
  def("gamma", unary("gamma", [](double x) { return (x <= 0 && x == std::floor(x)) ? NAN : std::tgamma(x); }));
  def("lgamma", unary("lgamma", [](double x) { return (x <= 0 && x == std::floor(x)) ? INFINITY : std::lgamma(x); }, false));
  def("degrees", unary("degrees", [](double x) { return x * (180.0 / M_PI); }));
  def("radians", unary("radians", [](double x) { return x * (M_PI / 180.0); }));
  def("log", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "log", 1, 2);
    double x = log_checked(num(ev, a, 0), a.loc);
    if (a.pos.size() == 1) return Value::floating(x);
    double b = log_checked(num(ev, a, 1), a.loc);
    if (b == 0) raise("ZeroDivisionError", "float division by zero", a.loc);
    return Value::floating(x / b);
  });
  def("pow", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "pow", 2, 2);
    double x = num(ev, a, 0), y = num(ev, a, 1);
    if (x == 0 && y < 0 && std::isfinite(y)) raise("ValueError", "math domain error", a.loc);
    if (x < 0 && std::isfinite(x) && std::isfinite(y) && y != std::floor(y)) raise("ValueError", "math domain error", a.loc);
    double r = std::pow(x, y);
    if (std::isinf(r) && std::isfinite(x) && std::isfinite(y)) raise("OverflowError", "math range error", a.loc);
    return Value::floating(r);
  });
  def("atan2", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "atan2", 2, 2);
    return Value::floating(std::atan2(num(ev, a, 0), num(ev, a, 1)));
  });
  def("copysign", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "copysign", 2, 2);
    return Value::floating(std::copysign(num(ev, a, 0), num(ev, a, 1)));
  });
  def("fmod", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "fmod", 2, 2);
    double x = num(ev, a, 0), y = num(ev, a, 1);
    if (y == 0 || std::isinf(x)) {
      if (!std::isnan(x) && !std::isnan(y)) raise("ValueError", "math domain error", a.loc);
    }
    return Value::floating(std::fmod(x, y));
  });
  def("hypot", [](Evaluator& ev, CallArgs& a) {
    double r = 0;
    for (size_t k = 0; k < a.pos.size(); k++) r = std::hypot(r, num(ev, a, k));
    return Value::floating(r);
  });
  def("dist", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "dist", 2, 2);
    auto p = ev.to_vector(a.pos[0], a.loc), q = ev.to_vector(a.pos[1], a.loc);
    if (p.size() != q.size()) raise("ValueError", "both points must have the same number of dimensions", a.loc);
    double r = 0;
    for (size_t k = 0; k < p.size(); k++)
      r = std::hypot(r, arg_float(ev, p[k], "dist", a.loc) - arg_float(ev, q[k], "dist", a.loc));
    return Value::floating(r);
  });
  auto rounding = [&](const char* name, double (*f)(double)) {
    def(name, [name, f](Evaluator& ev, CallArgs& a) {
      expect_args(a, name, 1, 1);
      if (a.pos[0].is_int_like()) return Value::integer(a.pos[0].as_int());
      return Value::integer(to_int_checked(f(num(ev, a, 0)), a.loc));
    });
  };
  rounding("floor", [](double x) { return std::floor(x); });
  rounding("ceil", [](double x) { return std::ceil(x); });
  rounding("trunc", [](double x) { return std::trunc(x); });
  def("isnan", [](Evaluator& ev, CallArgs& a) { expect_args(a, "isnan", 1, 1); return Value::boolean(std::isnan(num(ev, a, 0))); });
  def("isinf", [](Evaluator& ev, CallArgs& a) { expect_args(a, "isinf", 1, 1); return Value::boolean(std::isinf(num(ev, a, 0))); });
  def("isfinite", [](Evaluator& ev, CallArgs& a) { expect_args(a, "isfinite", 1, 1); return Value::boolean(std::isfinite(num(ev, a, 0))); });
  def("isclose", [](Evaluator& ev, CallArgs& a) {
    Value rt, at;
    bool has_rt = a.take_kw("rel_tol", rt), has_at = a.take_kw("abs_tol", at);
    no_kwargs(a, "isclose");
    expect_args(a, "isclose", 2, 2);
    double x = num(ev, a, 0), y = num(ev, a, 1);
    double rel = has_rt ? arg_float(ev, rt, "isclose", a.loc) : 1e-9;
    double abs_tol = has_at ? arg_float(ev, at, "isclose", a.loc) : 0.0;
    if (rel < 0 || abs_tol < 0) raise("ValueError", "tolerances must be non-negative", a.loc);
    if (x == y) return Value::boolean(true);
    if (std::isinf(x) || std::isinf(y)) return Value::boolean(false);
    double d = std::fabs(y - x);
    return Value::boolean(d <= std::fabs(rel * y) || d <= std::fabs(rel * x) || d <= abs_tol);
  });
  def("gcd", [](Evaluator& ev, CallArgs& a) {
    int64_t g = 0;
    for (auto& v : a.pos) g = std::gcd(g, arg_int(ev, v, "gcd", a.loc));
    return Value::integer(g < 0 ? -g : g);
  });
  def("lcm", [](Evaluator& ev, CallArgs& a) {
    int64_t l = 1;
    for (auto& v : a.pos) {
      int64_t x = arg_int(ev, v, "lcm", a.loc);
      if (x == 0) return Value::integer(0);
      l = checked_mul(l / std::gcd(l, x), x < 0 ? -x : x, a.loc);
    }
    return Value::integer(l);
  });
  def("factorial", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "factorial", 1, 1);
    int64_t n = arg_int(ev, a.pos[0], "factorial", a.loc);
    if (n < 0) raise("ValueError", "factorial() not defined for negative values", a.loc);
    int64_t r = 1;
    for (int64_t k = 2; k <= n; k++) r = checked_mul(r, k, a.loc);
    return Value::integer(r);
  });
  def("comb", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "comb", 2, 2);
    int64_t n = arg_int(ev, a.pos[0], "comb", a.loc), k = arg_int(ev, a.pos[1], "comb", a.loc);
    if (n < 0 || k < 0) raise("ValueError", std::string(n < 0 ? "n" : "k") + " must be a non-negative integer", a.loc);
    if (k > n) return Value::integer(0);
    k = std::min(k, n - k);
    __int128 r = 1;
    for (int64_t i = 1; i <= k; i++) {
      r = r * (n - k + i) / i;
      if (r > INT64_MAX) overflow(a.loc);
    }
    return Value::integer((int64_t)r);
  });
  def("perm", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "perm", 1, 2);
    int64_t n = arg_int(ev, a.pos[0], "perm", a.loc);
    int64_t k = a.pos.size() == 2 ? arg_int(ev, a.pos[1], "perm", a.loc) : n;
    if (n < 0 || k < 0) raise("ValueError", std::string(n < 0 ? "n" : "k") + " must be a non-negative integer", a.loc);
    if (k > n) return Value::integer(0);
    int64_t r = 1;
    for (int64_t i = n - k + 1; i <= n; i++) r = checked_mul(r, i, a.loc);
    return Value::integer(r);
  });
  def("isqrt", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "isqrt", 1, 1);
    int64_t n = arg_int(ev, a.pos[0], "isqrt", a.loc);
    if (n < 0) raise("ValueError", "isqrt() argument must be nonnegative", a.loc);
    int64_t r = (int64_t)std::sqrt((double)n);
    while (r > 0 && (__int128)r * r > n) r--;
    while ((__int128)(r + 1) * (r + 1) <= n) r++;
    return Value::integer(r);
  });
  def("prod", [](Evaluator& ev, CallArgs& a) {
    Value start = Value::integer(1), s;
    if (a.take_kw("start", s)) start = s;
    no_kwargs(a, "prod");
    expect_args(a, "prod", 1, 1);
    Value acc = start;
    ev.iterate(a.pos[0], a.loc, [&](const Value& x) {
      acc = ev.binop(ast::BinOpKind::Mult, acc, x, a.loc);
      return true;
    });
    return acc;
  });
  def("fsum", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "fsum", 1, 1);
    return Value::floating(fsum(ev, ev.to_vector(a.pos[0], a.loc), a.loc));
  });
  def("modf", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "modf", 1, 1);
    double ip;
    double fp = std::modf(num(ev, a, 0), &ip);
    return make_tuple({Value::floating(fp), Value::floating(ip)});
  });
  def("frexp", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "frexp", 1, 1);
    int e;
    double m = std::frexp(num(ev, a, 0), &e);
    return make_tuple({Value::floating(m), Value::integer(e)});
  });
  def("ldexp", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ldexp", 2, 2);
    double r = std::ldexp(num(ev, a, 0), (int)arg_int(ev, a.pos[1], "ldexp", a.loc));
    if (std::isinf(r) && std::isfinite(num(ev, a, 0))) raise("OverflowError", "math range error", a.loc);
    return Value::floating(r);
  });
  return Value::of(m);
}

void install_module_math(Evaluator& ev) { ev.module_factories["math"] = make_math; }

}  // namespace kiln::host
