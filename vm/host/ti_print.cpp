// str(field): Taichi prints a field as str(field.to_numpy()), so this renders
// the elements the way numpy's array2string does with its default options
// (precision 8, floatmode 'maxprec', line width 75, summarised beyond 1000
// elements with 3 edge items).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"
#include "vm/host/ti_compound.h"
#include "vm/host/ti_objects.h"
#include "vm/host/ti_state.h"

namespace kiln::host {

namespace {

constexpr int kPrecision = 8;
constexpr size_t kLineWidth = 75;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdge = 3;

// Shortest decimal digits that round-trip in the element's own precision
// (float32 elements print as "0.1", not "0.10000000149011612"), as
// (digits, decimal exponent): value = 0.d1d2d3... * 10^exp10.
void shortest(double v, Prim prec, std::string& digits, int& exp10) {
  char buf[64];
  for (int p = 1; p <= 17; p++) {
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, v);
    bool ok = prec == Prim::f64 ? std::strtod(buf, nullptr) == v
              : prec == Prim::f16 ? round_to_f16(std::strtod(buf, nullptr)) == v
                                  : std::strtof(buf, nullptr) == (float)v;
    if (ok) break;
  }
  // buf is "d.ddde[+-]xx"
  char* e = std::strchr(buf, 'e');
  int x = std::atoi(e + 1);
  digits.clear();
  for (char* c = buf; c < e; c++)
    if (*c >= '0' && *c <= '9') digits += *c;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  exp10 = x + 1;
}

// One finite value in positional notation with at most kPrecision fractional
// digits: "0.1", "2.", "-3.25" (trailing zeros trimmed, the '.' kept).
std::string positional(double v, Prim prec) {
  std::string digits;
  int e;
  shortest(std::fabs(v), prec, digits, e);
  int frac = std::max<int>(0, (int)digits.size() - e);
  std::string s;
  if (frac > kPrecision) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", kPrecision, std::fabs(v));
    s = buf;
    while (s.back() == '0') s.pop_back();
  } else {
    if (e <= 0) s = "0." + std::string((size_t)-e, '0') + digits;
    else if ((int)digits.size() <= e) {
      // the integer part in full: numpy prints its exact digits (float16 61344., not 61340.)
      char buf[512];
      std::snprintf(buf, sizeof buf, "%.0f.", std::fabs(v));
      s = buf;
    }
    else s = digits.substr(0, (size_t)e) + "." + digits.substr((size_t)e);
  }
  return (std::signbit(v) ? "-" : "") + s;
}

// Scientific: "1.5e-05", "1.e+10" (mantissa digits trimmed, exponent >= 2 digits).
std::string scientific(double v, Prim prec) {
  std::string digits;
  int e;
  shortest(std::fabs(v), prec, digits, e);
  if (v == 0) e = 1;
  if ((int)digits.size() - 1 > kPrecision) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", kPrecision, std::fabs(v));
    char* x = std::strchr(buf, 'e');
    digits.clear();
    for (char* c = buf; c < x; c++)
      if (*c >= '0' && *c <= '9') digits += *c;
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    e = std::atoi(x + 1) + 1;
  }
  char exp[16];
  std::snprintf(exp, sizeof exp, "e%c%02d", e - 1 < 0 ? '-' : '+', std::abs(e - 1));
  return (std::signbit(v) ? "-" : "") + digits.substr(0, 1) + "." + digits.substr(1) + exp;
}

struct FloatFormat {
  Prim prec = Prim::f64;  // the element type whose shortest digits are printed
  bool exp = false;
  size_t pad_left = 0, pad_right = 0;
  size_t exp_digits = 2;  // numpy pads every exponent to the longest one

  std::string special(double v) const { return std::isnan(v) ? "nan" : v < 0 ? "-inf" : "inf"; }

