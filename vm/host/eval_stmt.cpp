// Statements: assignment targets, control flow, def/class, try/except, imports.
#include "vm/host/gc.h"
#include "vm/host/evaluator.h"
#include "vm/host/ti_objects.h"

namespace kiln::host {

using ast::ExprKind;
using ast::StmtKind;

// ---- assignment ------------------------------------------------------------

static void unpack(Evaluator& ev, const ast::ExprList& elts, const Value& v, Env& env, SourceLoc loc) {
  std::vector<Value> items = ev.to_vector(v, loc);
  size_t star = elts.size();
  for (size_t k = 0; k < elts.size(); k++)
    if (elts[k]->kind == ExprKind::Starred) star = k;
  if (star == elts.size()) {
    if (items.size() < elts.size())
      raise("ValueError", "not enough values to unpack (expected " + std::to_string(elts.size()) + ", got " +
                              std::to_string(items.size()) + ")", loc);
    if (items.size() > elts.size())
      raise("ValueError", "too many values to unpack (expected " + std::to_string(elts.size()) + ")", loc);
    for (size_t k = 0; k < elts.size(); k++) ev.assign(elts[k], items[k], env);
    return;
  }
  size_t fixed = elts.size() - 1;
  if (items.size() < fixed)
    raise("ValueError", "not enough values to unpack (expected at least " + std::to_string(fixed) + ", got " +
                            std::to_string(items.size()) + ")", loc);
  size_t after = elts.size() - star - 1;
  for (size_t k = 0; k < star; k++) ev.assign(elts[k], items[k], env);
  std::vector<Value> mid(items.begin() + (long)star, items.end() - (long)after);
  ev.assign(elts[star]->as<ast::Starred>()->value, make_list(std::move(mid)), env);
  for (size_t k = 0; k < after; k++) ev.assign(elts[star + 1 + k], items[items.size() - after + k], env);
}

void Evaluator::assign(const ast::Expr* t, const Value& v, Env& env) {
  switch (t->kind) {
    case ExprKind::Name:
      name_field_if_unnamed(v, t->as<ast::Name>()->id);
      store_name(env, t->as<ast::Name>()->id, v);
      return;
    case ExprKind::Tuple: unpack(*this, t->as<ast::Tuple>()->elts, v, env, t->loc); return;
    case ExprKind::List: unpack(*this, t->as<ast::List>()->elts, v, env, t->loc); return;
    case ExprKind::Attribute: {
      auto* a = t->as<ast::Attribute>();
      name_field_if_unnamed(v, a->attr);
      set_attr(eval(a->value, env), a->attr, v, t->loc);
      return;
    }
    case ExprKind::Subscript: {
      auto* s = t->as<ast::Subscript>();
      Value obj = eval(s->value, env);
      set_item(obj, eval(s->slice, env), v, t->loc);
      return;
    }
    case ExprKind::Starred: raise("SyntaxError", "starred assignment target must be in a list or tuple", t->loc);
    default: raise("SyntaxError", "cannot assign to expression", t->loc);
  }
}

// `a op= b`: the target's container and key are evaluated once; lists extend
// in place, as Python's list.__iadd__ does.
static void aug_assign(Evaluator& ev, const ast::AugAssign* s, Env& env) {
  auto apply = [&](const Value& old) {
    Value rhs = ev.eval(s->value, env);
    if (s->op == ast::BinOpKind::Add && old.kind == Kind::List) {
      auto items = ev.to_vector(rhs, s->loc);
      auto& dst = old.as<ListObj>()->items;
      dst.insert(dst.end(), items.begin(), items.end());
      return old;
    }
    return ev.binop(s->op, old, rhs, s->loc);
  };
  const ast::Expr* t = s->target;
  switch (t->kind) {
    case ExprKind::Name: {
      auto& name = t->as<ast::Name>()->id;
      ev.store_name(env, name, apply(ev.load_name(env, name, t->loc)));
      return;
    }
    case ExprKind::Attribute: {
      auto* a = t->as<ast::Attribute>();
      Value obj = ev.eval(a->value, env);
      ev.set_attr(obj, a->attr, apply(ev.get_attr(obj, a->attr, t->loc)), t->loc);
      return;
    }
    case ExprKind::Subscript: {
      auto* sub = t->as<ast::Subscript>();
      Value obj = ev.eval(sub->value, env);
      Value key = ev.eval(sub->slice, env);
      ev.set_item(obj, key, apply(ev.get_item(obj, key, t->loc)), t->loc);
      return;
    }
    default: raise("SyntaxError", "illegal expression for augmented assignment", t->loc);
  }
}

// ---- loops -------------------------------------------------------------------

static Flow exec_for(Evaluator& ev, const ast::For* f, Env& env) {
  Value it = ev.eval(f->iter, env);
  Flow result = Flow::Normal;
  bool broke = false;
  auto body = [&](const Value& item) {
    ev.check_interrupt(f->loc);
    ev.assign(f->target, item, env);
    Flow fl = ev.exec_block(f->body, env);
    if (fl == Flow::Break) { broke = true; return false; }
    if (fl == Flow::Return) { result = Flow::Return; return false; }
    return true;
  };
  if (it.kind == Kind::Range) {
    // The common host loop: no iterator object, no std::function per item.
    auto* r = it.as<RangeObj>();
    int64_t n = r->length();
    for (int64_t k = 0; k < n; k++)
      if (!body(Value::integer(r->at(k)))) break;
  } else if (it.kind == Kind::List) {
    auto list = it.ptr<ListObj>();
    for (size_t k = 0; k < list->items.size(); k++) {
      Value item = list->items[k];
      if (!body(item)) break;
    }
  } else {
    ev.iterate(it, f->iter->loc, body);
  }
  if (result == Flow::Return) return result;
  if (!broke && !f->orelse.empty()) return ev.exec_block(f->orelse, env);
  return Flow::Normal;
}

static Flow exec_while(Evaluator& ev, const ast::While* w, Env& env) {
  while (ev.truthy(ev.eval(w->test, env), w->test->loc)) {
    ev.check_interrupt(w->loc);
    Flow fl = ev.exec_block(w->body, env);
    if (fl == Flow::Break) return Flow::Normal;
    if (fl == Flow::Return) return fl;
  }
  if (!w->orelse.empty()) return ev.exec_block(w->orelse, env);
  return Flow::Normal;
}

// ---- def / class ---------------------------------------------------------------

static void exec_def(Evaluator& ev, const ast::FunctionDef* d, Env& env) {
  std::vector<Value> decorators;
  for (auto* x : d->decorators) decorators.push_back(ev.eval(x, env));
  Value f = make_function(ev, d->args, env, d->name);
  auto* fn = f.as<FunctionObj>();
  fn->def = d;
  fn->body = &d->body;
  fn->scope = ev.scope_of(d);
  if (env.type == Env::Type::Class) {
    fn->qualname = env.class_name + "." + d->name;
    fn->in_class_body = true;
  }
  for (size_t k = decorators.size(); k-- > 0;) f = ev.call(decorators[k], {f}, d->decorators[k]->loc);
  ev.store_name(env, d->name, f);
}

static void exec_class(Evaluator& ev, const ast::ClassDef* c, Env& env) {
  std::vector<Value> decorators;
  for (auto* x : c->decorators) decorators.push_back(ev.eval(x, env));
  auto cls = std::make_shared<ClassObj>();
  cls->name = c->name;
  if (c->bases.size() > 1) raise("TypeError", "multiple inheritance is not supported", c->bases[1]->loc);
  if (!c->bases.empty()) {
    Value b = ev.eval(c->bases[0], env);
    if (b.kind != Kind::Class) raise("TypeError", "a class can only inherit from a class", c->bases[0]->loc);
    auto base = b.ptr<ClassObj>();
    if (base->builtin_type && base->name != "object")
      raise("TypeError", "subclassing the builtin type '" + base->name + "' is not supported", c->bases[0]->loc);
    if (base->name != "object" || !base->builtin_type) cls->base = base;
    cls->is_exception = base->is_exception;
  }
  auto cenv = Env::make(Env::Type::Class, env.shared_from_this(), env.module);
  cenv->class_name = env.type == Env::Type::Class ? env.class_name + "." + c->name : c->name;
  Flow fl = ev.exec_block(c->body, *cenv);
  (void)fl;
  for (auto& [k, v] : cenv->vars) {
    cls->attrs[k] = v;
    if (v.kind == Kind::Function) v.as<FunctionObj>()->owner_class = cls;
  }
  for (auto* s : c->body) {  // definition order, for data_oriented and friends
    if (s->kind == StmtKind::FunctionDef) cls->attr_order.push_back(s->as<ast::FunctionDef>()->name);
  }
  Value v = Value::of(cls);
  for (size_t k = decorators.size(); k-- > 0;) v = ev.call(decorators[k], {v}, c->decorators[k]->loc);
  ev.store_name(env, c->name, v);
}

// ---- try / raise ---------------------------------------------------------------

namespace {
struct Handling {
  Evaluator& ev;
  Handling(Evaluator& e, std::exception_ptr p) : ev(e) { ev.handling.push_back(std::move(p)); }
  ~Handling() { ev.handling.pop_back(); }
};
}  // namespace

static bool handler_matches(Evaluator& ev, const ast::ExceptHandler* h, const ClassObj* cls, Env& env) {
  if (!h->type) return true;
  Value t = ev.eval(h->type, env);
  auto one = [&](const Value& c) {
    if (c.kind != Kind::Class || !c.as<ClassObj>()->is_exception)
      raise("TypeError", "catching classes that do not inherit from BaseException is not allowed", h->type->loc);
    return cls->is_subclass_of(c.as<ClassObj>());
  };
  if (t.kind == Kind::Tuple) {
    for (auto& c : t.as<TupleObj>()->items)
      if (one(c)) return true;
    return false;
  }
  return one(t);
}

static Flow exec_try(Evaluator& ev, const ast::Try* t, Env& env) {
  Flow result = Flow::Normal;
  try {
    bool raised = false;
    try {
      result = ev.exec_block(t->body, env);
    } catch (Error& e) {
      raised = true;
      if (t->handlers.empty()) throw;
      Value exc = ev.exception_value(e);
      const ClassObj* cls = exc.as<InstanceObj>()->cls.get();
      const ast::ExceptHandler* chosen = nullptr;
      for (auto* h : t->handlers)
        if (handler_matches(ev, h, cls, env)) { chosen = h; break; }
      if (!chosen) throw;
      Handling guard(ev, std::current_exception());
      if (!chosen->name.empty()) ev.store_name(env, chosen->name, exc);
      result = ev.exec_block(chosen->body, env);
      // Python unbinds the `as` name when the handler ends.
      if (!chosen->name.empty()) env.vars.erase(chosen->name);
    }
    if (!raised && result == Flow::Normal && !t->orelse.empty()) result = ev.exec_block(t->orelse, env);
  } catch (...) {
    if (t->finalbody.empty()) throw;
    Flow f = ev.exec_block(t->finalbody, env);
    if (f != Flow::Normal) return f;  // return/break in finally swallows the exception
    throw;
  }
  if (!t->finalbody.empty()) {
    Value saved = ev.frame().ret;
    Flow f = ev.exec_block(t->finalbody, env);
    if (f != Flow::Normal) return f;
    ev.frame().ret = saved;
  }
  return result;
}

[[noreturn]] static void exec_raise(Evaluator& ev, const ast::Raise* r, Env& env) {
  if (!r->exc) {
    if (ev.handling.empty()) raise("RuntimeError", "No active exception to reraise", r->loc);
    std::rethrow_exception(ev.handling.back());
  }
  Value exc = ev.eval(r->exc, env);
  if (exc.kind == Kind::Class && exc.as<ClassObj>()->is_exception) exc = ev.call(exc, {}, r->exc->loc);
  if (r->cause) {
    Value cause = ev.eval(r->cause, env);
    if (cause.kind == Kind::Class) cause = ev.call(cause, {}, r->cause->loc);
    if (exc.kind == Kind::Instance) exc.as<InstanceObj>()->attrs["__cause__"] = cause;
  }
  ev.raise_value(exc, r->exc->loc);
}

// ---- imports ---------------------------------------------------------------------

static void exec_import(Evaluator& ev, const ast::Import* im, Env& env) {
  for (auto& a : im->names) {
    Value m = ev.import_module(a.name, a.loc.known() ? a.loc : im->loc);
    if (!a.asname.empty()) {
      ev.store_name(env, a.asname, m);
    } else {
      // `import a.b` binds `a`.
      std::string top = a.name.substr(0, a.name.find('.'));
      ev.store_name(env, top, top == a.name ? m : ev.import_module(top, im->loc));
    }
  }
}

static void exec_import_from(Evaluator& ev, const ast::ImportFrom* im, Env& env) {
  Value m = ev.import_module(im->module, im->loc);
  for (auto& a : im->names) {
    if (a.name == "*") {
      for (auto& [k, v] : m.as<ModuleObj>()->attrs)
        if (!k.empty() && k[0] != '_') ev.store_name(env, k, v);
      continue;
    }
    Value v;
    if (!ev.try_get_attr(m, a.name, im->loc, v)) {
      // A submodule (`from taichi import math`) or a missing name.
      try {
        v = ev.import_module(im->module + "." + a.name, im->loc);
      } catch (Error&) {
        raise("ImportError", "cannot import name '" + a.name + "' from '" + im->module + "'", a.loc.known() ? a.loc : im->loc);
      }
    }
    ev.store_name(env, a.asname.empty() ? a.name : a.asname, v);
  }
}

// ---- dispatch ----------------------------------------------------------------------

Flow Evaluator::exec_block(const ast::Body& b, Env& env) {
  for (auto* s : b) {
    Flow f = exec(s, env);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

Flow Evaluator::exec(const ast::Stmt* s, Env& env) {
  frame().cur = s->loc;
  // A statement boundary: every live object is held by a shared_ptr up the
  // C++ stack or by another object, so the collector may run (gc.h).
  if (gc_due()) gc_collect();
  if (on_stmt) on_stmt(s, env);
  try {
    switch (s->kind) {
      case StmtKind::ExprStmt: eval(s->as<ast::ExprStmt>()->value, env); return Flow::Normal;
      case StmtKind::Assign: {
        auto* a = s->as<ast::Assign>();
        Value v = eval(a->value, env);
        for (auto* t : a->targets) assign(t, v, env);
        return Flow::Normal;
      }
      case StmtKind::AugAssign: aug_assign(*this, s->as<ast::AugAssign>(), env); return Flow::Normal;
      case StmtKind::AnnAssign: {
        auto* a = s->as<ast::AnnAssign>();
        if (a->value) assign(a->target, eval(a->value, env), env);
        // A class body records `name: T` in __annotations__, as Python does
        // (@ti.dataclass reads its members from there, in order).
        if (env.type == Env::Type::Class && a->target->kind == ast::ExprKind::Name) {
          Value& ann = env.vars["__annotations__"];
          if (ann.kind != Kind::Dict) ann = make_dict();
          ann.as<DictObj>()->set(Value::str(a->target->as<ast::Name>()->id), eval(a->annotation, env), a->loc);
        }
        return Flow::Normal;
      }
      case StmtKind::If: {
        auto* i = s->as<ast::If>();
        if (truthy(eval(i->test, env), i->test->loc)) return exec_block(i->body, env);
        return exec_block(i->orelse, env);
      }
      case StmtKind::For: return exec_for(*this, s->as<ast::For>(), env);
      case StmtKind::While: return exec_while(*this, s->as<ast::While>(), env);
      case StmtKind::Break: return Flow::Break;
      case StmtKind::Continue: return Flow::Continue;
      case StmtKind::Pass: return Flow::Normal;
      case StmtKind::Return: {
        auto* r = s->as<ast::Return>();
        frame().ret = r->value ? eval(r->value, env) : Value();
        return Flow::Return;
      }
      case StmtKind::FunctionDef: exec_def(*this, s->as<ast::FunctionDef>(), env); return Flow::Normal;
      case StmtKind::ClassDef: exec_class(*this, s->as<ast::ClassDef>(), env); return Flow::Normal;
      case StmtKind::Import: exec_import(*this, s->as<ast::Import>(), env); return Flow::Normal;
      case StmtKind::ImportFrom: exec_import_from(*this, s->as<ast::ImportFrom>(), env); return Flow::Normal;
      case StmtKind::Try: return exec_try(*this, s->as<ast::Try>(), env);
      case StmtKind::Raise: exec_raise(*this, s->as<ast::Raise>(), env);
      case StmtKind::Assert: {
        auto* a = s->as<ast::Assert>();
        if (truthy(eval(a->test, env), a->test->loc)) return Flow::Normal;
        Value msg = a->msg ? eval(a->msg, env) : Value();
        if (a->msg) raise_value(make_exception(exception_class("AssertionError"), {msg}), a->loc);
        raise("AssertionError", "", a->loc);
      }
      case StmtKind::Global:
      case StmtKind::Nonlocal: return Flow::Normal;  // resolved statically (scope.cpp)
      case StmtKind::Delete:
        for (auto* t : s->as<ast::Delete>()->targets) {
          std::vector<const ast::Expr*> todo{t};
          while (!todo.empty()) {
            const ast::Expr* x = todo.back();
            todo.pop_back();
            if (x->kind == ExprKind::Name) delete_name(env, x->as<ast::Name>()->id, x->loc);
            else if (x->kind == ExprKind::Subscript)
              del_item(eval(x->as<ast::Subscript>()->value, env), eval(x->as<ast::Subscript>()->slice, env), x->loc);
            else if (x->kind == ExprKind::Attribute)
              del_attr(eval(x->as<ast::Attribute>()->value, env), x->as<ast::Attribute>()->attr, x->loc);
            else if (x->kind == ExprKind::Tuple)
              for (auto it = x->as<ast::Tuple>()->elts.rbegin(); it != x->as<ast::Tuple>()->elts.rend(); ++it) todo.push_back(*it);
            else if (x->kind == ExprKind::List)
              for (auto it = x->as<ast::List>()->elts.rbegin(); it != x->as<ast::List>()->elts.rend(); ++it) todo.push_back(*it);
            else raise("SyntaxError", "cannot delete expression", x->loc);
          }
        }
        return Flow::Normal;
    }
  } catch (Error& e) {
    if (!e.loc.known()) e.loc = s->loc;
    throw;
  }
  return Flow::Normal;
}

}  // namespace kiln::host
