// Attribute access (instances, classes, modules, methods of builtin types,
// staticmethod/classmethod/property) and item access with Python's indexing
// and slicing rules.
#include "vm/host/attrs.h"

#include "vm/host/evaluator.h"
#include "vm/support/format.h"

namespace kiln::host {

std::string DescriptorObj::type_name() const {
  return which == Static ? "staticmethod" : which == ClassMethod ? "classmethod" : "property";
}
std::string DescriptorObj::repr(Evaluator& ev) const { return "<" + type_name() + " object>"; }
bool DescriptorObj::get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
  if (which == Property && (name == "setter" || name == "getter")) {
    auto me = self.ptr<DescriptorObj>();
    bool set = name == "setter";
    out = make_builtin("property." + name, [me, set](Evaluator& ev, CallArgs& a) {
      expect_args(a, "property.setter", 1, 1);
      auto p = std::make_shared<DescriptorObj>(Property, set ? me->func : a.pos[0]);
      p->setter = set ? a.pos[0] : me->setter;
      return Value::of(p);
    });
    return true;
  }
  if (name == "__func__" || name == "fget") {
    out = func;
    return true;
  }
  return false;
}

// The value of class attribute `v` read through `self` (an instance) or `cls`.
static Value bind(Evaluator& ev, const Value& v, const Value& self, const Value& cls, SourceLoc loc) {
  if (v.kind == Kind::Function || (v.kind == Kind::Builtin && !self.is_none()))
    return self.is_none() ? v : Value::of(std::make_shared<BoundMethodObj>(self, v));
  if (v.kind == Kind::Host && !self.is_none() && v.as<HostObj>()->binds_as_method())
    return Value::of(std::make_shared<BoundMethodObj>(self, v));
  if (v.kind == Kind::Host) {
    if (auto* d = dynamic_cast<DescriptorObj*>(v.as<HostObj>())) {
      switch (d->which) {
        case DescriptorObj::Static: return d->func;
        case DescriptorObj::ClassMethod: return Value::of(std::make_shared<BoundMethodObj>(cls, d->func));
        case DescriptorObj::Property:
          if (self.is_none()) return v;
          return ev.call(d->func, {self}, loc);
      }
    }
  }
  return v;
}

