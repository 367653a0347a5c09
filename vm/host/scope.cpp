// Which names a function binds locally. Python decides this statically: a
// name assigned anywhere in a function body (and not declared global or
// nonlocal) is local for the whole body, so reading it before assignment is
// an UnboundLocalError rather than a read of the global. Nested defs, lambdas
// and comprehensions are separate scopes and are not entered.
#include "vm/host/evaluator.h"

namespace kiln::host {
namespace {

struct Collector {
  ScopeInfo& info;

  void target(const ast::Expr* e) {
    switch (e->kind) {
      case ast::ExprKind::Name: info.locals.insert(e->as<ast::Name>()->id); break;
      case ast::ExprKind::Tuple:
        for (auto* x : e->as<ast::Tuple>()->elts) target(x);
        break;
      case ast::ExprKind::List:
        for (auto* x : e->as<ast::List>()->elts) target(x);
        break;
      case ast::ExprKind::Starred: target(e->as<ast::Starred>()->value); break;
      default: break;  // attribute/subscript targets bind nothing
    }
  }

  void body(const ast::Body& b) {
    for (auto* s : b) stmt(s);
  }

  // (x := v) binds x in the function that holds it, also from inside a
  // comprehension (PEP 572); a lambda is a scope of its own.
  void walrus(const ast::Expr* e) {
    if (e->kind == ast::ExprKind::Lambda) return;
    if (e->kind == ast::ExprKind::NamedExpr) info.locals.insert(e->as<ast::NamedExpr>()->target->id);
    ast::each_child(e, [&](const ast::Expr* x) { walrus(x); });
  }

  void stmt(const ast::Stmt* s) {
    using K = ast::StmtKind;
    ast::each_expr(s, [&](const ast::Expr* e) { walrus(e); });
    switch (s->kind) {
      case K::Assign:
        for (auto* t : s->as<ast::Assign>()->targets) target(t);
        break;
      case K::AugAssign: target(s->as<ast::AugAssign>()->target); break;
      case K::AnnAssign: {
        auto* a = s->as<ast::AnnAssign>();
        if (a->value || a->target->kind == ast::ExprKind::Name) target(a->target);
        break;
      }
      case K::For: {
        auto* f = s->as<ast::For>();
        target(f->target);
        body(f->body);
        body(f->orelse);
        break;
      }
      case K::While:
        body(s->as<ast::While>()->body);
        body(s->as<ast::While>()->orelse);
        break;
      case K::If:
        body(s->as<ast::If>()->body);
        body(s->as<ast::If>()->orelse);
        break;
      case K::FunctionDef: info.locals.insert(s->as<ast::FunctionDef>()->name); break;
      case K::ClassDef: info.locals.insert(s->as<ast::ClassDef>()->name); break;
      case K::Import:
        for (auto& a : s->as<ast::Import>()->names) {
          if (!a.asname.empty()) info.locals.insert(a.asname);
          else info.locals.insert(a.name.substr(0, a.name.find('.')));
        }
        break;
      case K::ImportFrom:
        for (auto& a : s->as<ast::ImportFrom>()->names)
          if (a.name != "*") info.locals.insert(a.asname.empty() ? a.name : a.asname);
        break;
      case K::Try: {
        auto* t = s->as<ast::Try>();
        body(t->body);
        for (auto* h : t->handlers) {
          if (!h->name.empty()) info.locals.insert(h->name);
          body(h->body);
        }
        body(t->orelse);
        body(t->finalbody);
        break;
      }
      case K::Delete:
        for (auto* t : s->as<ast::Delete>()->targets) target(t);
        break;
      case K::Global:
        for (auto& n : s->as<ast::Global>()->names) info.globals.insert(n);
        break;
      case K::Nonlocal:
        for (auto& n : s->as<ast::Nonlocal>()->names) info.nonlocals.insert(n);
        break;
      default: break;
    }
  }
};

void add_args(ScopeInfo& info, const ast::Arguments& a) {
  for (auto* x : a.args) info.locals.insert(x->name);
  for (auto* x : a.kwonlyargs) info.locals.insert(x->name);
  if (a.vararg) info.locals.insert(a.vararg->name);
  if (a.kwarg) info.locals.insert(a.kwarg->name);
}

// A comprehension binds its targets; a `:=` inside it binds in the scope
// around it (PEP 572), which store_name reaches as it does a nonlocal.
void add_comprehension(ScopeInfo& info, const ast::Expr* comp, const std::vector<ast::Comprehension>& gens) {
  Collector c{info};
  for (auto& g : gens) c.target(g.target);
  ScopeInfo bound;
  Collector{bound}.walrus(comp);
  info.nonlocals.insert(bound.locals.begin(), bound.locals.end());
}

}  // namespace

const ScopeInfo* Evaluator::scope_of(const ast::Node* n) {
  auto it = scopes_.find(n);
  if (it != scopes_.end()) return it->second.get();
  auto info = std::make_unique<ScopeInfo>();
  if (auto* f = dynamic_cast<const ast::FunctionDef*>(n)) {
    add_args(*info, f->args);
    Collector{*info}.body(f->body);
  } else if (auto* l = dynamic_cast<const ast::Lambda*>(n)) {
    add_args(*info, l->args);
  } else if (auto* lc = dynamic_cast<const ast::ListComp*>(n)) {
    add_comprehension(*info, lc, lc->generators);
  } else if (auto* ge = dynamic_cast<const ast::GeneratorExp*>(n)) {
    add_comprehension(*info, ge, ge->generators);
  } else if (auto* dc = dynamic_cast<const ast::DictComp*>(n)) {
    add_comprehension(*info, dc, dc->generators);
  }
  // A name declared global/nonlocal is never local, even if assigned.
  for (auto& g : info->globals) info->locals.erase(g);
  for (auto& g : info->nonlocals) info->locals.erase(g);
  auto* raw = info.get();
  scopes_[n] = std::move(info);
  return raw;
}

}  // namespace kiln::host