  void fit(const std::vector<double>& vals) {
    double maxv = 0, minv = INFINITY;
    bool any = false;
    for (double v : vals) {
      if (!std::isfinite(v)) continue;
      double a = std::fabs(v);
      maxv = std::max(maxv, a);
      if (a != 0) minv = std::min(minv, a);
      any = true;
    }
    if (any && minv != INFINITY) exp = maxv >= 1e8 || minv < 1e-4 || maxv / minv > 1e3;
    for (double v : vals) {
      if (!std::isfinite(v)) continue;
      std::string s = exp ? scientific(v, prec) : positional(v, prec);
      size_t dot = s.find('.');
      if (exp) {
        size_t e = s.find('e');
        pad_left = std::max(pad_left, dot);
        pad_right = std::max(pad_right, e - dot - 1);
        exp_digits = std::max(exp_digits, s.size() - e - 2);
      } else {
        pad_left = std::max(pad_left, dot);
        pad_right = std::max(pad_right, s.size() - dot - 1);
      }
    }
    // numpy widens the integer part so that nan / inf / -inf fit
    bool nonfinite = false, neginf = false;
    for (double v : vals) {
      if (std::isfinite(v)) continue;
      nonfinite = true;
      neginf |= std::isinf(v) && v < 0;
    }
    if (nonfinite) {
      int offset = (int)pad_right + 1;
      int need = std::max(3 - offset, 3 + (neginf ? 1 : 0) - offset);
      if (need > (int)pad_left) pad_left = (size_t)need;
    }
  }

  std::string operator()(double v) const {
    if (!std::isfinite(v)) {
      std::string s = special(v);
      size_t w = pad_left + pad_right + 1 + (exp ? 2 + exp_digits : 0);  // exp: the "e+XX" too
      return std::string(w > s.size() ? w - s.size() : 0, ' ') + s;
    }
    std::string s = exp ? scientific(v, prec) : positional(v, prec);
    size_t dot = s.find('.');
    size_t right = exp ? s.find('e') - dot - 1 : s.size() - dot - 1;
    if (exp && pad_right > right) {
      // numpy's dragon4 fills a short mantissa with the value's exact further
      // digits (float16 0.1 is 9.9976e-02 next to a 4-digit mantissa): what
      // printf's correctly rounded %.*e gives
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.*e", (int)pad_right, std::fabs(v));
      char* e = std::strchr(buf, 'e');
      int x = std::atoi(e + 1);
      char ex[16];
      std::snprintf(ex, sizeof ex, "e%c%02d", x < 0 ? '-' : '+', std::abs(x));
      s = (std::signbit(v) ? "-" : "") + std::string(buf, e) + ex;
      dot = s.find('.');
      right = pad_right;
    }
    std::string out = std::string(pad_left > dot ? pad_left - dot : 0, ' ') + s;
    if (exp) {
      size_t digits = out.size() - (out.find('e') + 2);
      if (digits < exp_digits) out.insert(out.find('e') + 2, std::string(exp_digits - digits, '0'));
    } else {
      out += std::string(pad_right > right ? pad_right - right : 0, ' ');
    }
    return out;
  }
};

// numpy's _extendLine: wrap before `word` unless the line holds only the prefix.
void extend_line(std::string& s, std::string& line, const std::string& word, size_t width, const std::string& prefix) {
  bool wrap = line.size() + word.size() > width && line.size() > prefix.size();
  if (wrap) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    s += line + "\n";
    line = prefix;
  }
  line += word;
}

// numpy's _formatArray (1.24, non-legacy): `sep` is ' ' for str, ', ' for repr.
struct ArrayPrinter {
  const std::vector<int64_t>& shape;
  const std::vector<std::string>& cells;  // formatted elements, row-major
  bool summarize;
  std::string sep;