bool Evaluator::try_get_attr(const Value& obj, const std::string& name, SourceLoc loc, Value& out) {
  switch (obj.kind) {
    case Kind::Instance: {
      auto* inst = obj.as<InstanceObj>();
      auto it = inst->attrs.find(name);
      if (it != inst->attrs.end()) {
        out = it->second;
        return true;
      }
      if (const Value* v = inst->cls->find(name)) {
        out = bind(*this, *v, obj, Value::of(inst->cls), loc);
        return true;
      }
      if (name == "__class__") { out = Value::of(inst->cls); return true; }
      if (name == "__dict__") {
        auto d = std::make_shared<DictObj>();
        for (auto& [k, v] : inst->attrs) d->set(Value::str(k), v);
        out = Value::of(d);
        return true;
      }
      return false;
    }
    case Kind::Class: {
      auto* cls = obj.as<ClassObj>();
      if (const Value* v = cls->find(name)) {
        out = bind(*this, *v, Value(), obj, loc);
        return true;
      }
      if (name == "__name__" || name == "__qualname__") { out = Value::str(cls->name); return true; }
      if (name == "__base__") { out = cls->base ? Value::of(cls->base) : Value(); return true; }
      if (cls->builtin_type && cls->instance_kind != Kind::None) {
        if (const NativeFn* m = builtin_method(cls->instance_kind, name); m && name == "fromkeys") {
          out = make_builtin("dict.fromkeys", *m);
          return true;
        }
        if (const NativeFn* m = builtin_method(cls->instance_kind, name)) {
          // Unbound: str.join(",", xs). Check the receiver before the native sees it.
          NativeFn fn = *m;
          Kind k = cls->instance_kind;
          std::string full = cls->name + "." + name;
          out = make_builtin(full, [fn, k, full](Evaluator& ev, CallArgs& a) {
            if (a.pos.empty() || !(a.pos[0].kind == k || (k == Kind::Int && a.pos[0].kind == Kind::Bool)))
              raise("TypeError", "descriptor '" + full.substr(full.find('.') + 1) + "' requires a '" + kind_name(k) + "' object", a.loc);
            return fn(ev, a);
          });
          return true;
        }
      }
      return false;
    }
    case Kind::Module: {
      auto* m = obj.as<ModuleObj>();
      auto it = m->attrs.find(name);
      if (it != m->attrs.end()) { out = it->second; return true; }
      if (m->env) {
        auto jt = m->env->vars.find(name);
        if (jt != m->env->vars.end()) { out = jt->second; return true; }
      }
      if (m->getattr_hook && m->getattr_hook(*this, name, out)) return true;
      if (name == "__name__") { out = Value::str(m->name); return true; }
      return false;
    }
    case Kind::Function: {
      auto* f = obj.as<FunctionObj>();
      auto it = f->attrs.find(name);
      if (it != f->attrs.end()) { out = it->second; return true; }
      if (name == "__name__") { out = Value::str(f->name); return true; }
      if (name == "__qualname__") { out = Value::str(f->qualname); return true; }
      return false;
    }
    case Kind::Builtin:
      if (name == "__name__") {
        auto& n = obj.as<BuiltinObj>()->name;
        out = Value::str(n.substr(n.rfind('.') + 1));
        return true;
      }
      return false;
    case Kind::BoundMethod:
      if (name == "__self__") { out = obj.as<BoundMethodObj>()->self; return true; }
      if (name == "__func__") { out = obj.as<BoundMethodObj>()->func; return true; }
      return try_get_attr(obj.as<BoundMethodObj>()->func, name, loc, out);
    case Kind::Range: {
      auto* r = obj.as<RangeObj>();
      if (name == "start") { out = Value::integer(r->start); return true; }
      if (name == "stop") { out = Value::integer(r->stop); return true; }
      if (name == "step") { out = Value::integer(r->step); return true; }
      break;
    }
    case Kind::Host: return obj.as<HostObj>()->get_attr(*this, obj, name, loc, out);
    case Kind::Bool:
    case Kind::Int:
    case Kind::Float:
      if (name == "real") { out = obj.kind == Kind::Bool ? Value::integer(obj.as_int()) : obj; return true; }
      if (name == "imag") { out = obj.kind == Kind::Float ? Value::floating(0.0) : Value::integer(0); return true; }
      if (obj.kind != Kind::Float && name == "numerator") { out = Value::integer(obj.as_int()); return true; }
      if (obj.kind != Kind::Float && name == "denominator") { out = Value::integer(1); return true; }
      break;
    default: break;
  }
  if (const NativeFn* m = builtin_method(obj.kind == Kind::Bool ? Kind::Int : obj.kind, name)) {
    out = Value::of(std::make_shared<BoundMethodObj>(obj, make_builtin(type_name(obj) + "." + name, *m)));
    return true;
  }
  if (name == "__class__") { out = type_of(obj); return true; }
  return false;
}

Value Evaluator::get_attr(const Value& obj, const std::string& name, SourceLoc loc) {
  Value out;
  if (try_get_attr(obj, name, loc, out)) return out;
  if (obj.kind == Kind::Class)
    raise("AttributeError", "type object '" + obj.as<ClassObj>()->name + "' has no attribute '" + name + "'", loc);
  if (obj.kind == Kind::Module)
    raise("AttributeError", "module '" + obj.as<ModuleObj>()->name + "' has no attribute '" + name + "'", loc);
  raise("AttributeError", "'" + type_name(obj) + "' object has no attribute '" + name + "'", loc);
}

void Evaluator::set_attr(const Value& obj, const std::string& name, Value v, SourceLoc loc) {
  switch (obj.kind) {
    case Kind::Instance: {
      auto* inst = obj.as<InstanceObj>();
      if (const Value* cv = inst->cls->find(name); cv && cv->kind == Kind::Host) {
        if (auto* d = dynamic_cast<DescriptorObj*>(cv->as<HostObj>()); d && d->which == DescriptorObj::Property) {
          if (d->setter.is_none()) raise("AttributeError", "can't set attribute '" + name + "'", loc);
          call(d->setter, {obj, v}, loc);
          return;
        }
      }
      inst->attrs[name] = std::move(v);
      return;
    }
    case Kind::Class: obj.as<ClassObj>()->attrs[name] = std::move(v); return;
    case Kind::Function: obj.as<FunctionObj>()->attrs[name] = std::move(v); return;
    case Kind::Module: {
      auto* m = obj.as<ModuleObj>();
      if (m->env) m->env->vars[name] = std::move(v);
      else m->attrs[name] = std::move(v);
      return;
    }
    case Kind::Host:
      if (obj.as<HostObj>()->set_attr(*this, name, v, loc)) return;
      break;
    default: break;
  }
  raise("AttributeError", "'" + type_name(obj) + "' object has no attribute '" + name + "'", loc);
}

