// The builtin types as callable class objects (int, float, str, bool, list,
// tuple, dict, range, type, object, slice) and the iteration protocol.
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "vm/host/attrs.h"
#include "vm/host/evaluator.h"
#include "vm/support/format.h"

namespace kiln::host {

// ---- iteration ------------------------------------------------------------------

void Evaluator::iterate(const Value& v, SourceLoc loc, const std::function<bool(const Value&)>& fn) {
  switch (v.kind) {
    case Kind::List: {
      auto list = v.ptr<ListObj>();  // keep alive; the loop sees appends, as Python's does
      for (size_t k = 0; k < list->items.size(); k++) {
        Value item = list->items[k];
        if (!fn(item)) return;
      }
      return;
    }
    case Kind::Tuple: {
      auto t = v.ptr<TupleObj>();
      for (auto& x : t->items)
        if (!fn(x)) return;
      return;
    }
    case Kind::Str: {
      const std::string& s = str_of(v);
      for (size_t k = 0; k < s.size();) {
        unsigned char c = (unsigned char)s[k];
        size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        if (!fn(Value::str(s.substr(k, n)))) return;
        k += n;
      }
      return;
    }
    case Kind::Dict: {
      std::vector<Value> keys;
      v.as<DictObj>()->each([&](const Value& key, const Value&) { keys.push_back(key); });
      for (auto& k : keys)
        if (!fn(k)) return;
      return;
    }
    case Kind::Range: {
      auto* r = v.as<RangeObj>();
      int64_t n = r->length();
      for (int64_t k = 0; k < n; k++)
        if (!fn(Value::integer(r->at(k)))) return;
      return;
    }
    case Kind::Iterator: {
      auto it = v.ptr<IteratorObj>();
      Value x;
      while (it->next(x))
        if (!fn(x)) return;
      return;
    }
    case Kind::Instance: {
      Value m;
      if (try_get_attr(v, "__iter__", loc, m)) {
        Value it = call(m, {}, loc);
        Value next;
        if (it.kind == Kind::Instance && try_get_attr(it, "__next__", loc, next)) {
          auto stop = exception_class("StopIteration");
          while (true) {
            Value x;
            try {
              x = call(next, {}, loc);
            } catch (Error& e) {
              if (exception_value(e).as<InstanceObj>()->cls->is_subclass_of(stop.get())) return;
              throw;
            }
            if (!fn(x)) return;
          }
        }
        iterate(it, loc, fn);
        return;
      }
      if (try_get_attr(v, "__getitem__", loc, m)) {
        // The old sequence protocol: __getitem__(0), (1), ... until IndexError.
        auto ie = exception_class("IndexError");
        for (int64_t k = 0;; k++) {
          Value x;
          try {
            x = call(m, {Value::integer(k)}, loc);
          } catch (Error& e) {
            if (exception_value(e).as<InstanceObj>()->cls->is_subclass_of(ie.get())) return;
            throw;
          }
          if (!fn(x)) return;
        }
      }
      break;
    }
    case Kind::Host: {
      Value it;
      if (v.as<HostObj>()->as_iterable(*this, loc, it)) {
        iterate(it, loc, fn);
        return;
      }
      break;
    }
    default: break;
  }
  raise("TypeError", "'" + type_name(v) + "' object is not iterable", loc);
}

std::vector<Value> Evaluator::to_vector(const Value& v, SourceLoc loc) {
  if (v.kind == Kind::List) return v.as<ListObj>()->items;
  if (v.kind == Kind::Tuple) return v.as<TupleObj>()->items;
  std::vector<Value> out;
  iterate(v, loc, [&](const Value& x) { out.push_back(x); return true; });
  return out;
}

Value Evaluator::make_iterator(const Value& v, SourceLoc loc) {
  if (v.kind == Kind::Iterator) return v;
  if (v.kind == Kind::List) {
    auto list = v.ptr<ListObj>();
    size_t k = 0;
    return Value::of(std::make_shared<IteratorObj>("list_iterator", [list, k](Value& out) mutable {
      if (k >= list->items.size()) return false;
      out = list->items[k++];
      return true;
    }));
  }
  if (v.kind == Kind::Range) {
    auto r = v.ptr<RangeObj>();
    int64_t k = 0, n = r->length();
    return Value::of(std::make_shared<IteratorObj>("range_iterator", [r, k, n](Value& out) mutable {
      if (k >= n) return false;
      out = Value::integer(r->at(k++));
      return true;
    }));
  }
  auto items = std::make_shared<std::vector<Value>>(to_vector(v, loc));
  size_t k = 0;
  std::string name = type_name(v) + "_iterator";
  if (v.kind == Kind::Dict) name = "dict_keyiterator";
  return Value::of(std::make_shared<IteratorObj>(name, [items, k](Value& out) mutable {
    if (k >= items->size()) return false;
    out = (*items)[k++];
    return true;
  }));
}

// ---- conversions -----------------------------------------------------------------

static std::string strip(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\n\r\f\v");
  return s.substr(b, e - b + 1);
}

int64_t float_to_int(double d, SourceLoc loc) {
  if (std::isnan(d)) raise("ValueError", "cannot convert float NaN to integer", loc);
  if (std::isinf(d)) raise("OverflowError", "cannot convert float infinity to integer", loc);
  double t = std::trunc(d);
  if (t >= 9223372036854775808.0 || t < -9223372036854775808.0) overflow(loc);
  return (int64_t)t;
}

static Value parse_int(const std::string& text, int64_t base, SourceLoc loc) {
  std::string s = strip(text);
  auto bad = [&]() -> Value {
    raise("ValueError", "invalid literal for int() with base " + std::to_string(base) + ": " + py_str_repr(text), loc);
  };
  size_t k = 0;
  bool neg = false;
  if (k < s.size() && (s[k] == '+' || s[k] == '-')) neg = s[k++] == '-';
  int64_t b = base;
  if (k + 1 < s.size() && s[k] == '0') {
    char p = (char)std::tolower(s[k + 1]);
    int64_t pb = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
    if (pb && (b == 0 || b == pb)) {
      b = pb;
      k += 2;
      if (k < s.size() && s[k] == '_') k++;
    }
  }
  if (b == 0) b = 10;
  if (k >= s.size()) return bad();
  uint64_t acc = 0;
  bool prev_digit = false;
  for (; k < s.size(); k++) {
    char c = s[k];
    if (c == '_') {
      if (!prev_digit) return bad();
      prev_digit = false;
      continue;
    }
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : 99;
    if (d >= b) return bad();
    if (acc > (UINT64_MAX - (uint64_t)d) / (uint64_t)b) overflow(loc);
    acc = acc * (uint64_t)b + (uint64_t)d;
    prev_digit = true;
  }
  if (!prev_digit) return bad();
  if (neg ? acc > (uint64_t)INT64_MAX + 1 : acc > (uint64_t)INT64_MAX) overflow(loc);
  return Value::integer(neg ? (int64_t)(0 - acc) : (int64_t)acc);
}

double parse_float(const std::string& text, SourceLoc loc) {
  std::string s = strip(text);
  std::string t;
  for (size_t k = 0; k < s.size(); k++) {
    // underscores only between digits
    if (s[k] == '_' && k > 0 && k + 1 < s.size() && std::isdigit((unsigned char)s[k - 1]) && std::isdigit((unsigned char)s[k + 1])) continue;
    t += s[k];
  }
  std::string low;
  for (char c : t) low += (char)std::tolower((unsigned char)c);
  std::string body = low;
  double sign = 1;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    sign = body[0] == '-' ? -1 : 1;
    body = body.substr(1);
  }
  if (body == "inf" || body == "infinity") return sign * INFINITY;
  if (body == "nan") return std::copysign(NAN, sign);
  bool ok = !t.empty();
  for (char c : body)
    if (!(std::isdigit((unsigned char)c) || c == '.' || c == 'e' || c == '+' || c == '-')) ok = false;
  char* end = nullptr;
  double d = 0;
  if (ok) {
    errno = 0;
    d = std::strtod(t.c_str(), &end);
    ok = end && *end == 0 && end != t.c_str();
  }
  if (!ok) raise("ValueError", "could not convert string to float: " + py_str_repr(text), loc);
  return d;
}