  std::string rec(std::vector<int64_t>& index, const std::string& hanging, size_t width) const {
    size_t axis = index.size();
    if (axis == shape.size()) {
      size_t flat = 0;
      for (size_t d = 0; d < shape.size(); d++) flat = flat * (size_t)shape[d] + (size_t)index[d];
      return cells[flat];
    }
    std::string next_hanging = hanging + " ";
    size_t next_width = width - 1;
    int64_t n = shape[axis];
    bool summary = summarize && 2 * kEdge < n;
    int64_t leading = summary ? kEdge : 0, trailing = summary ? kEdge : n;
    size_t left = shape.size() - axis;
    std::string s;
    auto item = [&](int64_t i) {
      index.push_back(i < 0 ? n + i : i);
      std::string r = rec(index, next_hanging, next_width);
      index.pop_back();
      return r;
    };
    std::string sep_r = sep;
    while (!sep_r.empty() && sep_r.back() == ' ') sep_r.pop_back();
    if (left == 1) {
      size_t elem_width = width - std::max<size_t>(sep_r.size(), 1);
      std::string line = hanging;
      for (int64_t i = 0; i < leading; i++) {
        extend_line(s, line, item(i), elem_width, hanging);
        line += sep;
      }
      if (summary) {
        extend_line(s, line, "...", elem_width, hanging);
        line += sep;
      }
      for (int64_t i = trailing; i > 1; i--) {
        extend_line(s, line, item(-i), elem_width, hanging);
        line += sep;
      }
      extend_line(s, line, item(-1), elem_width, hanging);
      s += line;
    } else {
      std::string line_sep = sep_r + std::string(left - 1, '\n');
      for (int64_t i = 0; i < leading; i++) s += hanging + item(i) + line_sep;
      if (summary) s += hanging + "..." + line_sep;
      for (int64_t i = trailing; i > 1; i--) s += hanging + item(-i) + line_sep;
      s += hanging + item(-1);
    }
    return "[" + s.substr(hanging.size()) + "]";
  }
};

// A 0-d value as numpy's scalar types print it: float32 with the shortest
// digits of its own precision (0.1, not 0.10000000149011612).
std::string scalar_text(Evaluator& ev, Prim dtype, const Value& v) {
  if (dtype == Prim::none) return ev.truthy(v) ? "True" : "False";
  if (!prim_is_float(dtype)) return std::to_string(v.as_int());
  double d = v.as_double();
  if (dtype != Prim::f64 && std::isfinite(d)) {
    std::string digits;
    int e;
    shortest(std::fabs(d), dtype == Prim::f16 ? Prim::f16 : Prim::f32, digits, e);
    d = std::copysign(std::strtod(("0." + digits + "e" + std::to_string(e)).c_str(), nullptr), d);
  }
  return ev.repr(Value::floating(d));
}

// The formatted text of every shown element (numpy's format function is
// fitted to the shown elements only).
std::string format_array(Evaluator& ev, const std::vector<int64_t>& shape, Prim dtype,
                         const std::function<Value(int64_t)>& get, const std::string& sep,
                         const std::string& next_line_prefix, size_t line_width) {
  int64_t total = 1;
  for (auto n : shape) total *= n;
  bool summarize = total > kThreshold;
  if (shape.empty()) return scalar_text(ev, dtype, get(0));
  // The elements that will be shown (all, or the edges of each axis).
  std::vector<int64_t> idx(shape.size(), 0);
  auto shown = [&](const std::vector<int64_t>& at) {
    if (!summarize) return true;
    for (size_t d = 0; d < at.size(); d++)
      if (2 * kEdge < shape[d] && at[d] >= kEdge && at[d] < shape[d] - kEdge) return false;
    return true;
  };
  std::vector<Value> vals((size_t)total);
  std::vector<bool> have((size_t)total, false);
  std::vector<double> fvals;
  for (int64_t k = 0; k < total; k++) {
    int64_t r = k;
    for (size_t d = shape.size(); d-- > 0;) {
      idx[d] = r % shape[d];
      r /= shape[d];
    }
    if (!shown(idx)) continue;
    vals[(size_t)k] = get(k);
    have[(size_t)k] = true;
    if (vals[(size_t)k].kind == Kind::Float) fvals.push_back(vals[(size_t)k].f);
  }
  std::vector<std::string> cells((size_t)total);
  if (dtype == Prim::none) {
    // numpy's BoolFormat pads True to the width of False.
    for (size_t k = 0; k < cells.size(); k++)
      if (have[k]) cells[k] = ev.truthy(vals[k]) ? " True" : "False";
  } else if (prim_is_float(dtype)) {
    FloatFormat ff;
    ff.prec = dtype == Prim::f64 || dtype == Prim::f16 ? dtype : Prim::f32;
    ff.fit(fvals);
    for (size_t k = 0; k < cells.size(); k++)
      if (have[k] && vals[k].kind == Kind::Float) cells[k] = ff(vals[k].f);
  } else {
    size_t w = 0;
    for (size_t k = 0; k < cells.size(); k++)
      if (have[k]) w = std::max(w, std::to_string(vals[k].as_int()).size());
    for (size_t k = 0; k < cells.size(); k++)
      if (have[k]) {
        std::string s = std::to_string(vals[k].as_int());
        cells[k] = std::string(w - s.size(), ' ') + s;
      }
  }
  std::vector<int64_t> index;
  return ArrayPrinter{shape, cells, summarize, sep}.rec(index, next_line_prefix, line_width);
}

}  // namespace

