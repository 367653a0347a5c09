// List comprehensions in kernels, as Taichi expands them: every `for` of the
// comprehension runs over a compile-time sequence (range(n), a tuple, a
// ti.static(...) value) and every `if` is a compile-time condition, so the
// comprehension unrolls into a tuple of values at compile time:
//   ti.Vector([ti.random() for _ in range(dim)])   -> a dim-vector of draws
// The element expression itself may compute at run time.
#include "vm/frontend/lower.h"

namespace kiln::frontend {

namespace {

struct Unroller {
  Lowerer& L;
  const ast::ListComp* e;
  KVal out;

  void bind_target(const ast::Expr* target, const StaticValue& v) {
    std::vector<std::string> names = target_names(target);
    Binding b;
    b.kind = Binding::Kind::static_;
    if (names.size() == 1) {
      b.s = v;
      L.bind(names[0], b);
      return;
    }
    if (v.kind != StaticValue::Kind::tuple || v.elems.size() != names.size())
      raise("ValueError", "cannot unpack the comprehension's element into " + std::to_string(names.size()) + " names",
            target->loc);
    for (size_t i = 0; i < names.size(); i++) {
      b.s = v.elems[i];
      L.bind(names[i], b);
    }
  }

  void run(size_t k) {
    if (k == e->generators.size()) {
      out.elems.push_back(L.lower_expr(e->elt));
      return;
    }
    const ast::Comprehension& g = e->generators[k];
    StaticValue seq;
    try {
      seq = L.eval_static(g.iter);
    } catch (Error& err) {
      if (err.kind != "TypeError") throw;
      seq = StaticValue();  // a run-time value somewhere in the sequence: reported below
    }
    if (seq.kind != StaticValue::Kind::tuple)
      raise("TypeError", "a list comprehension in a kernel runs over a compile-time sequence (range(n), a tuple, "
                         "ti.static(...)), not " + ast::unparse(g.iter), g.iter->loc);
    for (auto& v : seq.elems) {
      L.push_scope();
      bind_target(g.target, v);
      bool keep = true;
      for (auto* cond : g.ifs) keep = keep && static_truthy(L.eval_static(cond));
      if (keep) run(k + 1);
      L.pop_scope();
    }
  }
};

}  // namespace

KVal Lowerer::lower_comprehension(const ast::ListComp* e) {
  Unroller u{*this, e, {}};
  u.out.kind = KVal::Kind::tuple;
  u.out.list = true;
  u.run(0);
  return u.out;
}

}  // namespace kiln::frontend
