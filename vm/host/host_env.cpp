// HostEnv: how the frontend sees host values while it compiles a kernel.
// Names resolve through the defining scope of the kernel or ti.func (its
// closure Env, passed as StaticValue handles), and host values become
// StaticValues: compile-time constants captured at first compilation.
#include "vm/host/evaluator.h"
#include "vm/host/ti_compound.h"
#include "vm/host/ti_objects.h"
#include "vm/host/ti_state.h"

namespace kiln::host {

using frontend::StaticValue;
using K = StaticValue::Kind;

StaticValue to_static(Evaluator& ev, const Value& v) {
  StaticValue s;
  switch (v.kind) {
    case Kind::None: return s;
    case Kind::Bool: return StaticValue::of_bool(v.b);
    case Kind::Int: return StaticValue::of_int(v.i);
    case Kind::Float: return StaticValue::of_float(v.f);
    case Kind::Str:
      s.kind = K::string;
      s.s = str_of(v);
      return s;
    case Kind::Tuple:
    case Kind::List:
      s.kind = K::tuple;
      for (auto& x : v.kind == Kind::Tuple ? v.as<TupleObj>()->items : v.as<ListObj>()->items) s.elems.push_back(to_static(ev, x));
      s.handle = v.obj;
      return s;
    case Kind::Builtin: return StaticValue::of_builtin(v.as<BuiltinObj>()->name);
    case Kind::Class:
      if (v.as<ClassObj>()->builtin_type) {
        // `int` and `float` are the default_ip / default_fp dtypes in kernels:
        // as annotations (-> float) and as casts (int(x)) alike.
        const std::string& n = v.as<ClassObj>()->name;
        if (n == "int") return StaticValue::of_dtype(ti_program(ev).config.types.default_ip);
        if (n == "float") return StaticValue::of_dtype(ti_program(ev).config.types.default_fp);
        // Other builtin types used in kernels: range(n), bool(x).
        return StaticValue::of_builtin(n);
      }
      break;
    case Kind::Module:
      s.kind = K::module;
      s.s = v.as<ModuleObj>()->name == "taichi" ? "ti" : v.as<ModuleObj>()->name;
      s.handle = v.obj;
      return s;
    case Kind::Host: {
      HostObj* h = v.as<HostObj>();
      if (auto* d = dynamic_cast<DTypeObj*>(h)) return StaticValue::of_dtype(d->prim);
      if (compound_to_static(ev, v, s)) return s;
      if (dynamic_cast<TemplateObj*>(h)) return StaticValue::of_builtin("ti.template");
      if (auto* r = dynamic_cast<RefObj*>(h)) {
        s = StaticValue::of_builtin("ti.ref");
        s.elems.push_back(to_static(ev, r->dtype));
        return s;
      }
      if (auto* f = dynamic_cast<FieldObj*>(h)) {
        s.kind = K::field;
        s.field = &f->checked({});
        s.handle = v.obj;
        return s;
      }
      if (auto* sn = dynamic_cast<SNodeObj*>(h)) {
        s.kind = K::snode;
        s.snode = sn->node;
        s.handle = v.obj;
        return s;
      }
      if (auto* k = dynamic_cast<KernelObj*>(h)) {
        s.kind = k->is_func ? K::func : K::kernel;
        s.b = k->is_real;
        s.def = k->function().def;
        s.s = k->function().qualname;
        s.handle = std::static_pointer_cast<void>(k->function().closure);
        return s;
      }
      break;
    }
    case Kind::BoundMethod: {
      // self.helper inside a kernel method: the ti.func itself (the frontend binds self).
      Value f = v.as<BoundMethodObj>()->func;
      if (f.kind == Kind::Host && dynamic_cast<KernelObj*>(f.as<HostObj>())) return to_static(ev, f);
      break;
    }
    default: break;
  }
  s.kind = K::object;
  s.s = ev.type_name(v);
  s.handle = v.obj;
  return s;
}

// Back from a StaticValue to the host value it stands for (compile-time calls).
static Value from_static(Evaluator& ev, const StaticValue& s) {
  switch (s.kind) {
    case K::none: return Value();
    case K::boolean: return Value::boolean(s.b);
    case K::integer: return Value::integer(s.i);
    case K::floating: return Value::floating(s.f);
    case K::string: return Value::str(s.s);
    case K::tuple: {
      std::vector<Value> items;
      for (auto& e : s.elems) items.push_back(from_static(ev, e));
      return make_tuple(std::move(items));
    }
    case K::dtype:
      if (s.rows > 0 && s.handle) break;  // a vector/matrix type: its host object
      return Value::of(std::make_shared<DTypeObj>(s.prim));
    case K::builtin: {
      if (s.s.rfind("ti.", 0) == 0) {
        Value v = ev.import_module("taichi", {});
        // dotted names ("ti.Matrix.identity") walk attributes
        for (size_t b = 3, e; b <= s.s.size(); b = e + 1) {
          e = s.s.find('.', b);
          if (e == std::string::npos) e = s.s.size();
          v = ev.get_attr(v, s.s.substr(b, e - b), {});
        }
        return v;
      }
      auto it = ev.builtins.find(s.s);
      if (it != ev.builtins.end()) return it->second;
      raise("NameError", "name '" + s.s + "' is not defined");
    }
    case K::matrix:
    case K::matrix_field:
    case K::struct_type:
    case K::struct_value:
    case K::struct_field:
    case K::field:
    case K::snode:
    case K::module:
    case K::object:
      if (s.handle) {
        Value v;
        v.obj = std::static_pointer_cast<Object>(s.handle);
        v.kind = v.obj->kind;
        return v;
      }
      break;
    case K::func:
    case K::kernel: {
      // handle is the defining Env: find the decorated object by name there.
      if (s.handle && s.def) {
        auto env = std::static_pointer_cast<Env>(s.handle);
        if (Value* v = ev.lookup(*env, s.def->name)) return *v;
      }
      break;
    }
  }
  if (s.handle) {  // vector/matrix types
    Value v;
    v.obj = std::static_pointer_cast<Object>(s.handle);
    v.kind = v.obj->kind;
    return v;
  }
  raise("TypeError", "this compile-time value cannot be passed to host code");
}

namespace {

struct EvaluatorHostEnv : frontend::HostEnv {
  Evaluator& ev;
  explicit EvaluatorHostEnv(Evaluator& e) : ev(e) {}

