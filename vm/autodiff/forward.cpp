// Forward-mode autodiff (ti.ad.FwdMode): beside every float value the kernel
// computes its tangent, the derivative along the direction seeded in the
// parameters' dual fields. One pass in program order: after each statement
// comes its tangent's code, so loops and branches need nothing special (a
// local's tangent is a local too). Reads of x[i] read x.dual[i]; writes of
// y[i] also write y.dual[i]; `+=` into global data adds the tangents too.
#include <unordered_map>

#include "vm/autodiff/autodiff.h"
#include "vm/autodiff/derivatives.h"

namespace kiln::autodiff {

using ir::Block;
using ir::Stmt;
using ir::StmtKind;

namespace {

struct Forward {
  const CompanionFn& dual_of;
  std::unordered_map<const Stmt*, Stmt*> tangent;  // value -> its tangent (absent: zero)
  std::unordered_map<const Stmt*, Stmt*> local;    // float local -> its tangent's local

  Stmt* t(const Stmt* s) {
    auto it = tangent.find(s);
    return it == tangent.end() ? nullptr : it->second;
  }
  Stmt* or_zero(Emit& e, Stmt* v, Prim p) {
    if (!v) return e.k(p, 0.0);
    if (v->type.prim == p) return v;
    Stmt* c = e.un(ir::UnaryOp::cast_value, v);
    c->type = Type::scalar(p);
    return c;
  }
  std::optional<ir::Access> companion(const Stmt* ptr) {
    if (ptr->kind != StmtKind::global_ptr) return std::nullopt;
    return dual_of(ptr->access);
  }
  Stmt* dual_ptr(Emit& e, const Stmt* ptr, const ir::Access& acc) {
    return e.at(e.b.global_ptr(acc, ptr->type.prim, ptr->ops.vec()));
  }

  void run(Block& b) {
    ir::StmtList in = ir::take_all(b);
    for (auto& owned : in) {
      Stmt* s = owned.get();
      if (s->body) run(*s->body);
      if (s->else_body) run(*s->else_body);
      b.add(std::move(owned));
      after(b, s);
    }
  }

  void after(Block& b, Stmt* s) {
    Emit e(b, s->loc);
    switch (s->kind) {
      case StmtKind::alloca:
        if (is_real(s)) local[s] = e.at(e.b.alloca(s->type));
        return;
      case StmtKind::local_load:
        if (auto it = local.find(s->ops[0]); it != local.end()) tangent[s] = e.at(e.b.local_load(it->second));
        return;
      case StmtKind::local_store:
        if (auto it = local.find(s->ops[0]); it != local.end())
          e.at(e.b.local_store(it->second, or_zero(e, t(s->ops[1]), s->ops[0]->type.prim)));
        return;
      case StmtKind::atomic: {
        if (s->aop != ir::AtomicOp::add && s->aop != ir::AtomicOp::sub) return;
        Stmt* d = t(s->ops[1]);
        if (!d) return;
        if (s->aop == ir::AtomicOp::sub) d = e.neg(d);
        if (auto it = local.find(s->ops[0]); it != local.end()) {
          e.at(e.b.atomic(ir::AtomicOp::add, it->second, or_zero(e, d, it->second->type.prim)));
        } else if (auto acc = companion(s->ops[0])) {
          Stmt* p = dual_ptr(e, s->ops[0], *acc);
          e.at(e.b.atomic(ir::AtomicOp::add, p, or_zero(e, d, p->type.prim)));
        }
        return;
      }
      case StmtKind::global_load:
        if (is_real(s))
          if (auto acc = companion(s->ops[0])) tangent[s] = e.at(e.b.global_load(dual_ptr(e, s->ops[0], *acc)));
        return;
      case StmtKind::global_store:
        if (is_real(s->ops[1]) || prim_is_float(s->ops[1]->type.prim))
          if (auto acc = companion(s->ops[0])) {
            Stmt* p = dual_ptr(e, s->ops[0], *acc);
            e.at(e.b.global_store(p, or_zero(e, t(s->ops[1]), p->type.prim)));
          }
        return;
      case StmtKind::unary:
      case StmtKind::binary:
      case StmtKind::select: {
        if (!is_real(s)) return;
        bool any = false;
        for (Stmt* o : s->ops) any |= t(o) != nullptr;
        if (!any) return;
        std::array<Partial, 3> d = partials(e, s, [&](int i) { return s->ops[(size_t)i]; }, [&] { return s; });
        Stmt* sum = nullptr;
        for (size_t i = 0; i < s->ops.size() && i < 3; i++) {
          Stmt* di = t(s->ops[i]);
          if (!di) continue;
          Stmt* c = e.scale(or_zero(e, di, s->type.prim), d[i]);
          if (c) sum = sum ? e.add(sum, c) : c;
        }
        if (sum) tangent[s] = sum;
        return;
      }
      default: return;  // stop_grad and the rest: no tangent
    }
  }
};

}  // namespace

void make_dual(ir::Kernel& k, const CompanionFn& dual) {
  Forward f{dual, {}, {}};
  f.run(k.root);
}

}  // namespace kiln::autodiff