std::string ndarray_str(Evaluator& ev, const std::vector<int64_t>& shape, Prim dtype,
                        const std::function<Value(int64_t)>& get) {
  for (auto n : shape)
    if (n == 0) return "[]";
  return format_array(ev, shape, dtype, get, " ", " ", kLineWidth);
}

std::string np_scalar_str(Evaluator& ev, Prim dt, const Value& v) { return scalar_text(ev, dt, v); }

std::string np_array_str(Evaluator& ev, const NpArrayObj& a) {
  return ndarray_str(ev, a.shape, a.dtype, [&](int64_t k) { return a.get_flat(k); });
}

// numpy's _array_repr_implementation: "array([...], dtype=float32)", the
// dtype left out when implied (float64, int64, bool) and moved to its own
// line when it would pass the line width.
std::string np_array_repr(Evaluator& ev, const NpArrayObj& a) {
  bool implied = a.dtype == Prim::f64 || a.dtype == Prim::i64 || a.dtype == Prim::none;
  bool skip_dtype = implied && a.size() > 0;
  std::string prefix = "array(", suffix = skip_dtype ? ")" : ",";
  std::string lst;
  if (a.size() > 0)
    lst = format_array(ev, a.shape, a.dtype, [&](int64_t k) { return a.get_flat(k); }, ", ",
                       " " + std::string(prefix.size(), ' '), kLineWidth - suffix.size());
  else if (a.shape.size() == 1)
    lst = "[]";
  else
    lst = "[], shape=" + np_shape_str(a.shape);
  std::string s = prefix + lst + suffix;
  if (skip_dtype) return s;
  std::string dtype_str = "dtype=" + np_dtype_name(a.dtype) + ")";
  size_t nl = s.rfind('\n');
  size_t last_line = s.size() - (nl == std::string::npos ? 0 : nl + 1);
  std::string spacer = last_line + dtype_str.size() + 1 > kLineWidth ? "\n" + std::string(prefix.size(), ' ') : " ";
  return s + spacer + dtype_str;
}

std::string field_str(Evaluator& ev, FieldObj& f, SourceLoc loc) {
  FieldInfo& info = f.checked(loc);
  Program& prog = *f.ti->program;
  std::vector<int64_t> idx(info.shape.size(), 0);
  return ndarray_str(ev, info.shape, info.dtype, [&](int64_t k) {
    for (size_t d = info.shape.size(); d-- > 0;) {
      idx[d] = k % info.shape[d] + info.offset_at(d);  // printing ignores offsets: element 0 first
      k /= info.shape[d];
    }
    return read_element(prog, info, idx.data(), (int)idx.size(), loc);
  });
}

}  // namespace kiln::host
