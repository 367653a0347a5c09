// Numeric builtins and reductions: abs, round, divmod, pow, min, max, sum,
// sorted, reversed, any, all, and the iterator builders zip, enumerate, map, filter.
#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "vm/host/evaluator.h"

namespace kiln::host {

using ast::BinOpKind;

void sort_values(Evaluator& ev, std::vector<Value>& items, const Value& key, bool reverse, SourceLoc loc) {
  // reverse=True keeps equal items in their original order, as CPython does:
  // reverse, stable sort, reverse.
  if (reverse) std::reverse(items.begin(), items.end());
  if (key.is_none()) {
    std::vector<Value> tmp = items;
    std::stable_sort(tmp.begin(), tmp.end(), [&](const Value& x, const Value& y) { return ev.less(x, y, loc); });
    items = std::move(tmp);
  } else {
    std::vector<std::pair<Value, size_t>> keyed;
    keyed.reserve(items.size());
    for (size_t k = 0; k < items.size(); k++) keyed.emplace_back(ev.call(key, {items[k]}, loc), k);
    std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) { return ev.less(x.first, y.first, loc); });
    std::vector<Value> out;
    out.reserve(items.size());
    for (auto& [kv, idx] : keyed) out.push_back(items[idx]);
    items = std::move(out);
  }
  if (reverse) std::reverse(items.begin(), items.end());
}

namespace {

// round(x, n) for floats, correctly rounded like CPython (which rounds the
// exact binary value in decimal, so round(2.675, 2) == 2.67).
double round_float(double x, int64_t n) {
  if (!std::isfinite(x) || x == 0) return x;
  if (n > 330) return x;
  if (n >= 0) {
    // printf renders the exact binary value rounded half-even: that is the
    // correctly rounded decimal CPython computes with dtoa.
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", (int)n, x);
    return std::strtod(buf, nullptr);
  }
  if (n < -330) return std::copysign(0.0, x);
  double p = std::pow(10.0, (double)-n);
  double y = x / p;
  double z = std::nearbyint(y);  // ties to even in the default rounding mode
  double r = z * p;
  return std::isfinite(r) ? r : x;
}

Value minmax(Evaluator& ev, CallArgs& a, bool is_max) {
  const char* name = is_max ? "max" : "min";
  Value key, def;
  bool has_def = a.take_kw("default", def);
  a.take_kw("key", key);
  if (!a.kw.empty()) raise("TypeError", "'" + a.kw[0].first + "' is an invalid keyword argument for " + name + "()", a.loc);
  if (a.pos.empty()) raise("TypeError", std::string(name) + " expected at least 1 argument, got 0", a.loc);
  std::vector<Value> items;
  if (a.pos.size() == 1) {
    items = ev.to_vector(a.pos[0], a.loc);
  } else {
    if (has_def) raise("TypeError", std::string("Cannot specify a default for ") + name + "() with multiple positional arguments", a.loc);
    items = a.pos;
  }
  if (items.empty()) {
    if (has_def) return def;
    raise("ValueError", std::string(name) + "() arg is an empty sequence", a.loc);
  }
  size_t best = 0;
  Value best_key = key.is_none() ? items[0] : ev.call(key, {items[0]}, a.loc);
  for (size_t k = 1; k < items.size(); k++) {
    Value kv = key.is_none() ? items[k] : ev.call(key, {items[k]}, a.loc);
    bool better = is_max ? ev.less(best_key, kv, a.loc) : ev.less(kv, best_key, a.loc);
    if (better) {
      best = k;
      best_key = kv;
    }
  }
  return items[best];
}

Value iterator_of(std::string name, std::vector<Value> items) {
  auto data = std::make_shared<std::vector<Value>>(std::move(items));
  size_t k = 0;
  return Value::of(std::make_shared<IteratorObj>(std::move(name), [data, k](Value& out) mutable {
    if (k >= data->size()) return false;
    out = (*data)[k++];
    return true;
  }));
}

}  // namespace

