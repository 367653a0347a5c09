#include "vm/host/value.h"

#include <cmath>
#include <cstring>

#include "vm/host/objects.h"

namespace kiln::host {

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::None: return "NoneType";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Float: return "float";
    case Kind::Str: return "str";
    case Kind::Tuple: return "tuple";
    case Kind::List: return "list";
    case Kind::Dict: return "dict";
    case Kind::Range: return "range";
    case Kind::Slice: return "slice";
    case Kind::Function: return "function";
    case Kind::Builtin: return "builtin_function_or_method";
    case Kind::Class: return "type";
    case Kind::Instance: return "object";
    case Kind::BoundMethod: return "method";
    case Kind::Module: return "module";
    case Kind::Iterator: return "iterator";
    case Kind::Host: return "object";
  }
  return "object";
}

int64_t RangeObj::length() const {
  if (step > 0) return start < stop ? (stop - start + step - 1) / step : 0;
  return start > stop ? (start - stop - step - 1) / (-step) : 0;
}

bool CallArgs::take_kw(const std::string& name, Value& out) {
  for (size_t k = 0; k < kw.size(); k++)
    if (kw[k].first == name) {
      out = std::move(kw[k].second);
      kw.erase(kw.begin() + (long)k);
      return true;
    }
  return false;
}

const Value* ClassObj::find(const std::string& key) const {
  for (const ClassObj* c = this; c; c = c->base.get()) {
    auto it = c->attrs.find(key);
    if (it != c->attrs.end()) return &it->second;
  }
  return nullptr;
}

bool ClassObj::is_subclass_of(const ClassObj* other) const {
  for (const ClassObj* c = this; c; c = c->base.get())
    if (c == other) return true;
  return false;
}

[[noreturn]] void overflow(SourceLoc loc) {
  raise("OverflowError", "integer overflow (Kiln ints are 64-bit)", loc);
}
int64_t checked_add(int64_t a, int64_t b, SourceLoc loc) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) overflow(loc);
  return r;
}
int64_t checked_sub(int64_t a, int64_t b, SourceLoc loc) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) overflow(loc);
  return r;
}
int64_t checked_mul(int64_t a, int64_t b, SourceLoc loc) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) overflow(loc);
  return r;
}

static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}

uint64_t hash_value(const Value& v, SourceLoc loc) {
  switch (v.kind) {
    case Kind::None: return 0x9e3779b97f4a7c15ULL;
    case Kind::Bool:
    case Kind::Int: return mix((uint64_t)v.as_int());
    case Kind::Float: {
      // Equal numbers hash equal across int and float (1 == 1.0).
      double d = v.f;
      if (std::isfinite(d) && d == std::trunc(d) && std::fabs(d) < 9.2e18) return mix((uint64_t)(int64_t)d);
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      return mix(bits);
    }
    case Kind::Str: return std::hash<std::string>()(str_of(v));
    case Kind::Tuple: {
      uint64_t h = 0x345678;
      for (auto& e : v.as<TupleObj>()->items) h = mix(h * 1000003 ^ hash_value(e, loc));
      return h;
    }
    case Kind::List:
    case Kind::Dict:
    case Kind::Slice:
      raise("TypeError", std::string("unhashable type: '") + kind_name(v.kind) + "'", loc);
    case Kind::Host: return mix(v.as<HostObj>()->hash());
    default: return mix((uint64_t)(uintptr_t)v.obj.get());
  }
}

