// The host evaluator's value model: what a Python value is while module top
// level and plain `def`s run.
//
// A Value is small: scalars (None, bool, int, float) live inline, everything
// else is a refcounted heap Object. We use std::shared_ptr rather than an
// intrusive count because the frontend receives host objects as
// std::shared_ptr<void> handles (StaticValue::handle), and aliasing a
// shared_ptr<Object> into shared_ptr<void> keeps them alive with no glue.
// Reference cycles (a function stored in the environment it closes over, a
// list that holds itself) are freed by the cycle collector of gc.h, which
// finds them from the shared_ptr counts, as CPython's collector does.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "vm/support/diag.h"

namespace kiln::host {

enum class Kind : uint8_t {
  None, Bool, Int, Float,            // inline
  Str, Tuple, List, Dict, Range, Slice,
  Function,     // a user `def` or lambda (closure over an Env)
  Builtin,      // a native function (print, math.sqrt, ti.sqrt, list.append, ...)
  Class,        // a class object: user classes, builtin types (int, list), exception classes
  Instance,     // an instance of a user class or of an exception class
  BoundMethod,  // obj.method with obj bound as the first argument
  Module,
  Iterator,     // lazy iterators: zip, enumerate, map, filter, reversed, iter()
  Host,         // Kiln objects: fields, kernels, ti.func, dtypes, SNodes (see ti_objects.h)
};
const char* kind_name(Kind k);

struct Object {
  const Kind kind;
  // Can hold references to other objects, so can be part of a cycle: the
  // cycle collector tracks it (gc.h) once it becomes a Value.
  bool gc_container;
  bool gc_tracked = false;
  explicit Object(Kind k)
      : kind(k),
        gc_container(k == Kind::Tuple || k == Kind::List || k == Kind::Dict || k == Kind::Function ||
                     k == Kind::Class || k == Kind::Instance || k == Kind::BoundMethod || k == Kind::Module) {}
  virtual ~Object() = default;
};

struct Env;
struct Value;
// Registers a container object with this thread's cycle collector (gc.cpp).
void gc_track(const std::shared_ptr<Object>& o);

struct Value {
  Kind kind = Kind::None;
  union {
    bool b;
    int64_t i;
    double f;
  };
  std::shared_ptr<Object> obj;

  Value() : i(0) {}
  static Value none() { return Value(); }
  static Value boolean(bool v) { Value r; r.kind = Kind::Bool; r.i = 0; r.b = v; return r; }
  static Value integer(int64_t v) { Value r; r.kind = Kind::Int; r.i = v; return r; }
  static Value floating(double v) { Value r; r.kind = Kind::Float; r.f = v; return r; }
  static Value str(std::string s);
  template <class T> static Value of(std::shared_ptr<T> o) {
    Value r;
    r.kind = o->kind;
    r.obj = std::move(o);
    if (r.obj->gc_container && !r.obj->gc_tracked) gc_track(r.obj);
    return r;
  }