void install_builtins_numeric(Evaluator& ev) {
  ev.def_builtin("abs", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "abs", 1, 1);
    const Value& v = a.pos[0];
    if (v.kind == Kind::Float) return Value::floating(std::fabs(v.f));
    if (v.is_int_like()) {
      if (v.as_int() == INT64_MIN) overflow(a.loc);
      return Value::integer(std::llabs(v.as_int()));
    }
    Value m;
    if ((v.kind == Kind::Instance || v.kind == Kind::Host) && ev.try_get_attr(v, "__abs__", a.loc, m)) return ev.call(m, {}, a.loc);
    raise("TypeError", "bad operand type for abs(): '" + ev.type_name(v) + "'", a.loc);
  });
  ev.def_builtin("round", [](Evaluator& ev, CallArgs& a) {
    Value nd;
    if (a.take_kw("ndigits", nd) && a.pos.size() == 1) a.pos.push_back(nd);
    no_kwargs(a, "round");
    expect_args(a, "round", 1, 2);
    const Value& v = a.pos[0];
    bool has_n = a.pos.size() == 2 && !a.pos[1].is_none();
    int64_t n = has_n ? arg_int(ev, a.pos[1], "round", a.loc) : 0;
    if (v.is_int_like()) {
      int64_t x = v.as_int();
      if (!has_n || n >= 0) return Value::integer(x);
      if (n < -18) return Value::integer(0);
      int64_t p = 1;
      for (int64_t k = 0; k < -n; k++) p *= 10;
      int64_t q = x / p, r = x % p;
      if (r < 0) { r += p; q -= 1; }
      if (2 * r > p || (2 * r == p && (q & 1))) q += 1;
      return Value::integer(checked_mul(q, p, a.loc));
    }
    if (v.kind == Kind::Float) {
      if (!has_n) return Value::integer(float_to_int(std::nearbyint(v.f), a.loc));
      return Value::floating(round_float(v.f, n));
    }
    Value m;
    if ((v.kind == Kind::Instance || v.kind == Kind::Host) && ev.try_get_attr(v, "__round__", a.loc, m)) {
      std::vector<Value> args;
      if (has_n) args.push_back(a.pos[1]);
      return ev.call(m, std::move(args), a.loc);
    }
    raise("TypeError", "type " + ev.type_name(v) + " doesn't define __round__ method", a.loc);
  });
  ev.def_builtin("divmod", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "divmod", 2, 2);
    const Value &x = a.pos[0], &y = a.pos[1];
    if (x.is_number() && y.is_number()) {
      if (y.as_double() == 0)
        raise("ZeroDivisionError", x.kind == Kind::Float || y.kind == Kind::Float ? "float divmod()" : "integer division or modulo by zero", a.loc);
    }
    return make_tuple({ev.binop(BinOpKind::FloorDiv, x, y, a.loc), ev.binop(BinOpKind::Mod, x, y, a.loc)});
  });
  ev.def_builtin("pow", [](Evaluator& ev, CallArgs& a) {
    Value m;
    if (a.take_kw("mod", m)) a.pos.push_back(m);
    expect_args(a, "pow", 2, 3);
    if (a.pos.size() == 3 && !a.pos[2].is_none()) {
      if (!a.pos[0].is_int_like() || !a.pos[1].is_int_like() || !a.pos[2].is_int_like())
        raise("TypeError", "pow() 3rd argument not allowed unless all arguments are integers", a.loc);
      int64_t b = a.pos[0].as_int(), e = a.pos[1].as_int(), md = a.pos[2].as_int();
      if (md == 0) raise("ValueError", "pow() 3rd argument cannot be 0", a.loc);
      if (e < 0) raise("ValueError", "base is not invertible for the given modulus", a.loc);
      __int128 result = 1, base = ((b % md) + md) % md;
      while (e > 0) {
        if (e & 1) result = result * base % md;
        base = base * base % md;
        e >>= 1;
      }
      int64_t r = (int64_t)result;
      if (md < 0 && r > 0) r += md;
      return Value::integer(r);
    }
    return ev.binop(BinOpKind::Pow, a.pos[0], a.pos[1], a.loc);
  });
  ev.def_builtin("min", [](Evaluator& ev, CallArgs& a) { return minmax(ev, a, false); });
  ev.def_builtin("max", [](Evaluator& ev, CallArgs& a) { return minmax(ev, a, true); });
  ev.def_builtin("sum", [](Evaluator& ev, CallArgs& a) {
    Value start = Value::integer(0);
    Value s;
    if (a.take_kw("start", s)) start = s;
    no_kwargs(a, "sum");
    expect_args(a, "sum", 1, 2);
    if (a.pos.size() == 2) start = a.pos[1];
    if (start.kind == Kind::Str) raise("TypeError", "sum() can't sum strings [use ''.join(seq) instead]", a.loc);
    Value acc = start;
    ev.iterate(a.pos[0], a.loc, [&](const Value& x) {
      if (acc.kind == Kind::Float && x.kind == Kind::Float) acc.f += x.f;
      else acc = ev.binop(BinOpKind::Add, acc, x, a.loc);
      return true;
    });
    return acc;
  });
  ev.def_builtin("sorted", [](Evaluator& ev, CallArgs& a) {
    Value key, rev;
    a.take_kw("key", key);
    a.take_kw("reverse", rev);
    no_kwargs(a, "sorted");
    expect_args(a, "sorted", 1, 1);
    std::vector<Value> items = ev.to_vector(a.pos[0], a.loc);
    sort_values(ev, items, key, ev.truthy(rev), a.loc);
    return make_list(std::move(items));
  });
  ev.def_builtin("reversed", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "reversed", 1, 1);
    const Value& v = a.pos[0];
    if (v.kind == Kind::Dict || v.kind == Kind::Iterator || v.kind == Kind::Host)
      raise("TypeError", "'" + ev.type_name(v) + "' object is not reversible", a.loc);
    std::vector<Value> items = ev.to_vector(v, a.loc);
    std::reverse(items.begin(), items.end());
    const char* name = v.kind == Kind::List ? "list_reverseiterator" : v.kind == Kind::Range ? "range_iterator" : "reversed";
    return iterator_of(name, std::move(items));
  });
  ev.def_builtin("any", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "any", 1, 1);
    bool r = false;
    ev.iterate(a.pos[0], a.loc, [&](const Value& x) { r = ev.truthy(x, a.loc); return !r; });
    return Value::boolean(r);
  });
  ev.def_builtin("all", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "all", 1, 1);
    bool r = true;
    ev.iterate(a.pos[0], a.loc, [&](const Value& x) { r = ev.truthy(x, a.loc); return r; });
    return Value::boolean(r);
  });
  ev.def_builtin("zip", [](Evaluator& ev, CallArgs& a) {
    Value strict;
    a.take_kw("strict", strict);
    no_kwargs(a, "zip");
    std::vector<Value> its;
    for (auto& v : a.pos) its.push_back(ev.make_iterator(v, a.loc));
    return Value::of(std::make_shared<IteratorObj>("zip", [its](Value& out) {
      if (its.empty()) return false;
      std::vector<Value> tup;
      for (auto& it : its) {
        Value x;
        if (!it.as<IteratorObj>()->next(x)) return false;
        tup.push_back(std::move(x));
      }
      out = make_tuple(std::move(tup));
      return true;
    }));
  });
  ev.def_builtin("enumerate", [](Evaluator& ev, CallArgs& a) {
    Value st;
    bool has = a.take_kw("start", st);
    no_kwargs(a, "enumerate");
    expect_args(a, "enumerate", 1, 2);
    if (a.pos.size() == 2) { st = a.pos[1]; has = true; }
    int64_t k = has ? arg_int(ev, st, "enumerate", a.loc) : 0;
    Value it = ev.make_iterator(a.pos[0], a.loc);
    return Value::of(std::make_shared<IteratorObj>("enumerate", [it, k](Value& out) mutable {
      Value x;
      if (!it.as<IteratorObj>()->next(x)) return false;
      out = make_tuple({Value::integer(k++), std::move(x)});
      return true;
    }));
  });
  ev.def_builtin("map", [](Evaluator& ev, CallArgs& a) {
    no_kwargs(a, "map");
    if (a.pos.size() < 2) raise("TypeError", "map() must have at least two arguments.", a.loc);
    // Evaluated eagerly: host code has no generators whose laziness could show.
    std::vector<std::vector<Value>> cols;
    size_t n = SIZE_MAX;
    for (size_t k = 1; k < a.pos.size(); k++) {
      cols.push_back(ev.to_vector(a.pos[k], a.loc));
      n = std::min(n, cols.back().size());
    }
    std::vector<Value> out;
    for (size_t i = 0; i < n; i++) {
      std::vector<Value> args;
      for (auto& c : cols) args.push_back(c[i]);
      out.push_back(ev.call(a.pos[0], std::move(args), a.loc));
    }
    return iterator_of("map", std::move(out));
  });
  ev.def_builtin("filter", [](Evaluator& ev, CallArgs& a) {
    no_kwargs(a, "filter");
    expect_args(a, "filter", 2, 2);
    std::vector<Value> out;
    ev.iterate(a.pos[1], a.loc, [&](const Value& x) {
      bool keep = a.pos[0].is_none() ? ev.truthy(x, a.loc) : ev.truthy(ev.call(a.pos[0], {x}, a.loc), a.loc);
      if (keep) out.push_back(x);
      return true;
    });
    return iterator_of("filter", std::move(out));
  });
}

}  // namespace kiln::host
