// Python builtins: I/O, introspection, conversion of characters and numbers
// to text, iterators. Numeric reductions and sorting are in builtins_numeric.cpp.
#include <cinttypes>
#include <cmath>

#include "vm/host/attrs.h"
#include "vm/host/evaluator.h"
#include "vm/support/format.h"

namespace kiln::host {

namespace {

// super() without arguments: the class whose body defined the running
// method, and that method's first argument.
struct SuperObj : HostObj {
  std::shared_ptr<ClassObj> cls;  // look up from cls->base
  Value self;
  std::string type_name() const override { return "super"; }
  std::string repr(Evaluator& ev) const override { return "<super: <class '" + cls->name + "'>, <" + cls->name + " object>>"; }
  bool get_attr(Evaluator& ev, const Value&, const std::string& name, SourceLoc loc, Value& out) override {
    if (!cls->base) return false;
    const Value* v = cls->base->find(name);
    if (!v) return false;
    if (v->kind == Kind::Function || v->kind == Kind::Builtin) out = Value::of(std::make_shared<BoundMethodObj>(self, *v));
    else out = *v;
    return true;
  }
};

bool class_matches(Evaluator& ev, const Value& v, const Value& cls, SourceLoc loc) {
  if (cls.kind == Kind::Tuple) {
    for (auto& c : cls.as<TupleObj>()->items)
      if (class_matches(ev, v, c, loc)) return true;
    return false;
  }
  if (cls.kind != Kind::Class) raise("TypeError", "isinstance() arg 2 must be a type, a tuple of types, or a union", loc);
  auto* c = cls.as<ClassObj>();
  if (c->builtin_type) {
    if (c->name == "object") return true;
    if (c->instance_kind == Kind::Int) return v.kind == Kind::Int || v.kind == Kind::Bool;
    if (c->instance_kind == Kind::Instance) return false;
    return v.kind == c->instance_kind && v.kind != Kind::Instance && v.kind != Kind::Host;
  }
  if (v.kind == Kind::Instance) return v.as<InstanceObj>()->cls->is_subclass_of(c);
  return false;
}

Value print(Evaluator& ev, CallArgs& a) {
  std::string sep = " ", end = "\n";
  Value v, file;
  if (a.take_kw("sep", v) && !v.is_none()) {
    if (v.kind != Kind::Str) raise("TypeError", "sep must be None or a string, not " + ev.type_name(v), a.loc);
    sep = str_of(v);
  }
  if (a.take_kw("end", v) && !v.is_none()) {
    if (v.kind != Kind::Str) raise("TypeError", "end must be None or a string, not " + ev.type_name(v), a.loc);
    end = str_of(v);
  }
  a.take_kw("file", file);
  a.take_kw("flush", v);
  if (!a.kw.empty()) raise("TypeError", "'" + a.kw[0].first + "' is an invalid keyword argument for print()", a.loc);
  std::string text;
  for (size_t k = 0; k < a.pos.size(); k++) {
    if (k) text += sep;
    text += ev.str(a.pos[k]);
  }
  text += end;
  if (file.is_none()) ev.out(text);
  else ev.call(ev.get_attr(file, "write", a.loc), {Value::str(text)}, a.loc);
  return Value();
}

// CPython's numeric hash: values modulo the Mersenne prime 2**61 - 1, so
// that equal ints and floats hash alike (hash(1.5) == 1152921504606846977).
int64_t py_numeric_hash(const Value& v) {
  const uint64_t P = (1ULL << 61) - 1;
  int64_t r;
  if (v.kind != Kind::Float) {
    int64_t n = v.as_int();
    uint64_t u = n < 0 ? 0 - (uint64_t)n : (uint64_t)n;
    r = (int64_t)(u % P);
    if (n < 0) r = -r;
  } else {
    double x = v.f;
    if (std::isinf(x)) return x > 0 ? 314159 : -314159;
    if (std::isnan(x)) return 0;
    int e;
    double m = std::frexp(x, &e);
    int sign = 1;
    if (m < 0) { sign = -1; m = -m; }
    uint64_t h = 0;
    while (m != 0) {
      h = ((h << 28) & P) | h >> (61 - 28);
      m *= 268435456.0;
      e -= 28;
      uint64_t y = (uint64_t)m;
      m -= (double)y;
      h += y;
      if (h >= P) h -= P;
    }
    e = e >= 0 ? e % 61 : 61 - 1 - ((-1 - e) % 61);
    h = ((h << e) & P) | h >> (61 - e);
    r = (int64_t)h * sign;
  }
  return r == -1 ? -2 : r;
}

std::string int_to_base(int64_t v, int base, const char* prefix) {
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  std::string digits;
  do {
    digits += "0123456789abcdef"[u % (uint64_t)base];
    u /= (uint64_t)base;
  } while (u);
  return (v < 0 ? "-" : "") + std::string(prefix) + std::string(digits.rbegin(), digits.rend());
}

}  // namespace

void Evaluator::def_builtin(const std::string& name, NativeFn fn) { builtins[name] = make_builtin(name, std::move(fn)); }

bool Evaluator::isinstance(const Value& v, const Value& cls, SourceLoc loc) { return class_matches(*this, v, cls, loc); }

void install_builtins(Evaluator& ev) {
  ev.builtins["None"] = Value();
  ev.builtins["NotImplemented"] = make_builtin("NotImplemented", [](Evaluator&, CallArgs& a) -> Value {
    raise("TypeError", "'NotImplementedType' object is not callable", a.loc);
  });
  ev.builtins["Ellipsis"] = make_builtin("Ellipsis", [](Evaluator&, CallArgs& a) -> Value {
    raise("TypeError", "'ellipsis' object is not callable", a.loc);
  });
  ev.def_builtin("print", print);
  ev.def_builtin("repr", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "repr", 1, 1);
    return Value::str(ev.repr(a.pos[0]));
  });
  ev.def_builtin("ascii", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ascii", 1, 1);
    return Value::str(ev.repr(a.pos[0]));
  });
  ev.def_builtin("format", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "format", 1, 2);
    std::string spec = a.pos.size() == 2 ? ev.str(a.pos[1]) : "";
    return Value::str(ev.format(a.pos[0], spec, a.loc));
  });
  ev.def_builtin("len", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "len", 1, 1);
    return Value::integer(ev.len(a.pos[0], a.loc));
  });
  ev.def_builtin("isinstance", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "isinstance", 2, 2);
    return Value::boolean(class_matches(ev, a.pos[0], a.pos[1], a.loc));
  });
  ev.def_builtin("issubclass", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "issubclass", 2, 2);
    if (a.pos[0].kind != Kind::Class) raise("TypeError", "issubclass() arg 1 must be a class", a.loc);
    auto check = [&](const Value& c) {
      if (c.kind != Kind::Class) raise("TypeError", "issubclass() arg 2 must be a class, a tuple of classes, or a union", a.loc);
      return a.pos[0].as<ClassObj>()->is_subclass_of(c.as<ClassObj>()) ||
             (c.as<ClassObj>()->builtin_type && c.as<ClassObj>()->name == "object");
    };
    if (a.pos[1].kind == Kind::Tuple) {
      for (auto& c : a.pos[1].as<TupleObj>()->items)
        if (check(c)) return Value::boolean(true);
      return Value::boolean(false);
    }
    return Value::boolean(check(a.pos[1]));
  });
  ev.def_builtin("callable", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "callable", 1, 1);
    const Value& v = a.pos[0];
    Value m;
    bool c = v.kind == Kind::Function || v.kind == Kind::Builtin || v.kind == Kind::Class || v.kind == Kind::BoundMethod ||
             (v.kind == Kind::Host && v.as<HostObj>()->callable()) ||
             (v.kind == Kind::Instance && ev.try_get_attr(v, "__call__", a.loc, m));
    return Value::boolean(c);
  });
  ev.def_builtin("getattr", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "getattr", 2, 3);
    if (a.pos[1].kind != Kind::Str) raise("TypeError", "attribute name must be string, not '" + ev.type_name(a.pos[1]) + "'", a.loc);
    if (a.pos.size() == 3) {
      Value out;
      return ev.try_get_attr(a.pos[0], str_of(a.pos[1]), a.loc, out) ? out : a.pos[2];
    }
    return ev.get_attr(a.pos[0], str_of(a.pos[1]), a.loc);
  });
  ev.def_builtin("hasattr", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "hasattr", 2, 2);
    if (a.pos[1].kind != Kind::Str) raise("TypeError", "attribute name must be string, not '" + ev.type_name(a.pos[1]) + "'", a.loc);
    Value out;
    return Value::boolean(ev.try_get_attr(a.pos[0], str_of(a.pos[1]), a.loc, out));
  });
  ev.def_builtin("setattr", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "setattr", 3, 3);
    if (a.pos[1].kind != Kind::Str) raise("TypeError", "attribute name must be string, not '" + ev.type_name(a.pos[1]) + "'", a.loc);
    ev.set_attr(a.pos[0], str_of(a.pos[1]), a.pos[2], a.loc);
    return Value();
  });
  ev.def_builtin("delattr", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "delattr", 2, 2);
    ev.del_attr(a.pos[0], ev.str(a.pos[1]), a.loc);
    return Value();
  });
  ev.def_builtin("id", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "id", 1, 1);
    const Value& v = a.pos[0];
    return Value::integer(v.obj ? (int64_t)(uintptr_t)v.obj.get() : (int64_t)hash_value(v));
  });
  ev.def_builtin("hash", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "hash", 1, 1);
    const Value& v = a.pos[0];
    if (v.is_number()) return Value::integer(py_numeric_hash(v));
    return Value::integer((int64_t)(hash_value(v, a.loc) >> 1));
  });
  ev.def_builtin("chr", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "chr", 1, 1);
    int64_t c = arg_int(ev, a.pos[0], "chr", a.loc);
    if (c < 0 || c >= 0x110000) raise("ValueError", "chr() arg not in range(0x110000)", a.loc);
    return Value::str(utf8_encode((uint32_t)c));
  });
  ev.def_builtin("ord", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ord", 1, 1);
    if (a.pos[0].kind != Kind::Str)
      raise("TypeError", "ord() expected string of length 1, but " + ev.type_name(a.pos[0]) + " found", a.loc);
    const std::string& s = str_of(a.pos[0]);
    size_t n = utf8_length(s);
    if (n != 1) raise("TypeError", "ord() expected a character, but string of length " + std::to_string(n) + " found", a.loc);
    unsigned char c = (unsigned char)s[0];
    uint32_t cp = c;
    if (c >= 0xF0) cp = ((c & 7u) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu);
    else if (c >= 0xE0) cp = ((c & 15u) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
    else if (c >= 0xC0) cp = ((c & 31u) << 6) | (s[1] & 0x3Fu);
    return Value::integer(cp);
  });
  ev.def_builtin("hex", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "hex", 1, 1);
    return Value::str(int_to_base(arg_int(ev, a.pos[0], "hex", a.loc), 16, "0x"));
  });
  ev.def_builtin("oct", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "oct", 1, 1);
    return Value::str(int_to_base(arg_int(ev, a.pos[0], "oct", a.loc), 8, "0o"));
  });
  ev.def_builtin("bin", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "bin", 1, 1);
    return Value::str(int_to_base(arg_int(ev, a.pos[0], "bin", a.loc), 2, "0b"));
  });
  ev.def_builtin("iter", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "iter", 1, 1);
    return ev.make_iterator(a.pos[0], a.loc);
  });
  ev.def_builtin("next", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "next", 1, 2);
    const Value& it = a.pos[0];
    if (it.kind == Kind::Iterator) {
      Value out;
      if (it.as<IteratorObj>()->next(out)) return out;
      if (a.pos.size() == 2) return a.pos[1];
      ev.raise_value(ev.make_exception(ev.exception_class("StopIteration"), {}), a.loc);
    }
    Value m;
    if (it.kind == Kind::Instance && ev.try_get_attr(it, "__next__", a.loc, m)) return ev.call(m, {}, a.loc);
    raise("TypeError", "'" + ev.type_name(it) + "' object is not an iterator", a.loc);
  });
  ev.def_builtin("super", [](Evaluator& ev, CallArgs& a) {
    auto s = std::make_shared<SuperObj>();
    if (a.pos.size() == 2) {
      if (a.pos[0].kind != Kind::Class) raise("TypeError", "super() argument 1 must be a type", a.loc);
      s->cls = a.pos[0].ptr<ClassObj>();
      s->self = a.pos[1];
      return Value::of(s);
    }
    const Frame& f = ev.frame();
    if (!f.fn || !f.env || f.fn->args->args.empty()) raise("RuntimeError", "super(): no arguments", a.loc);
    s->cls = f.fn->owner_class.lock();
    if (!s->cls) raise("RuntimeError", "super(): __class__ cell not found", a.loc);
    auto it = f.env->vars.find(f.fn->args->args[0]->name);
    if (it == f.env->vars.end()) raise("RuntimeError", "super(): arg[0] deleted", a.loc);
    s->self = it->second;
    return Value::of(s);
  });
  ev.def_builtin("vars", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "vars", 1, 1);
    return ev.get_attr(a.pos[0], "__dict__", a.loc);
  });
  ev.def_builtin("exit", [](Evaluator& ev, CallArgs& a) -> Value {
    expect_args(a, "exit", 0, 1);
    ev.raise_value(ev.make_exception(ev.exception_class("SystemExit"), a.pos), a.loc);
  });
  ev.builtins["quit"] = ev.builtins["exit"];
  install_builtins_numeric(ev);
}

}  // namespace kiln::host
