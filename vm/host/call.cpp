// Calling things: user functions (argument binding with Python's rules and
// messages), native functions, classes (instantiation and __init__), bound
// methods, objects with __call__. Also where host frames enter the traceback.
#include "vm/host/evaluator.h"

namespace kiln::host {

namespace {

std::string plural(size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string s;
  for (size_t k = 0; k < names.size(); k++) {
    if (k) s += names.size() == 2 ? " and " : (k + 1 == names.size() ? ", and " : ", ");
    s += "'" + names[k] + "'";
  }
  return s;
}

// Binds call arguments to the parameters of `fn` in `env`, as CPython does.
void bind_args(Evaluator& ev, const FunctionObj& fn, CallArgs& a, Env& env) {
  const ast::Arguments& p = *fn.args;
  const std::string& fname = fn.qualname;
  size_t np = p.args.size();
  std::vector<bool> set(np, false);
  std::vector<bool> kwset(p.kwonlyargs.size(), false);
  // positional
  size_t take = std::min(np, a.pos.size());
  for (size_t k = 0; k < take; k++) {
    env.vars[p.args[k]->name] = std::move(a.pos[k]);
    set[k] = true;
  }
  if (a.pos.size() > np) {
    if (!p.vararg) {
      size_t ndef = fn.defaults.size();
      std::string takes = ndef ? "from " + std::to_string(np - ndef) + " to " + std::to_string(np)
                               : std::to_string(np);
      raise("TypeError", fname + "() takes " + takes + " positional argument" + (np == 1 && !ndef ? "" : "s") +
                             " but " + std::to_string(a.pos.size()) + (a.pos.size() == 1 ? " was" : " were") + " given",
            a.loc);
    }
    std::vector<Value> rest(std::make_move_iterator(a.pos.begin() + (long)np), std::make_move_iterator(a.pos.end()));
    env.vars[p.vararg->name] = make_tuple(std::move(rest));
  } else if (p.vararg) {
    env.vars[p.vararg->name] = make_tuple({});
  }
  // keywords
  std::shared_ptr<DictObj> extra;
  if (p.kwarg) extra = std::make_shared<DictObj>();
  for (auto& [name, v] : a.kw) {
    bool found = false;
    for (size_t k = 0; k < np && !found; k++)
      if (p.args[k]->name == name) {
        if (set[k]) raise("TypeError", fname + "() got multiple values for argument '" + name + "'", a.loc);
        env.vars[name] = v;
        set[k] = true;
        found = true;
      }
    for (size_t k = 0; k < p.kwonlyargs.size() && !found; k++)
      if (p.kwonlyargs[k]->name == name) {
        env.vars[name] = v;
        kwset[k] = true;
        found = true;
      }
    if (found) continue;
    if (!extra) raise("TypeError", fname + "() got an unexpected keyword argument '" + name + "'", a.loc);
    extra->set(Value::str(name), v);
  }
  if (extra) env.vars[p.kwarg->name] = Value::of(extra);
  // defaults and missing
  size_t first_default = np - fn.defaults.size();
  std::vector<std::string> missing;
  for (size_t k = 0; k < np; k++) {
    if (set[k]) continue;
    if (k >= first_default) env.vars[p.args[k]->name] = fn.defaults[k - first_default];
    else missing.push_back(p.args[k]->name);
  }
  if (!missing.empty())
    raise("TypeError", fname + "() missing " + std::to_string(missing.size()) + " required positional argument" +
                           (missing.size() == 1 ? "" : "s") + ": " + quoted_list(missing), a.loc);
  for (size_t k = 0; k < p.kwonlyargs.size(); k++) {
    if (kwset[k]) continue;
    if (fn.has_kw_default[k]) env.vars[p.kwonlyargs[k]->name] = fn.kw_defaults[k];
    else missing.push_back(p.kwonlyargs[k]->name);
  }
  if (!missing.empty())
    raise("TypeError", fname + "() missing " + std::to_string(missing.size()) + " required keyword-only argument" +
                           (missing.size() == 1 ? "" : "s") + ": " + quoted_list(missing), a.loc);
}

struct FrameGuard {
  Evaluator& ev;
  FrameGuard(Evaluator& e, Frame f) : ev(e) { ev.frames.push_back(std::move(f)); }
  ~FrameGuard() { ev.frames.pop_back(); }
};

Value call_function(Evaluator& ev, const std::shared_ptr<FunctionObj>& fn, CallArgs& a) {
  if ((int)ev.frames.size() >= ev.max_depth)
    raise("RecursionError", "maximum recursion depth exceeded", a.loc);
  ev.check_stack(a.loc);
  auto env = Env::make(Env::Type::Function, fn->closure, fn->closure->module);
  env->scope = fn->scope;
  bind_args(ev, *fn, a, *env);
  Frame f;
  f.name = fn->name;
  f.cur = fn->def ? fn->def->loc : (fn->lambda_body ? fn->lambda_body->loc : a.loc);
  f.fn = fn.get();
  f.env = env.get();
  FrameGuard guard(ev, std::move(f));
  try {
    if (fn->lambda_body) return ev.eval(fn->lambda_body, *env);
    Flow fl = ev.exec_block(*fn->body, *env);
    return fl == Flow::Return ? std::move(ev.frame().ret) : Value();
  } catch (Error& e) {
    // Leaving this frame: it becomes a traceback line (outermost first).
    e.traceback.insert(e.traceback.begin(), TraceFrame{ev.frame().cur, fn->name});
    throw;
  }
}

Value instantiate(Evaluator& ev, const std::shared_ptr<ClassObj>& cls, CallArgs& a) {
  if (cls->builtin_type) {
    if (!cls->ctor) raise("TypeError", "cannot create '" + cls->name + "' instances", a.loc);
    return cls->ctor(ev, a);
  }
  auto inst = std::make_shared<InstanceObj>();
  inst->cls = cls;
  Value self = Value::of(inst);
  if (cls->is_exception) inst->attrs["args"] = make_tuple(a.pos);
  if (const Value* init = cls->find("__init__")) {
    a.pos.insert(a.pos.begin(), self);
    Value r = ev.call(*init, a);
    if (!r.is_none()) raise("TypeError", "__init__() should return None, not '" + ev.type_name(r) + "'", a.loc);
  } else if (!a.pos.empty() || !a.kw.empty()) {
    raise("TypeError", cls->name + "() takes no arguments", a.loc);
  }
  return self;
}

}  // namespace

Value Evaluator::call(const Value& fn, CallArgs& a) {
  switch (fn.kind) {
    case Kind::Function: return call_function(*this, fn.ptr<FunctionObj>(), a);
    case Kind::Builtin: return fn.as<BuiltinObj>()->fn(*this, a);
    case Kind::BoundMethod: {
      auto* m = fn.as<BoundMethodObj>();
      a.pos.insert(a.pos.begin(), m->self);
      return call(m->func, a);
    }
    case Kind::Class: return instantiate(*this, fn.ptr<ClassObj>(), a);
    case Kind::Instance: {
      Value m;
      if (try_get_attr(fn, "__call__", a.loc, m)) return call(m, a);
      break;
    }
    case Kind::Host: {
      if (fn.as<HostObj>()->callable()) return fn.as<HostObj>()->call(*this, fn, a);
      break;
    }
    default: break;
  }
  raise("TypeError", "'" + type_name(fn) + "' object is not callable", a.loc);
}

Value Evaluator::call(const Value& fn, std::vector<Value> args, SourceLoc loc) {
  CallArgs a;
  a.pos = std::move(args);
  a.loc = loc;
  return call(fn, a);
}

void Evaluator::run_module(const ast::Module& m, const std::shared_ptr<Env>& env) {
  Frame f;
  f.name = "<module>";
  f.env = env.get();
  FrameGuard guard(*this, std::move(f));
  try {
    exec_block(m.body, *env);
  } catch (Error& e) {
    e.traceback.insert(e.traceback.begin(), TraceFrame{frame().cur, "<module>"});
    throw;
  }
}

// ---- argument helpers for natives -------------------------------------------

void expect_args(const CallArgs& a, const char* fname, size_t min, size_t max) {
  size_t n = a.pos.size();
  if (n >= min && n <= max) return;
  if (min == max)
    raise("TypeError", std::string(fname) + "() takes exactly " + plural(min, "argument") + " (" + std::to_string(n) + " given)", a.loc);
  if (n < min)
    raise("TypeError", std::string(fname) + " expected at least " + plural(min, "argument") + ", got " + std::to_string(n), a.loc);
  raise("TypeError", std::string(fname) + " expected at most " + plural(max, "argument") + ", got " + std::to_string(n), a.loc);
}

void no_kwargs(const CallArgs& a, const char* fname) {
  if (!a.kw.empty()) raise("TypeError", std::string(fname) + "() takes no keyword arguments", a.loc);
}

int64_t arg_int(Evaluator& ev, const Value& v, const char* fname, SourceLoc loc) {
  if (v.is_int_like()) return v.as_int();
  raise("TypeError", "'" + ev.type_name(v) + "' object cannot be interpreted as an integer", loc);
}

std::vector<int64_t> arg_shape(Evaluator& ev, const Value& v, const char* what, SourceLoc loc) {
  if (v.is_int_like()) return {v.as_int()};
  if (v.kind != Kind::Tuple && v.kind != Kind::List)
    raise("TypeError", std::string(what) + " shape must be an int or a tuple of ints, not '" + ev.type_name(v) + "'", loc);
  std::vector<int64_t> dims;
  for (auto& x : ev.to_vector(v, loc)) dims.push_back(arg_int(ev, x, what, loc));
  return dims;
}

double arg_float(Evaluator& ev, const Value& v, const char* fname, SourceLoc loc) {
  if (v.is_number()) return v.as_double();
  raise("TypeError", "must be real number, not " + ev.type_name(v), loc);
}

}  // namespace kiln::host

namespace kiln::host {
Value HostObj::call(Evaluator& ev, const Value& self, CallArgs& a) {
  raise("TypeError", "'" + type_name() + "' object is not callable", a.loc);
}
}  // namespace kiln::host