static Value int_ctor(Evaluator& ev, CallArgs& a) {
  Value base_v;
  bool has_base = a.take_kw("base", base_v);
  no_kwargs(a, "int");
  if (a.pos.size() > 2) raise("TypeError", "int() takes at most 2 arguments (" + std::to_string(a.pos.size()) + " given)", a.loc);
  if (a.pos.size() == 2) {
    base_v = a.pos[1];
    has_base = true;
  }
  if (a.pos.empty()) return Value::integer(0);
  const Value& v = a.pos[0];
  if (has_base) {
    if (v.kind != Kind::Str) raise("TypeError", "int() can't convert non-string with explicit base", a.loc);
    int64_t b = arg_int(ev, base_v, "int", a.loc);
    if (b != 0 && (b < 2 || b > 36)) raise("ValueError", "int() base must be >= 2 and <= 36, or 0", a.loc);
    return parse_int(str_of(v), b, a.loc);
  }
  switch (v.kind) {
    case Kind::Int: return v;
    case Kind::Bool: return Value::integer(v.as_int());
    case Kind::Float: return Value::integer(float_to_int(v.f, a.loc));
    case Kind::Str: return parse_int(str_of(v), 10, a.loc);
    default: break;
  }
  Value m;
  if ((v.kind == Kind::Instance || v.kind == Kind::Host) && ev.try_get_attr(v, "__int__", a.loc, m)) return ev.call(m, {}, a.loc);
  raise("TypeError", "int() argument must be a string, a bytes-like object or a real number, not '" + ev.type_name(v) + "'", a.loc);
}