void Evaluator::del_attr(const Value& obj, const std::string& name, SourceLoc loc) {
  if (obj.kind == Kind::Instance && obj.as<InstanceObj>()->attrs.erase(name)) return;
  if (obj.kind == Kind::Class && obj.as<ClassObj>()->attrs.erase(name)) return;
  raise("AttributeError", "'" + type_name(obj) + "' object has no attribute '" + name + "'", loc);
}

// ---- items ----------------------------------------------------------------------

void slice_indices(Evaluator& ev, const SliceObj& s, int64_t len, int64_t& start, int64_t& stop, int64_t& step,
                   SourceLoc loc) {
  auto get = [&](const Value& v, const char* what) {
    if (!v.is_int_like())
      raise("TypeError", "slice indices must be integers or None or have an __index__ method", loc);
    return v.as_int();
  };
  step = s.step.is_none() ? 1 : get(s.step, "step");
  if (step == 0) raise("ValueError", "slice step cannot be zero", loc);
  int64_t lo = step < 0 ? -1 : 0;
  int64_t hi = step < 0 ? len - 1 : len;
  auto adjust = [&](const Value& v, int64_t def) {
    if (v.is_none()) return def;
    int64_t x = get(v, "index");
    if (x < 0) {
      x += len;
      if (x < lo) x = lo;
    } else if (x > hi) {
      x = hi;
    }
    return x;
  };
  start = adjust(s.lower, step < 0 ? hi : lo);
  stop = adjust(s.upper, step < 0 ? lo : hi);
}

int64_t slice_length(int64_t start, int64_t stop, int64_t step) {
  if (step > 0) return start < stop ? (stop - start - 1) / step + 1 : 0;
  return stop < start ? (start - stop - 1) / (-step) + 1 : 0;
}

// Splits UTF-8 text into code points (Python indexes str by code point).
static std::vector<std::string_view> code_points(const std::string& s) {
  std::vector<std::string_view> out;
  for (size_t k = 0; k < s.size();) {
    size_t n = 1;
    unsigned char c = (unsigned char)s[k];
    if (c >= 0xF0) n = 4;
    else if (c >= 0xE0) n = 3;
    else if (c >= 0xC0) n = 2;
    if (k + n > s.size()) n = s.size() - k;
    out.emplace_back(s.data() + k, n);
    k += n;
  }
  return out;
}

static int64_t norm_index(Evaluator& ev, const Value& key, int64_t len, const char* what, SourceLoc loc) {
  int64_t i = key.as_int();
  if (i < 0) i += len;
  if (i < 0 || i >= len) raise("IndexError", std::string(what) + " index out of range", loc);
  return i;
}

Value Evaluator::get_item(const Value& obj, const Value& key, SourceLoc loc) {
  switch (obj.kind) {
    case Kind::List:
    case Kind::Tuple: {
      bool is_list = obj.kind == Kind::List;
      auto& items = is_list ? obj.as<ListObj>()->items : obj.as<TupleObj>()->items;
      if (key.is_int_like()) return items[norm_index(*this, key, (int64_t)items.size(), is_list ? "list" : "tuple", loc)];
      if (key.kind == Kind::Slice) {
        int64_t start, stop, step;
        slice_indices(*this, *key.as<SliceObj>(), (int64_t)items.size(), start, stop, step, loc);
        std::vector<Value> out;
        int64_t n = slice_length(start, stop, step);
        out.reserve((size_t)n);
        for (int64_t k = 0; k < n; k++) out.push_back(items[(size_t)(start + k * step)]);
        return is_list ? make_list(std::move(out)) : make_tuple(std::move(out));
      }
      raise("TypeError", std::string(is_list ? "list" : "tuple") + " indices must be integers or slices, not " + type_name(key), loc);
    }
    case Kind::Str: {
      const std::string& s = str_of(obj);
      bool ascii = true;
      for (unsigned char c : s) if (c >= 0x80) { ascii = false; break; }
      std::vector<std::string_view> cps;
      if (!ascii) cps = code_points(s);
      int64_t n = ascii ? (int64_t)s.size() : (int64_t)cps.size();
      auto at = [&](int64_t k) { return ascii ? std::string_view(s.data() + k, 1) : cps[(size_t)k]; };
      if (key.is_int_like()) return Value::str(std::string(at(norm_index(*this, key, n, "string", loc))));
      if (key.kind == Kind::Slice) {
        int64_t start, stop, step;
        slice_indices(*this, *key.as<SliceObj>(), n, start, stop, step, loc);
        std::string out;
        int64_t len = slice_length(start, stop, step);
        for (int64_t k = 0; k < len; k++) out += at(start + k * step);
        return Value::str(std::move(out));
      }
      raise("TypeError", "string indices must be integers, not '" + type_name(key) + "'", loc);
    }
    case Kind::Dict: {
      if (Value* v = obj.as<DictObj>()->find(key, loc)) return *v;
      raise_value(make_exception(exception_class("KeyError"), {key}), loc);
    }
    case Kind::Range: {
      auto* r = obj.as<RangeObj>();
      if (key.is_int_like()) return Value::integer(r->at(norm_index(*this, key, r->length(), "range object", loc)));
      if (key.kind == Kind::Slice) {
        int64_t start, stop, step;
        slice_indices(*this, *key.as<SliceObj>(), r->length(), start, stop, step, loc);
        return Value::of(std::make_shared<RangeObj>(r->at(start), r->at(stop), r->step * step));
      }
      raise("TypeError", "range indices must be integers or slices, not " + type_name(key), loc);
    }
    case Kind::Instance: {
      Value m;
      if (try_get_attr(obj, "__getitem__", loc, m)) return call(m, {key}, loc);
      break;
    }
    case Kind::Host: {
      Value out;
      if (obj.as<HostObj>()->get_item(*this, key, loc, out)) return out;
      break;
    }
    default: break;
  }
  raise("TypeError", "'" + type_name(obj) + "' object is not subscriptable", loc);
}