  std::optional<StaticValue> lookup(const std::shared_ptr<void>& env, const std::string& name) override {
    Value* v = env ? ev.lookup(*std::static_pointer_cast<Env>(env), name) : nullptr;
    if (!v) {
      auto it = ev.builtins.find(name);
      if (it == ev.builtins.end()) return std::nullopt;
      v = &it->second;
    }
    return to_static(ev, *v);
  }

  StaticValue attr(const StaticValue& obj, const std::string& name, SourceLoc loc) override {
    Value o = from_static(ev, obj);
    return to_static(ev, ev.get_attr(o, name, loc));
  }

  StaticValue call(const StaticValue& fn, const std::vector<StaticValue>& args, SourceLoc loc,
                   const Kwargs& kwargs) override {
    Value f = from_static(ev, fn);
    CallArgs ca;
    ca.loc = loc;
    for (auto& a : args) ca.pos.push_back(from_static(ev, a));
    for (auto& [k, v] : kwargs) ca.kw.emplace_back(k, from_static(ev, v));
    try {
      return to_static(ev, ev.call(f, ca));
    } catch (Error& e) {
      if (!e.loc.known()) e.loc = loc;
      throw;
    }
  }
};

}  // namespace

std::unique_ptr<frontend::HostEnv> make_host_env(Evaluator& ev) { return std::make_unique<EvaluatorHostEnv>(ev); }

}  // namespace kiln::host