bool values_equal(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.kind == Kind::Float || b.kind == Kind::Float) {
      if (a.kind == Kind::Float && b.kind == Kind::Float) return a.f == b.f;
      // int vs float: compare exactly where the double is integral.
      double d = a.kind == Kind::Float ? a.f : b.f;
      int64_t n = a.kind == Kind::Float ? b.as_int() : a.as_int();
      if (!std::isfinite(d) || d != std::trunc(d)) return false;
      if (std::fabs(d) >= 9.3e18) return false;
      return (int64_t)d == n && (double)n == d;
    }
    return a.as_int() == b.as_int();
  }
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Kind::None: return true;
    case Kind::Str: return str_of(a) == str_of(b);
    case Kind::Tuple:
    case Kind::List: {
      auto& x = a.kind == Kind::Tuple ? a.as<TupleObj>()->items : a.as<ListObj>()->items;
      auto& y = b.kind == Kind::Tuple ? b.as<TupleObj>()->items : b.as<ListObj>()->items;
      if (x.size() != y.size()) return false;
      for (size_t k = 0; k < x.size(); k++)
        if (!(x[k].obj == y[k].obj && x[k].obj) && !values_equal(x[k], y[k])) return false;
      return true;
    }
    case Kind::Dict: {
      auto* x = a.as<DictObj>();
      auto* y = b.as<DictObj>();
      if (x->size() != y->size()) return false;
      bool eq = true;
      x->each([&](const Value& k, const Value& v) {
        if (!eq) return;
        Value* o = y->find(k);
        if (!o || !values_equal(v, *o)) eq = false;
      });
      return eq;
    }
    case Kind::Range: {
      auto* x = a.as<RangeObj>();
      auto* y = b.as<RangeObj>();
      int64_t n = x->length();
      if (n != y->length()) return false;
      if (n == 0) return true;
      if (x->start != y->start) return false;
      return n == 1 || x->step == y->step;
    }
    case Kind::Host: return a.as<HostObj>()->equals(*b.as<HostObj>());
    default: return a.obj == b.obj;
  }
}

Value* DictObj::find(const Value& key, SourceLoc loc) {
  uint64_t h = hash_value(key, loc);
  auto [lo, hi] = index.equal_range(h);
  for (auto it = lo; it != hi; ++it) {
    Entry& e = entries[it->second];
    if (e.live && (e.key.obj == key.obj && key.obj ? true : values_equal(e.key, key))) return &e.value;
  }
  return nullptr;
}

void DictObj::set(const Value& key, Value value, SourceLoc loc) {
  if (Value* v = find(key, loc)) {
    *v = std::move(value);
    return;
  }
  uint64_t h = hash_value(key, loc);
  index.emplace(h, entries.size());
  entries.push_back(Entry{key, std::move(value), h, true});
  live_count++;
}

bool DictObj::erase(const Value& key, Value* out, SourceLoc loc) {
  uint64_t h = hash_value(key, loc);
  auto [lo, hi] = index.equal_range(h);
  for (auto it = lo; it != hi; ++it) {
    Entry& e = entries[it->second];
    if (e.live && values_equal(e.key, key)) {
      if (out) *out = e.value;
      e.live = false;
      e.key = Value();
      e.value = Value();
      index.erase(it);
      live_count--;
      if (entries.size() > 16 && live_count * 2 < entries.size()) compact();
      return true;
    }
  }
  return false;
}

void DictObj::clear() {
  entries.clear();
  index.clear();
  live_count = 0;
}

void DictObj::compact() {
  std::vector<Entry> old;
  old.swap(entries);
  index.clear();
  for (auto& e : old)
    if (e.live) {
      index.emplace(e.hash, entries.size());
      entries.push_back(std::move(e));
    }
}

bool truthy_basic(const Value& v) {
  switch (v.kind) {
    case Kind::None: return false;
    case Kind::Bool: return v.b;
    case Kind::Int: return v.i != 0;
    case Kind::Float: return v.f != 0.0;
    case Kind::Str: return !str_of(v).empty();
    case Kind::Tuple: return !v.as<TupleObj>()->items.empty();
    case Kind::List: return !v.as<ListObj>()->items.empty();
    case Kind::Dict: return v.as<DictObj>()->size() != 0;
    case Kind::Range: return v.as<RangeObj>()->length() != 0;
    default: return true;
  }
}

}  // namespace kiln::host
