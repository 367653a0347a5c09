// Expressions: names and scoping, literals, calls, comprehensions, f-strings.
#include <cmath>

#include "vm/host/evaluator.h"
#include "vm/host/ti_compound.h"
#include "vm/support/format.h"

namespace kiln::host {

using ast::ExprKind;

// ---- names ------------------------------------------------------------------

Value* Evaluator::lookup(Env& env, const std::string& name) {
  for (Env* e = &env; e; e = e->parent.get()) {
    // Class bodies are visible only to code running directly in them.
    if (e != &env && e->type == Env::Type::Class) continue;
    if (e->scope && e->scope->globals.count(name)) {
      e = env.module;
      auto it = e->vars.find(name);
      if (it != e->vars.end()) return &it->second;
      break;
    }
    auto it = e->vars.find(name);
    if (it != e->vars.end()) return &it->second;
  }
  auto it = builtins.find(name);
  return it == builtins.end() ? nullptr : &it->second;
}

Value Evaluator::load_name(Env& env, const std::string& name, SourceLoc loc) {
  if (env.scope && env.vars.find(name) == env.vars.end() && env.scope->locals.count(name))
    raise("UnboundLocalError", "cannot access local variable '" + name + "' where it is not associated with a value", loc);
  if (Value* v = lookup(env, name)) return *v;
  raise("NameError", "name '" + name + "' is not defined", loc);
}

void Evaluator::store_name(Env& env, const std::string& name, Value v) {
  if (env.scope) {
    if (env.scope->globals.count(name)) {
      env.module->vars[name] = std::move(v);
      return;
    }
    if (env.scope->nonlocals.count(name)) {
      for (Env* e = env.parent.get(); e; e = e->parent.get()) {
        if (e->type == Env::Type::Class) continue;
        if (e->type == Env::Type::Module) {  // a comprehension's `:=` at module level
          e->vars[name] = std::move(v);
          return;
        }
        auto it = e->vars.find(name);
        if (it != e->vars.end() || (e->scope && e->scope->locals.count(name))) {
          e->vars[name] = std::move(v);
          return;
        }
      }
    }
  }
  env.vars[name] = std::move(v);
}

void Evaluator::delete_name(Env& env, const std::string& name, SourceLoc loc) {
  Env* e = &env;
  if (env.scope && env.scope->globals.count(name)) e = env.module;
  if (!e->vars.erase(name)) raise("NameError", "name '" + name + "' is not defined", loc);
}

// ---- helpers ---------------------------------------------------------------

namespace {

std::shared_ptr<Env> closure_env(Env& env) {
  // Functions defined in a class body close over the scope around the class.
  std::shared_ptr<Env> e = env.shared_from_this();
  while (e && e->type == Env::Type::Class) e = e->parent;
  return e;
}

}  // namespace

// Evaluates `elts` (which may hold *starred items) into `out`.
static void eval_elts(Evaluator& ev, const ast::ExprList& elts, Env& env, std::vector<Value>& out) {
  out.reserve(elts.size());
  for (auto* x : elts) {
    if (x->kind == ExprKind::Starred) {
      Value v = ev.eval(x->as<ast::Starred>()->value, env);
      ev.iterate(v, x->loc, [&](const Value& item) { out.push_back(item); return true; });
    } else {
      out.push_back(ev.eval(x, env));
    }
  }
}

Value make_function(Evaluator& ev, const ast::Arguments& args, Env& env, std::string name) {
  auto fn = std::make_shared<FunctionObj>();
  fn->name = std::move(name);
  fn->qualname = fn->name;
  fn->args = &args;
  for (auto* d : args.defaults) fn->defaults.push_back(ev.eval(d, env));
  for (auto* d : args.kw_defaults) {
    fn->has_kw_default.push_back(d != nullptr);
    fn->kw_defaults.push_back(d ? ev.eval(d, env) : Value());
  }
  fn->closure = closure_env(env);
  if (!fn->closure) fn->closure = env.shared_from_this();
  return Value::of(fn);
}

// Runs the generators of a comprehension in a fresh scope, calling `emit` for
// each element.
static void run_comprehension(Evaluator& ev, const ast::Node* node, const std::vector<ast::Comprehension>& gens,
                              Env& env, const std::function<void(Env&)>& emit) {
  auto cenv = Env::make(Env::Type::Comprehension, closure_env(env), env.module);
  cenv->scope = ev.scope_of(node);
  // The outermost iterable is evaluated in the enclosing scope, as in Python.
  Value first = ev.eval(gens[0].iter, env);
  std::function<void(size_t, const Value*)> level = [&](size_t k, const Value* it) {
    Value iterable = it ? *it : ev.eval(gens[k].iter, *cenv);
    ev.iterate(iterable, gens[k].iter->loc, [&](const Value& item) {
      ev.assign(gens[k].target, item, *cenv);
      for (auto* cond : gens[k].ifs)
        if (!ev.truthy(ev.eval(cond, *cenv), cond->loc)) return true;
      if (k + 1 == gens.size()) emit(*cenv);
      else level(k + 1, nullptr);
      return true;
    });
  };
  level(0, &first);
}

static Value eval_call(Evaluator& ev, const ast::Call* c, Env& env) {
  CallArgs args;
  args.loc = c->loc;
  Value fn;
  Value self;
  const NativeFn* method = nullptr;
  // obj.method(...) on builtin types calls the native method directly,
  // without materialising a bound method object.
  if (c->func->kind == ExprKind::Attribute) {
    auto* a = c->func->as<ast::Attribute>();
    self = ev.eval(a->value, env);
    if (self.kind >= Kind::Str && self.kind <= Kind::Dict) method = builtin_method(self.kind, a->attr);
    if (!method) fn = ev.get_attr(self, a->attr, a->loc);
  } else {
    fn = ev.eval(c->func, env);
  }
  if (method) args.pos.push_back(self);
  for (auto* x : c->args) {
    if (x->kind == ExprKind::Starred) {
      Value v = ev.eval(x->as<ast::Starred>()->value, env);
      ev.iterate(v, x->loc, [&](const Value& item) { args.pos.push_back(item); return true; });
    } else {
      args.pos.push_back(ev.eval(x, env));
    }
  }
  for (auto* k : c->keywords) {
    Value v = ev.eval(k->value, env);
    if (!k->arg.empty()) {
      args.kw.emplace_back(k->arg, std::move(v));
    } else {
      if (v.kind != Kind::Dict)
        raise("TypeError", "argument after ** must be a mapping, not " + ev.type_name(v), k->loc);
      v.as<DictObj>()->each([&](const Value& key, const Value& val) {
        if (key.kind != Kind::Str) raise("TypeError", "keywords must be strings", k->loc);
        args.kw.emplace_back(str_of(key), val);
      });
    }
  }
  try {
    if (method) return (*method)(ev, args);
    return ev.call(fn, args);
  } catch (Error& e) {
    if (!e.loc.known()) e.loc = c->loc;
    throw;
  }
}

static Value eval_fstring(Evaluator& ev, const ast::JoinedStr* j, Env& env) {
  std::string out;
  for (auto* part : j->values) {
    if (part->kind == ExprKind::Constant) {
      out += part->as<ast::Constant>()->s;
      continue;
    }
    auto* fv = part->as<ast::FormattedValue>();
    Value v = ev.eval(fv->value, env);
    if (fv->conversion == 'r' || fv->conversion == 'a') v = Value::str(ev.repr(v));
    else if (fv->conversion == 's') v = Value::str(ev.str(v));
    std::string spec;
    if (fv->format_spec) spec = str_of(eval_fstring(ev, fv->format_spec->as<ast::JoinedStr>(), env));
    out += ev.format(v, spec, fv->value->loc);
  }
  return Value::str(std::move(out));
}

Value Evaluator::eval(const ast::Expr* e, Env& env) {
  switch (e->kind) {
    case ExprKind::Name: return load_name(env, e->as<ast::Name>()->id, e->loc);
    case ExprKind::Constant: {
      auto* c = e->as<ast::Constant>();
      switch (c->tag) {
        case ast::Constant::Tag::None: return Value();
        case ast::Constant::Tag::Bool: return Value::boolean(c->b);
        case ast::Constant::Tag::Int: return Value::integer(c->i);
        case ast::Constant::Tag::Float: return Value::floating(c->f);
        case ast::Constant::Tag::Str: return Value::str(c->s);
        case ast::Constant::Tag::Ellipsis: return builtins["Ellipsis"];
      }
      return Value();
    }
    case ExprKind::JoinedStr: return eval_fstring(*this, e->as<ast::JoinedStr>(), env);
    case ExprKind::FormattedValue: {
      auto* fv = e->as<ast::FormattedValue>();
      return Value::str(str(eval(fv->value, env)));
    }
    case ExprKind::BinOp: {
      auto* b = e->as<ast::BinOp>();
      Value l = eval(b->left, env);
      Value r = eval(b->right, env);
      return binop(b->op, l, r, e->loc);
    }
    case ExprKind::UnaryOp: {
      auto* u = e->as<ast::UnaryOp>();
      return unop(u->op, eval(u->operand, env), e->loc);
    }
    case ExprKind::BoolOp: {
      // `and`/`or` return the deciding operand, not a bool.
      auto* b = e->as<ast::BoolOp>();
      Value v;
      for (size_t k = 0; k < b->values.size(); k++) {
        v = eval(b->values[k], env);
        if (k + 1 == b->values.size()) break;
        bool t = truthy(v, b->values[k]->loc);
        if (b->op == ast::BoolOpKind::And ? !t : t) break;
      }
      return v;
    }
    case ExprKind::Compare: {
      auto* c = e->as<ast::Compare>();
      Value left = eval(c->left, env);
      Value last = Value::boolean(true);
      for (size_t k = 0; k < c->ops.size(); k++) {
        Value right = eval(c->comparators[k], env);
        // Host matrices compare elementwise and give a matrix (numpy's rule).
        if ((left.kind == Kind::Host || right.kind == Kind::Host) &&
            host_rich_compare(*this, c->ops[k], left, right, e->loc, last)) {
          if (k + 1 < c->ops.size() && !truthy(last, e->loc)) return last;
        } else {
          if (!compare(c->ops[k], left, right, e->loc)) return Value::boolean(false);
          last = Value::boolean(true);
        }
        left = std::move(right);
      }
      return last;
    }
    case ExprKind::Call: return eval_call(*this, e->as<ast::Call>(), env);
    case ExprKind::Attribute: {
      auto* a = e->as<ast::Attribute>();
      return get_attr(eval(a->value, env), a->attr, e->loc);
    }
    case ExprKind::Subscript: {
      auto* s = e->as<ast::Subscript>();
      Value obj = eval(s->value, env);
      Value key = eval(s->slice, env);
      return get_item(obj, key, e->loc);
    }
    case ExprKind::Slice: {
      auto* s = e->as<ast::Slice>();
      auto sl = std::make_shared<SliceObj>();
      if (s->lower) sl->lower = eval(s->lower, env);
      if (s->upper) sl->upper = eval(s->upper, env);
      if (s->step) sl->step = eval(s->step, env);
      return Value::of(sl);
    }
    case ExprKind::Starred: raise("SyntaxError", "can't use starred expression here", e->loc);
    case ExprKind::Tuple: {
      std::vector<Value> items;
      eval_elts(*this, e->as<ast::Tuple>()->elts, env, items);
      return make_tuple(std::move(items));
    }
    case ExprKind::List: {
      std::vector<Value> items;
      eval_elts(*this, e->as<ast::List>()->elts, env, items);
      return make_list(std::move(items));
    }
    case ExprKind::Dict: {
      auto* d = e->as<ast::Dict>();
      auto obj = std::make_shared<DictObj>();
      for (size_t k = 0; k < d->keys.size(); k++) {
        if (!d->keys[k]) {
          Value m = eval(d->values[k], env);
          if (m.kind != Kind::Dict)
            raise("TypeError", "'" + type_name(m) + "' object is not a mapping", d->values[k]->loc);
          m.as<DictObj>()->each([&](const Value& key, const Value& val) { obj->set(key, val); });
          continue;
        }
        Value key = eval(d->keys[k], env);
        Value val = eval(d->values[k], env);
        obj->set(key, std::move(val), d->keys[k]->loc);
      }
      return Value::of(obj);
    }
    case ExprKind::NamedExpr: {
      auto* n = e->as<ast::NamedExpr>();
      Value v = eval(n->value, env);
      assign(n->target, v, env);
      return v;
    }
    case ExprKind::IfExp: {
      auto* i = e->as<ast::IfExp>();
      return truthy(eval(i->test, env), i->test->loc) ? eval(i->body, env) : eval(i->orelse, env);
    }
    case ExprKind::Lambda: {
      auto* l = e->as<ast::Lambda>();
      Value f = make_function(*this, l->args, env, "<lambda>");
      f.as<FunctionObj>()->lambda_body = l->body;
      f.as<FunctionObj>()->scope = scope_of(l);
      return f;
    }
    case ExprKind::ListComp:
    case ExprKind::GeneratorExp: {
      // Generator expressions are evaluated eagerly into a list: every
      // consumer in our surface (sum, any, list, join, ...) accepts one.
      const ast::Expr* elt;
      const std::vector<ast::Comprehension>* gens;
      if (e->kind == ExprKind::ListComp) {
        elt = e->as<ast::ListComp>()->elt;
        gens = &e->as<ast::ListComp>()->generators;
      } else {
        elt = e->as<ast::GeneratorExp>()->elt;
        gens = &e->as<ast::GeneratorExp>()->generators;
      }
      auto list = std::make_shared<ListObj>();
      run_comprehension(*this, e, *gens, env, [&](Env& c) { list->items.push_back(eval(elt, c)); });
      return Value::of(list);
    }
    case ExprKind::DictComp: {
      auto* d = e->as<ast::DictComp>();
      auto obj = std::make_shared<DictObj>();
      run_comprehension(*this, e, d->generators, env, [&](Env& c) {
        Value key = eval(d->key, c);
        obj->set(key, eval(d->value, c), d->key->loc);
      });
      return Value::of(obj);
    }
  }
  raise("InternalError", "unknown expression", e->loc);
}

}  // namespace kiln::host