static Value float_ctor(Evaluator& ev, CallArgs& a) {
  no_kwargs(a, "float");
  expect_args(a, "float", 0, 1);
  if (a.pos.empty()) return Value::floating(0.0);
  const Value& v = a.pos[0];
  if (v.is_number()) return Value::floating(v.as_double());
  if (v.kind == Kind::Str) return Value::floating(parse_float(str_of(v), a.loc));
  Value m;
  if ((v.kind == Kind::Instance || v.kind == Kind::Host) && ev.try_get_attr(v, "__float__", a.loc, m)) return ev.call(m, {}, a.loc);
  raise("TypeError", "float() argument must be a string or a real number, not '" + ev.type_name(v) + "'", a.loc);
}

static Value dict_ctor(Evaluator& ev, CallArgs& a) {
  expect_args(a, "dict", 0, 1);
  auto d = std::make_shared<DictObj>();
  if (!a.pos.empty()) {
    const Value& src = a.pos[0];
    if (src.kind == Kind::Dict) {
      src.as<DictObj>()->each([&](const Value& k, const Value& v) { d->set(k, v); });
    } else {
      int64_t idx = 0;
      ev.iterate(src, a.loc, [&](const Value& pair) {
        if (pair.kind != Kind::Tuple && pair.kind != Kind::List)
          raise("TypeError", "cannot convert dictionary update sequence element #" + std::to_string(idx) + " to a sequence", a.loc);
        auto items = ev.to_vector(pair, a.loc);
        if (items.size() != 2)
          raise("ValueError", "dictionary update sequence element #" + std::to_string(idx) + " has length " +
                                  std::to_string(items.size()) + "; 2 is required", a.loc);
        d->set(items[0], items[1], a.loc);
        idx++;
        return true;
      });
    }
  }
  for (auto& [k, v] : a.kw) d->set(Value::str(k), v);
  return Value::of(d);
}

