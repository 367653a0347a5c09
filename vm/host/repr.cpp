// repr(), str(), format() and printf-style `%` with CPython's exact output.
// Number and string rendering is delegated to vm/support/format.h.
#include <cinttypes>
#include <cstdio>

#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"
#include "vm/support/format.h"

namespace kiln::host {

static std::string address_of(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%012" PRIxPTR, (uintptr_t)p);
  return buf;
}

std::string Evaluator::type_name(const Value& v) {
  switch (v.kind) {
    case Kind::Instance: return v.as<InstanceObj>()->cls->name;
    case Kind::Host: return v.as<HostObj>()->type_name();
    case Kind::Iterator: return v.as<IteratorObj>()->type_name;
    default: return kind_name(v.kind);
  }
}

Value Evaluator::type_of(const Value& v) {
  if (v.kind == Kind::Instance) return Value::of(v.as<InstanceObj>()->cls);
  if (v.kind != Kind::Host && v.kind != Kind::Iterator && type_classes[(int)v.kind]) return Value::of(type_classes[(int)v.kind]);
  auto c = std::make_shared<ClassObj>();
  c->name = type_name(v);
  c->builtin_type = true;
  return Value::of(c);
}

namespace {

// Keeps a container on the repr stack while its items print (cycle detection).
struct ReprGuard {
  Evaluator& ev;
  bool cycle = false;
  ReprGuard(Evaluator& e, const Object* o) : ev(e) {
    for (auto* x : ev.repr_active)
      if (x == o) cycle = true;
    if (!cycle) ev.repr_active.push_back(o);
  }
  ~ReprGuard() {
    if (!cycle) ev.repr_active.pop_back();
  }
};

std::string exception_str(Evaluator& ev, const InstanceObj& e) {
  auto it = e.attrs.find("args");
  if (it == e.attrs.end() || it->second.kind != Kind::Tuple) return "";
  auto& args = it->second.as<TupleObj>()->items;
  if (args.empty()) return "";
  if (args.size() == 1) {
    // KeyError shows its key as a repr: KeyError: 'k'
    if (e.cls->is_subclass_of(ev.exception_class("KeyError").get())) return ev.repr(args[0]);
    return ev.str(args[0]);
  }
  return ev.repr(it->second);
}

}  // namespace

std::string Evaluator::repr(const Value& v) {
  check_stack({});
  switch (v.kind) {
    case Kind::None: return "None";
    case Kind::Bool: return v.b ? "True" : "False";
    case Kind::Int: return std::to_string(v.i);
    case Kind::Float: return py_float_repr(v.f);
    case Kind::Str: return py_str_repr(str_of(v));
    case Kind::List:
    case Kind::Tuple: {
      bool list = v.kind == Kind::List;
      ReprGuard g(*this, v.obj.get());
      if (g.cycle) return list ? "[...]" : "(...)";
      auto& items = list ? v.as<ListObj>()->items : v.as<TupleObj>()->items;
      std::string s = list ? "[" : "(";
      for (size_t k = 0; k < items.size(); k++) {
        if (k) s += ", ";
        s += repr(items[k]);
      }
      if (!list && items.size() == 1) s += ",";
      return s + (list ? "]" : ")");
    }
    case Kind::Dict: {
      ReprGuard g(*this, v.obj.get());
      if (g.cycle) return "{...}";
      std::string s = "{";
      bool first = true;
      v.as<DictObj>()->each([&](const Value& k, const Value& x) {
        if (!first) s += ", ";
        first = false;
        s += repr(k) + ": " + repr(x);
      });
      return s + "}";
    }
    case Kind::Range: {
      auto* r = v.as<RangeObj>();
      std::string s = "range(" + std::to_string(r->start) + ", " + std::to_string(r->stop);
      if (r->step != 1) s += ", " + std::to_string(r->step);
      return s + ")";
    }
    case Kind::Slice: {
      auto* s = v.as<SliceObj>();
      return "slice(" + repr(s->lower) + ", " + repr(s->upper) + ", " + repr(s->step) + ")";
    }
    case Kind::Function: return "<function " + v.as<FunctionObj>()->qualname + " at " + address_of(v.obj.get()) + ">";
    case Kind::Builtin: {
      auto& n = v.as<BuiltinObj>()->name;
      return "<built-in function " + n.substr(n.rfind('.') + 1) + ">";
    }
    case Kind::Class: {
      auto* c = v.as<ClassObj>();
      if (c->native) return "<class '" + c->name + "'>";
      return "<class '__main__." + c->name + "'>";
    }
    case Kind::Instance: {
      auto* inst = v.as<InstanceObj>();
      if (const Value* m = inst->cls->find("__repr__")) {
        Value r = call(Value::of(std::make_shared<BoundMethodObj>(v, *m)), {}, {});
        if (r.kind != Kind::Str) raise("TypeError", "__repr__ returned non-string (type " + type_name(r) + ")");
        return str_of(r);
      }
      if (inst->cls->is_exception) {
        auto it = inst->attrs.find("args");
        std::string args = it != inst->attrs.end() ? repr(it->second) : "()";
        if (args.size() >= 3 && args.substr(args.size() - 2) == ",)") args = args.substr(0, args.size() - 2) + ")";
        return inst->cls->name + args;
      }
      return "<__main__." + inst->cls->name + " object at " + address_of(inst) + ">";
    }
    case Kind::BoundMethod: {
      auto* m = v.as<BoundMethodObj>();
      std::string fname = m->func.kind == Kind::Function ? m->func.as<FunctionObj>()->qualname
                                                          : m->func.kind == Kind::Builtin ? m->func.as<BuiltinObj>()->name : "?";
      return "<bound method " + fname + " of " + repr(m->self) + ">";
    }
    case Kind::Module: return "<module '" + v.as<ModuleObj>()->name + "' (built-in)>";
    case Kind::Iterator: return "<" + v.as<IteratorObj>()->type_name + " object at " + address_of(v.obj.get()) + ">";
    case Kind::Host: return v.as<HostObj>()->repr(*this);
  }
  return "?";
}

std::string Evaluator::str(const Value& v) {
  if (v.kind == Kind::Str) return str_of(v);
  if (v.kind == Kind::Instance) {
    auto* inst = v.as<InstanceObj>();
    if (const Value* m = inst->cls->find("__str__")) {
      Value r = call(Value::of(std::make_shared<BoundMethodObj>(v, *m)), {}, {});
      if (r.kind != Kind::Str) raise("TypeError", "__str__ returned non-string (type " + type_name(r) + ")");
      return str_of(r);
    }
    if (inst->cls->is_exception) return exception_str(*this, *inst);
  }
  if (v.kind == Kind::Host) return v.as<HostObj>()->str(*this);
  return repr(v);
}

std::string Evaluator::format(const Value& v, std::string_view spec, SourceLoc loc) {
  try {
    switch (v.kind) {
      case Kind::Bool:
        if (spec.empty()) return v.b ? "True" : "False";
        return py_format_int(v.as_int(), spec);
      case Kind::Int: return py_format_int(v.i, spec);
      case Kind::Float: return py_format_float(v.f, spec);
      case Kind::Str: return py_format_str(str_of(v), spec);
      case Kind::Instance:
      case Kind::Host: {
        Value m;
        if ((v.kind == Kind::Instance || !spec.empty()) && try_get_attr(v, "__format__", loc, m)) {
          Value r = call(m, {Value::str(std::string(spec))}, loc);
          if (r.kind != Kind::Str) raise("TypeError", "__format__ must return a str, not " + type_name(r), loc);
          return str_of(r);
        }
        break;
      }
      default: break;
    }
    if (spec.empty()) return str(v);
    raise("TypeError", "unsupported format string passed to " + type_name(v) + ".__format__", loc);
  } catch (Error& e) {
    if (!e.loc.known()) e.loc = loc;
    throw;
  }
}

// printf-style formatting: each %-conversion is rewritten as a format spec and
// rendered by the same code as format().
std::string percent_format(Evaluator& ev, const std::string& fmt, const Value& args, SourceLoc loc) {
  std::vector<Value> items;
  const DictObj* mapping = nullptr;
  if (args.kind == Kind::Tuple) items = args.as<TupleObj>()->items;
  else if (args.kind == Kind::Dict) mapping = args.as<DictObj>();
  else items.push_back(args);
  size_t next = 0;
  std::string out;
  for (size_t k = 0; k < fmt.size(); k++) {
    char c = fmt[k];
    if (c != '%') {
      out += c;
      continue;
    }
    if (++k >= fmt.size()) raise("ValueError", "incomplete format", loc);
    if (fmt[k] == '%') {
      out += '%';
      continue;
    }
    Value arg;
    bool have_arg = false;
    if (fmt[k] == '(') {
      size_t close = fmt.find(')', k);
      if (close == std::string::npos) raise("ValueError", "incomplete format key", loc);
      if (!mapping) raise("TypeError", "format requires a mapping", loc);
      Value key = Value::str(fmt.substr(k + 1, close - k - 1));
      Value* v = const_cast<DictObj*>(mapping)->find(key, loc);
      if (!v) ev.raise_value(ev.make_exception(ev.exception_class("KeyError"), {key}), loc);
      arg = *v;
      have_arg = true;
      k = close + 1;
    }
    std::string flags;
    while (k < fmt.size() && std::string_view("-+ #0").find(fmt[k]) != std::string_view::npos) flags += fmt[k++];
    std::string width, prec;
    auto take_num = [&](std::string& dst) {
      if (k < fmt.size() && fmt[k] == '*') {
        if (next >= items.size()) raise("TypeError", "not enough arguments for format string", loc);
        dst = std::to_string(arg_int(ev, items[next++], "%", loc));
        k++;
        return;
      }
      while (k < fmt.size() && fmt[k] >= '0' && fmt[k] <= '9') dst += fmt[k++];
    };
    take_num(width);
    bool has_prec = false;
    if (k < fmt.size() && fmt[k] == '.') {
      k++;
      has_prec = true;
      take_num(prec);
      if (prec.empty()) prec = "0";
    }
    while (k < fmt.size() && (fmt[k] == 'l' || fmt[k] == 'h' || fmt[k] == 'L')) k++;
    if (k >= fmt.size()) raise("ValueError", "incomplete format", loc);
    char type = fmt[k];
    if (!have_arg) {
      if (mapping) arg = args;
      else if (next >= items.size()) raise("TypeError", "not enough arguments for format string", loc);
      else arg = items[next++];
    }
    // numpy scalars (np.float32(x), arr.mean()) format as the numbers they hold
    if (type != 's' && type != 'r' && type != 'a')
      if (auto* np = np_as(arg); np && np->scalar) arg = np->get_flat(0);
    bool left = flags.find('-') != std::string::npos;
    std::string spec;
    if (left) spec += '<';
    if (flags.find('+') != std::string::npos) spec += '+';
    else if (flags.find(' ') != std::string::npos) spec += ' ';
    if (flags.find('#') != std::string::npos) spec += '#';
    bool zero = !left && flags.find('0') != std::string::npos;
    switch (type) {
      case 's':
      case 'r':
      case 'a': {
        std::string s = type == 's' ? ev.str(arg) : ev.repr(arg);
        std::string sspec = std::string(left ? "<" : ">") + width + (has_prec ? "." + prec : "");
        out += py_format_str(s, sspec);
        break;
      }
      case 'd':
      case 'i':
      case 'u':
      case 'o':
      case 'x':
      case 'X':
      case 'c': {
        if (type == 'c') {
          std::string s = arg.kind == Kind::Str ? str_of(arg) : utf8_encode((uint32_t)arg_int(ev, arg, "%c", loc));
          out += py_format_str(s, std::string(left ? "<" : ">") + width);
          break;
        }
        int64_t n;
        if (arg.kind == Kind::Float) {
          if (type != 'd' && type != 'i' && type != 'u')
            raise("TypeError", std::string("%") + type + " format: an integer is required, not float", loc);
          n = (int64_t)arg.f;
        } else if (arg.is_int_like()) {
          n = arg.as_int();
        } else {
          raise("TypeError", std::string("%") + type + " format: a real number is required, not " + ev.type_name(arg), loc);
        }
        std::string t = type == 'o' ? "o" : type == 'x' ? "x" : type == 'X' ? "X" : "d";
        std::string s = spec + (zero ? "0" : "") + width + t;
        if (spec.find('#') != std::string::npos && type == 'o') {
          // %#o prints 0o17, as format's # does
        }
        out += py_format_int(n, s);
        break;
      }
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G': {
        if (!arg.is_number())
          raise("TypeError", "must be real number, not " + ev.type_name(arg), loc);
        std::string s = spec + (zero ? "0" : "") + width + "." + (has_prec ? prec : "6") + type;
        out += py_format_float(arg.as_double(), s);
        break;
      }
      default: {
        char buf[64];
        std::snprintf(buf, sizeof buf, "unsupported format character '%c' (0x%x) at index %zu", type, (unsigned)(unsigned char)type, k);
        raise("ValueError", buf, loc);
      }
    }
  }
  if (!mapping && next < items.size()) raise("TypeError", "not all arguments converted during string formatting", loc);
  return out;
}

}  // namespace kiln::host