  bool is_none() const { return kind == Kind::None; }
  // bool and int: Python's bool is an int subclass.
  bool is_int_like() const { return kind == Kind::Int || kind == Kind::Bool; }
  bool is_number() const { return kind == Kind::Int || kind == Kind::Bool || kind == Kind::Float; }
  int64_t as_int() const { return kind == Kind::Bool ? (int64_t)b : i; }
  double as_double() const { return kind == Kind::Float ? f : (double)as_int(); }
  template <class T> T* as() const { return static_cast<T*>(obj.get()); }
  template <class T> std::shared_ptr<T> ptr() const { return std::static_pointer_cast<T>(obj); }
};

// What the cycle collector asks of an object: each strong reference it holds
// to another object or environment, once each (a missed one only keeps its
// target alive; one reported twice could free a live object).
struct GcVisitor {
  virtual void visit(const Object* o) = 0;
  virtual void visit(const Env* e) = 0;
  void visit(const Value& v) {
    if (v.obj) visit(v.obj.get());
  }
  virtual ~GcVisitor() = default;
};

struct StrObj : Object {
  std::string s;
  explicit StrObj(std::string v) : Object(Kind::Str), s(std::move(v)) {}
};
struct TupleObj : Object {
  std::vector<Value> items;
  TupleObj() : Object(Kind::Tuple) {}
  explicit TupleObj(std::vector<Value> v) : Object(Kind::Tuple), items(std::move(v)) {}
};
struct ListObj : Object {
  std::vector<Value> items;
  ListObj() : Object(Kind::List) {}
  explicit ListObj(std::vector<Value> v) : Object(Kind::List), items(std::move(v)) {}
};
struct RangeObj : Object {
  int64_t start = 0, stop = 0, step = 1;
  RangeObj(int64_t a, int64_t b, int64_t s) : Object(Kind::Range), start(a), stop(b), step(s) {}
  int64_t length() const;
  int64_t at(int64_t k) const { return start + k * step; }
};
struct SliceObj : Object {
  Value lower, upper, step;  // None when absent
  SliceObj() : Object(Kind::Slice) {}
};

// Hashing and equality as dict keys see them: 1, 1.0 and True are one key.
// Throws TypeError("unhashable type: 'list'") for lists and dicts.
uint64_t hash_value(const Value& v, SourceLoc loc = {});
// Structural equality without user __eq__ (numbers across types, str, tuple,
// list, dict; identity for other objects).
bool values_equal(const Value& a, const Value& b);

// An insertion-ordered dict. Entries are never moved on deletion (tombstones)
// so that iteration order survives pop(); the table is compacted when more
// than half of it is dead.
struct DictObj : Object {
  struct Entry {
    Value key, value;
    uint64_t hash = 0;
    bool live = true;
  };
  std::vector<Entry> entries;
  std::unordered_multimap<uint64_t, size_t> index;
  size_t live_count = 0;

  DictObj() : Object(Kind::Dict) {}
  size_t size() const { return live_count; }
  Value* find(const Value& key, SourceLoc loc = {});
  void set(const Value& key, Value value, SourceLoc loc = {});
  bool erase(const Value& key, Value* out = nullptr, SourceLoc loc = {});
  void clear();
  template <class F> void each(F&& fn) const {
    for (auto& e : entries)
      if (e.live) fn(e.key, e.value);
  }

 private:
  void compact();
};

// A lazy iterator. next() yields values until it returns false.
struct IteratorObj : Object {
  std::string type_name;  // "zip", "enumerate", "list_iterator", ...
  std::function<bool(Value&)> next;
  IteratorObj(std::string name, std::function<bool(Value&)> fn)
      : Object(Kind::Iterator), type_name(std::move(name)), next(std::move(fn)) {}
};

inline Value Value::str(std::string s) { return Value::of(std::make_shared<StrObj>(std::move(s))); }
inline Value make_tuple(std::vector<Value> v) { return Value::of(std::make_shared<TupleObj>(std::move(v))); }
inline Value make_list(std::vector<Value> v) { return Value::of(std::make_shared<ListObj>(std::move(v))); }
inline Value make_dict() { return Value::of(std::make_shared<DictObj>()); }
inline const std::string& str_of(const Value& v) { return v.as<StrObj>()->s; }

// Python's truth value for the non-user cases (instances are truthy unless
// they define __bool__/__len__, which the evaluator handles).
bool truthy_basic(const Value& v);

// Checked i64 arithmetic: OverflowError instead of wrapping (Kiln ints are 64-bit).
int64_t checked_add(int64_t a, int64_t b, SourceLoc loc);
int64_t checked_sub(int64_t a, int64_t b, SourceLoc loc);
int64_t checked_mul(int64_t a, int64_t b, SourceLoc loc);
[[noreturn]] void overflow(SourceLoc loc);

}  // namespace kiln::host