static Value range_ctor(Evaluator& ev, CallArgs& a) {
  no_kwargs(a, "range");
  if (a.pos.empty()) raise("TypeError", "range expected at least 1 argument, got 0", a.loc);
  if (a.pos.size() > 3) raise("TypeError", "range expected at most 3 arguments, got " + std::to_string(a.pos.size()), a.loc);
  int64_t v[3];
  for (size_t k = 0; k < a.pos.size(); k++) v[k] = arg_int(ev, a.pos[k], "range", a.loc);
  int64_t start = 0, stop, step = 1;
  if (a.pos.size() == 1) stop = v[0];
  else {
    start = v[0];
    stop = v[1];
    if (a.pos.size() == 3) step = v[2];
  }
  if (step == 0) raise("ValueError", "range() arg 3 must not be zero", a.loc);
  return Value::of(std::make_shared<RangeObj>(start, stop, step));
}

static void add_type(Evaluator& ev, const char* name, Kind k, NativeFn ctor) {
  auto c = std::make_shared<ClassObj>();
  c->name = name;
  c->builtin_type = true;
  c->native = true;
  c->instance_kind = k;
  c->ctor = std::move(ctor);
  if (k != Kind::Instance) ev.type_classes[(int)k] = c;
  ev.builtins[name] = Value::of(c);
}

void install_types(Evaluator& ev) {
  add_type(ev, "int", Kind::Int, int_ctor);
  add_type(ev, "float", Kind::Float, float_ctor);
  add_type(ev, "bool", Kind::Bool, [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "bool", 0, 1);
    return Value::boolean(!a.pos.empty() && ev.truthy(a.pos[0], a.loc));
  });
  add_type(ev, "str", Kind::Str, [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "str", 0, 1);
    return a.pos.empty() ? Value::str("") : Value::str(ev.str(a.pos[0]));
  });
  add_type(ev, "list", Kind::List, [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "list", 0, 1);
    return make_list(a.pos.empty() ? std::vector<Value>{} : ev.to_vector(a.pos[0], a.loc));
  });
  add_type(ev, "tuple", Kind::Tuple, [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "tuple", 0, 1);
    if (!a.pos.empty() && a.pos[0].kind == Kind::Tuple) return a.pos[0];
    return make_tuple(a.pos.empty() ? std::vector<Value>{} : ev.to_vector(a.pos[0], a.loc));
  });
  add_type(ev, "dict", Kind::Dict, dict_ctor);
  add_type(ev, "range", Kind::Range, range_ctor);
  add_type(ev, "slice", Kind::Slice, [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "slice", 1, 3);
    auto s = std::make_shared<SliceObj>();
    if (a.pos.size() == 1) s->upper = a.pos[0];
    else {
      s->lower = a.pos[0];
      s->upper = a.pos[1];
      if (a.pos.size() == 3) s->step = a.pos[2];
    }
    return Value::of(s);
  });
  add_type(ev, "type", Kind::Class, [](Evaluator& ev, CallArgs& a) {
    if (a.pos.size() != 1) raise("TypeError", "type() takes 1 argument (creating classes with type() is not supported)", a.loc);
    return ev.type_of(a.pos[0]);
  });
  add_type(ev, "NoneType", Kind::None, nullptr);
  ev.builtins.erase("NoneType");
  add_type(ev, "function", Kind::Function, nullptr);
  ev.builtins.erase("function");
  add_type(ev, "module", Kind::Module, nullptr);
  ev.builtins.erase("module");
  add_type(ev, "object", Kind::Instance, [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "object", 0, 0);
    auto inst = std::make_shared<InstanceObj>();
    auto c = std::make_shared<ClassObj>();
    c->name = "object";
    c->native = true;
    inst->cls = c;
    return Value::of(inst);
  });
  auto descriptor = [&](const char* name, DescriptorObj::Which w) {
    ev.builtins[name] = make_builtin(name, [w, name](Evaluator& ev, CallArgs& a) {
      expect_args(a, name, 1, w == DescriptorObj::Property ? 2 : 1);
      auto d = std::make_shared<DescriptorObj>(w, a.pos[0]);
      if (a.pos.size() == 2) d->setter = a.pos[1];
      return Value::of(d);
    });
  };
  descriptor("staticmethod", DescriptorObj::Static);
  descriptor("classmethod", DescriptorObj::ClassMethod);
  descriptor("property", DescriptorObj::Property);
}

}  // namespace kiln::host