void Evaluator::set_item(const Value& obj, const Value& key, Value v, SourceLoc loc) {
  switch (obj.kind) {
    case Kind::List: {
      auto& items = obj.as<ListObj>()->items;
      if (key.is_int_like()) {
        items[norm_index(*this, key, (int64_t)items.size(), "list assignment", loc)] = std::move(v);
        return;
      }
      if (key.kind == Kind::Slice) {
        int64_t start, stop, step;
        slice_indices(*this, *key.as<SliceObj>(), (int64_t)items.size(), start, stop, step, loc);
        std::vector<Value> src = to_vector(v, loc);
        if (step == 1) {
          if (stop < start) stop = start;
          items.erase(items.begin() + start, items.begin() + stop);
          items.insert(items.begin() + start, src.begin(), src.end());
          return;
        }
        int64_t n = slice_length(start, stop, step);
        if ((int64_t)src.size() != n)
          raise("ValueError", "attempt to assign sequence of size " + std::to_string(src.size()) +
                                  " to extended slice of size " + std::to_string(n), loc);
        for (int64_t k = 0; k < n; k++) items[(size_t)(start + k * step)] = src[(size_t)k];
        return;
      }
      raise("TypeError", "list indices must be integers or slices, not " + type_name(key), loc);
    }
    case Kind::Dict: obj.as<DictObj>()->set(key, std::move(v), loc); return;
    case Kind::Instance: {
      Value m;
      if (try_get_attr(obj, "__setitem__", loc, m)) {
        call(m, {key, v}, loc);
        return;
      }
      break;
    }
    case Kind::Host:
      if (obj.as<HostObj>()->set_item(*this, key, v, loc)) return;
      break;
    default: break;
  }
  raise("TypeError", "'" + type_name(obj) + "' object does not support item assignment", loc);
}

void Evaluator::del_item(const Value& obj, const Value& key, SourceLoc loc) {
  switch (obj.kind) {
    case Kind::List: {
      auto& items = obj.as<ListObj>()->items;
      if (key.is_int_like()) {
        items.erase(items.begin() + norm_index(*this, key, (int64_t)items.size(), "list assignment", loc));
        return;
      }
      if (key.kind == Kind::Slice) {
        int64_t start, stop, step;
        slice_indices(*this, *key.as<SliceObj>(), (int64_t)items.size(), start, stop, step, loc);
        int64_t n = slice_length(start, stop, step);
        std::vector<bool> drop(items.size(), false);
        for (int64_t k = 0; k < n; k++) drop[(size_t)(start + k * step)] = true;
        std::vector<Value> kept;
        for (size_t k = 0; k < items.size(); k++)
          if (!drop[k]) kept.push_back(std::move(items[k]));
        items.swap(kept);
        return;
      }
      break;
    }
    case Kind::Dict:
      if (!obj.as<DictObj>()->erase(key, nullptr, loc)) raise_value(make_exception(exception_class("KeyError"), {key}), loc);
      return;
    case Kind::Instance: {
      Value m;
      if (try_get_attr(obj, "__delitem__", loc, m)) {
        call(m, {key}, loc);
        return;
      }
      break;
    }
    default: break;
  }
  raise("TypeError", "'" + type_name(obj) + "' object doesn't support item deletion", loc);
}

}  // namespace kiln::host
