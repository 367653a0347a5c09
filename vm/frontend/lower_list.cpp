// Lists in kernels. As in Taichi, `xs = [a, b, c]` in a kernel is a list of
// variables when the function assigns into it (`xs[1] = xs[2]` under a
// run-time `if` swaps at run time), and otherwise a tuple of values, whose
// compile-time elements stay usable in ti.static. Reading a list bound here
// loads its elements (Lowerer::load_binding).
#include <unordered_set>

#include "vm/frontend/lower.h"

namespace kiln::frontend {

using ir::Stmt;

namespace {

// xs of an assignment target `xs[k]`, also inside `xs[k], y = ...`.
void note_subscript_target(const ast::Expr* t, std::unordered_set<std::string>& out) {
  if (t->kind == ast::ExprKind::Subscript) {
    const ast::Expr* v = t->as<ast::Subscript>()->value;
    if (v->kind == ast::ExprKind::Name) out.insert(v->as<ast::Name>()->id);
  } else if (t->kind == ast::ExprKind::Tuple || t->kind == ast::ExprKind::List) {
    for (auto* e : t->kind == ast::ExprKind::Tuple ? t->as<ast::Tuple>()->elts : t->as<ast::List>()->elts)
      note_subscript_target(e, out);
  }
}

// The names a body assigns through a subscript: xs in `xs[k] = v`,
// `xs[k] += v`, `xs[k], y = ...`, in nested ifs and loops too.
void scan_subscript_targets(const ast::Body& body, std::unordered_set<std::string>& out) {
  for (const ast::Stmt* s : body) {
    switch (s->kind) {
      case ast::StmtKind::Assign:
        for (auto* t : s->as<ast::Assign>()->targets) note_subscript_target(t, out);
        break;
      case ast::StmtKind::AugAssign: note_subscript_target(s->as<ast::AugAssign>()->target, out); break;
      case ast::StmtKind::If:
        scan_subscript_targets(s->as<ast::If>()->body, out);
        scan_subscript_targets(s->as<ast::If>()->orelse, out);
        break;
      case ast::StmtKind::For: scan_subscript_targets(s->as<ast::For>()->body, out); break;
      case ast::StmtKind::While: scan_subscript_targets(s->as<ast::While>()->body, out); break;
      default: break;
    }
  }
}

}  // namespace

// `xs = [a, b, c]` in a kernel. A list the function never assigns into is a
// tuple of values (compile-time elements stay usable in ti.static). One it
// does (`xs[1] = xs[2]`) is, as in Taichi, a list of variables: each run-time
// value and each number becomes a local of its own, so an assignment under a
// run-time `if` or in a loop takes effect at run time. Fields, nested lists
// and other compile-time objects stay what they are.
Binding Lowerer::list_local(const std::string& name, const KVal& v, SourceLoc loc) {
  Binding b;
  b.kind = Binding::Kind::tuple;
  b.tuple = v;
  Frame& fr = frame();
  if (!fr.scanned_list_targets && fr.def) scan_subscript_targets(fr.def->body, fr.list_targets);
  fr.scanned_list_targets = true;
  if (!fr.list_targets.count(name)) return b;
  b.list = true;
  for (const KVal& e : v.elems) {
    Binding m;
    m.kind = Binding::Kind::static_;
    bool number = e.is_static() && (e.s.kind == StaticValue::Kind::integer || e.s.kind == StaticValue::Kind::floating ||
                                    e.s.kind == StaticValue::Kind::boolean);
    if (number || (e.is_value() && e.v && !e.v->type.is_ptr && !is_shared(e))) {
      Stmt* x = value_of(e, loc);
      m.kind = Binding::Kind::local;
      m.stmt = emit_alloca(x->type, loc);
      emit_store(m.stmt, x, loc);
    }
    b.members.push_back(std::move(m));
  }
  return b;
}

// xs[k] = v on a list bound by list_local: k is a compile-time integer
// (negative counts from the end, as in Python); the element keeps its type.
void Lowerer::store_list_element(Binding& b, const std::string& name, const ast::Expr* slice, const KVal& v,
                                 SourceLoc loc) {
  StaticValue k = static_of(lower_expr(slice), "a list index", slice->loc);
  if (k.kind != StaticValue::Kind::integer)
    raise("TypeError", "list indices in a kernel must be compile-time integers (the list '" + name + "')", slice->loc);
  int64_t n = (int64_t)b.members.size(), i = k.i < 0 ? k.i + n : k.i;
  if (i < 0 || i >= n) raise("IndexError", "list assignment index out of range (the list '" + name + "' has " +
                                               std::to_string(n) + " elements)", slice->loc);
  const Binding& m = b.members[(size_t)i];
  std::string what = "'" + name + "[" + std::to_string(i) + "]'";
  if (m.kind != Binding::Kind::local) {
    const KVal& e = b.tuple.elems[(size_t)i];
    raise("TypeError", what + " holds " + (e.is_static() ? describe_static(e.s) : e.is_tuple() ? "a list" : "a reference") +
                           ", known at compile time; a kernel can reassign only the run-time values of a list", loc);
  }
  if (v.is_tuple()) raise("TypeError", "cannot assign a list to " + what + ", which holds a value", loc);
  Stmt* x = value_of(v, loc);
  const Type& lt = m.stmt->type;
  if (x->type.rows != lt.rows || x->type.cols != lt.cols)
    raise("TypeError", "cannot assign " + shape_phrase(x->type) + " to " + what + ", which is " + shape_phrase(lt), loc);
  emit_store(m.stmt, convert_for_store(x, lt.prim, what, loc), loc);
}

}  // namespace kiln::frontend
