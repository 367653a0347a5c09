// Assignment in kernels: to locals (with seed 000's implicit casts and their
// precision-loss warning), to field elements and components, to vector
// elements and swizzles, to struct members; augmented assignment, which is
// atomic on global data and on reductions into locals outside a parallel loop.
#include <optional>

#include <functional>

#include "vm/frontend/lower.h"

namespace kiln::frontend {

using ir::Stmt;
using ir::StmtKind;

namespace {

// The components a swizzle (`.y`, `.xz`, `.rgb`) names on vector field vf.
std::vector<int> swizzle_of(const StaticValue& vf, const std::string& attr, SourceLoc loc) {
  std::vector<int> comps;
  for (char ch : attr) {
    size_t k = std::string("xyzw").find(ch);
    if (k == std::string::npos) k = std::string("rgba").find(ch);
    if (k == std::string::npos || (int)k >= vf.rows)
      raise("TypeError", "'" + attr + "' is not a swizzle of " + describe_static(vf) + " (a " + std::to_string(vf.rows) +
                             "-vector)", loc);
    comps.push_back((int)k);
  }
  return comps;
}

// x[i][k] = v, x[i][k] op= v on a vector/matrix field with a component index
// known only at run time (Taichi's dynamic index; its snow_phaseField writes
// rate[i, j][rk_step]): FN runs once per component, under `if k == c` (a
// matrix's flat index k0 * cols + k1), so the store reaches the one component
// asked for. Compile-time indices take the component directly.
void each_component_at(Lowerer& L, const StaticValue& mf, const ast::Expr* slice,
                       const std::function<void(const StaticValue&)>& fn) {
  std::vector<KVal> idx;
  L.flatten_index(slice, idx);
  bool known = true;
  for (auto& k : idx) known &= k.is_static() && k.s.kind == StaticValue::Kind::integer;
  size_t want = mf.cols ? 2 : 1;
  if (known || idx.size() != want) {  // component_field checks the count and range
    fn(L.component_field(mf, slice));
    return;
  }
  SourceLoc loc = slice->loc;
  Stmt* flat = nullptr;
  for (size_t d = 0; d < idx.size(); d++) {
    Stmt* k = L.value_of(idx[d], loc);
    if (k->type.rows || !prim_is_int(k->type.prim))
      raise("TypeError", "the component index of " + describe_static(mf) + " must be an integer, got " +
                             shape_phrase(k->type), loc);
    k = L.emit_cast(k, Prim::i32, loc);
    if (d == 0) {
      flat = k;
    } else {
      Stmt* cols = L.emit_const(ir::Const::of_int(Prim::i32, mf.cols), loc);
      flat = L.emit_binary(ir::BinaryOp::add, L.emit_binary(ir::BinaryOp::mul, flat, cols, Type::scalar(Prim::i32), loc), k,
                           Type::scalar(Prim::i32), loc);
    }
  }
  for (int c = 0; c < (int)mf.fields.size(); c++) {
    Stmt* is_c = L.emit_binary(ir::BinaryOp::cmp_eq, flat, L.emit_const(ir::Const::of_int(Prim::i32, c), loc),
                               Type::scalar(Prim::i32), loc);
    auto st = std::make_unique<Stmt>(StmtKind::if_);
    st->ops = {is_c};
    L.push_block(L.emit(std::move(st), loc));
    fn(L.component_field(mf, c));
    L.pop_block();
  }
}

}  // namespace

void Lowerer::lower_assign(const ast::Expr* target, const KVal& v, SourceLoc loc) {
  switch (target->kind) {
    case ast::ExprKind::Name: {
      const std::string& name = target->as<ast::Name>()->id;
      Binding* existing = find_local(name);
      if (existing && existing->kind == Binding::Kind::struct_) {
        store_binding(*existing, v, "'" + name + "'", loc);
        return;
      }
      if (v.is_struct()) {
        if (existing && existing->kind == Binding::Kind::local)
          raise("TypeError", "cannot assign " + describe_static(v.s) + " value to '" + name + "', which is " +
                                 shape_phrase(existing->stmt->type), loc);
        if (existing && existing->kind == Binding::Kind::value)
          raise("SyntaxError", std::string("cannot assign to the ") + existing->what + " '" + name + "'", loc);
        bind(name, struct_local(v, loc));
        return;
      }
      if (Binding* b = existing) {
        switch (b->kind) {
          case Binding::Kind::struct_: break;
          case Binding::Kind::local: {
            const Type& lt = b->stmt->type;
            if (v.is_tuple() && !lt.rows)
              raise("TypeError", "cannot assign a tuple of " + std::to_string(v.elems.size()) + " values to '" + name +
                                     "' of type " + type_name(lt), loc);
            // a list for a vector or matrix local is one (Taichi's mciso: R = [i + p, j, k])
            Stmt* x = v.is_tuple() ? tensor_from_list(v, lt, "'" + name + "'", loc) : value_of(v, loc);
            if (x->type.rows != lt.rows || x->type.cols != lt.cols) {
              if (!lt.rows)
                raise("TypeError", "cannot assign " + shape_phrase(x->type) + " to the scalar variable '" + name +
                                       "' (a local keeps the type of its first assignment)", loc);
              if (x->type.rows)
                raise("TypeError", "cannot assign " + shape_phrase(x->type) + " to '" + name + "', which is " +
                                       shape_phrase(lt), loc);
              x = broadcast(x, lt, loc);  // v = 0 sets every element, as Taichi allows
            }
            emit_store(b->stmt, convert_for_store(x, lt.prim, "'" + name + "'", loc), loc);
            return;
          }
          case Binding::Kind::value:
            if (std::string(b->what) == "kernel argument")
              raise("SyntaxError", "kernel argument '" + name + "' is immutable in the kernel; assign it to a new variable first", loc);
            raise("SyntaxError", std::string("cannot assign to the ") + b->what + " '" + name + "'", loc);
          case Binding::Kind::static_:
          case Binding::Kind::tuple:
            break;  // rebinding a compile-time name is allowed, as in Python
        }
      }
      Binding b;
      if (v.is_tuple() && v.list) {
        b = list_local(name, v, loc);
      } else if (v.is_tuple()) {
        b.kind = Binding::Kind::tuple;
        b.tuple = v;
      } else if (v.is_static() && v.s.kind != StaticValue::Kind::integer && v.s.kind != StaticValue::Kind::floating &&
                 v.s.kind != StaticValue::Kind::boolean) {
        b.kind = Binding::Kind::static_;  // an alias of a field, func, type, ...
        b.s = v.s;
      } else if (is_shared(v)) {
        // `pad = ti.simt.block.SharedArray(...)` names the block's array
        b.kind = Binding::Kind::value;
        b.stmt = v.v;
        b.what = "shared array";
        if (v.v->access->field.empty()) v.v->access->field = name;
      } else {
        Stmt* x = value_of(v, loc);
        b.kind = Binding::Kind::local;
        b.stmt = emit_alloca(x->type, loc);
        emit_store(b.stmt, x, loc);
      }
      bind(name, std::move(b));
      return;
    }
    case ast::ExprKind::Tuple:
    case ast::ExprKind::List: {
      const ast::ExprList& elts = target->kind == ast::ExprKind::Tuple ? target->as<ast::Tuple>()->elts : target->as<ast::List>()->elts;
      std::vector<KVal> vals;
      if (v.is_tuple()) vals = v.elems;
      else if (v.is_static() && v.s.kind == StaticValue::Kind::tuple)
        for (auto& e : v.s.elems) vals.push_back(KVal::of(e));
      else if (is_tensor(v) && !v.v->type.cols)  // a, b, c = some_vector
        for (Stmt* e : elements(v.v, loc)) vals.push_back(KVal::of(e));
      else raise("TypeError", "cannot unpack a non-tuple value", loc);
      if (vals.size() != elts.size())
        raise("ValueError", std::string(vals.size() > elts.size() ? "too many" : "not enough") + " values to unpack (expected " +
                                std::to_string(elts.size()) + ", got " + std::to_string(vals.size()) + ")", loc);
      for (size_t i = 0; i < elts.size(); i++) lower_assign(elts[i], vals[i], elts[i]->loc);
      return;
    }
    case ast::ExprKind::Subscript: {
      auto* sub = target->as<ast::Subscript>();
      if (sub->value->kind == ast::ExprKind::Name) {  // xs[k] = v on a list
        Binding* lb = find_local(sub->value->as<ast::Name>()->id);
        const std::string& name = sub->value->as<ast::Name>()->id;
        if (lb && lb->kind == Binding::Kind::tuple && lb->list) {
          store_list_element(*lb, name, sub->slice, v, loc);
          return;
        }
        if (lb && lb->kind == Binding::Kind::tuple)
          raise("TypeError", "cannot assign to an element of '" + name + "': it is a tuple (or a ti.func's list "
                             "argument), whose elements are fixed; make a list in this function, or a ti.Vector", loc);
      }
      if (v.is_tuple()) {
        // x[i] = [a, b] on a vector/matrix field: the list is the element's value, as in Taichi
        KVal fb = lower_expr(sub->value);
        if (!(fb.is_static() && fb.s.kind == StaticValue::Kind::matrix_field))
          raise("TypeError", "cannot store a tuple of " + std::to_string(v.elems.size()) +
                                 " values through [] (use ti.Vector([...]))", loc);
        std::vector<Stmt*> e;
        std::function<void(const KVal&)> flat = [&](const KVal& k) {
          if (k.is_tuple()) {
            for (auto& x : k.elems) flat(x);
            return;
          }
          Stmt* x = value_of(k, loc);
          if (x->type.rows) for (Stmt* c : elements(x, loc)) e.push_back(c);
          else e.push_back(x);
        };
        flat(v);
        int rows = fb.s.rows, cols = fb.s.cols;
        if ((int)e.size() != rows * (cols ? cols : 1))
          raise("TypeError", "cannot store " + std::to_string(e.size()) + " values into an element of " +
                                 fb.s.fields[0]->describe() + " (" + std::to_string(rows * (cols ? cols : 1)) + " components)", loc);
        lower_assign(target, KVal::of(make_tensor(e, rows, cols, loc)), loc);
        return;
      }
      // x[i][j] = s: one component of a vector/matrix field element.
      if (sub->value->kind == ast::ExprKind::Subscript) {
        auto* inner = sub->value->as<ast::Subscript>();
        KVal ib = lower_expr(inner->value);
        if (is_shared(ib)) {
          Stmt* ptr = shared_component(ib.v, inner->slice, sub->slice, loc);
          emit_store(ptr, convert_for_store(value_of(v, loc), ptr->type.prim, "a shared array's component", loc), loc);
          return;
        }
        if (ib.is_static() && ib.s.kind == StaticValue::Kind::matrix_field) {
          Stmt* x = value_of(v, loc);
          KVal index = lower_index(inner->slice);
          each_component_at(*this, ib.s, sub->slice, [&](const StaticValue& f) {
            Stmt* ptr = global_ptr_at(f, index, target->loc);
            emit_store(ptr, convert_for_store(x, f.field->dtype, "a component of " + f.field->describe(), loc), loc);
          });
          return;
        }
      }
      // v[i] = s on a local vector (or a vector member of a struct local).
      {
        Binding* b = place_binding(sub->value);
        if (b && b->kind == Binding::Kind::local && b->stmt->type.rows) {
          std::vector<KVal> idx;
          flatten_index(sub->slice, idx);
          store_element(b->stmt, idx, value_of(v, loc), loc);
          return;
        }
      }
      KVal base = lower_expr(sub->value);
      if (base.is_static() && base.s.kind == StaticValue::Kind::sparse_builder) builder_misuse(base.s, target->loc);
      if (is_shared(base)) {
        shared_store(base.v, sub->slice, v, loc);
        return;
      }
      if (base.is_static() && base.s.kind == StaticValue::Kind::struct_field) {
        store_struct_field(base.s, lower_index(sub->slice), v, loc);
        return;
      }
      if (base.is_static() && base.s.kind == StaticValue::Kind::matrix_field) {
        Stmt* x = value_of(v, loc);
        Type ft = tensor_type(base.s.fields[0]->dtype, base.s.rows, base.s.cols, loc);
        if (!x->type.rows) x = broadcast(x, ft, loc);
        if (x->type.rows != ft.rows || x->type.cols != ft.cols)
          raise("TypeError", "cannot store " + shape_phrase(x->type) + " into an element of " + describe_static(base.s) +
                                 ", which holds " + shape_phrase(ft), loc);
        std::vector<Stmt*> el = elements(x, loc);
        KVal index = lower_index(sub->slice);
        for (size_t k = 0; k < el.size(); k++) {
          StaticValue f = component_field(base.s, (int)k);
          Stmt* ptr = global_ptr_at(f, index, target->loc);
          emit_store(ptr, convert_for_store(el[k], f.field->dtype, "an element of " + describe_static(base.s), loc), loc);
        }
        return;
      }
      if (!(base.is_static() && base.s.kind == StaticValue::Kind::field))
        raise("TypeError", "only field elements and local vectors can be assigned through [] in a kernel", target->loc);
      Stmt* ptr = global_ptr(base.s, sub->slice, target->loc);
      Stmt* x = value_of(v, loc);
      if (x->type.rows)
        raise("TypeError", "cannot store " + shape_phrase(x->type) + " into an element of the scalar " + base.s.field->describe(), loc);
      emit_store(ptr, convert_for_store(x, base.s.field->dtype, "an element of " + base.s.field->describe(), loc), loc);
      return;
    }
    case ast::ExprKind::Attribute: {
      auto* a = target->as<ast::Attribute>();
      // Stores v into member `attr` of struct field sf at [slice]: as a
      // one-member struct field, through the struct store.
      auto store_member = [&](const StaticValue& sf, const ast::Expr* slice) {
        int i = member_index(sf.ctype ? *sf.ctype : sf, a->attr, target->loc);
        StaticValue single;
        single.kind = StaticValue::Kind::struct_field;
        single.names = {a->attr};
        single.elems = {sf.elems[i]};
        KVal one;
        one.kind = KVal::Kind::struct_;
        one.s.names = {a->attr};
        one.elems = {v};
        store_struct_field(single, lower_index(slice), one, loc);
      };
      // s.member = v on a struct local (members of members too: s.a.b = v).
      if (Binding* sb = struct_member_binding(a->value)) {
        int i = member_index(sb->s, a->attr, target->loc);
        store_binding(sb->members[i], v, "member '" + a->attr + "'", loc);
        return;
      }
      // x[i].member = v on a struct field: store that member's field.
      if (a->value->kind == ast::ExprKind::Subscript) {
        auto* sub = a->value->as<ast::Subscript>();
        KVal base = lower_expr(sub->value);
        // x[i].y = v, x[i].xy = w on a vector field: store those components.
        if (base.is_static() && base.s.kind == StaticValue::Kind::matrix_field && !base.s.cols) {
          std::vector<int> comps = swizzle_of(base.s, a->attr, target->loc);
          Stmt* x = value_of(v, loc);
          std::vector<Stmt*> parts = x->type.rows ? elements(x, loc) : std::vector<Stmt*>(comps.size(), x);
          if (parts.size() != comps.size())
            raise("TypeError", "cannot assign " + shape_phrase(x->type) + " to the swizzle '." + a->attr + "'", loc);
          KVal index = lower_index(sub->slice);
          for (size_t i = 0; i < comps.size(); i++) {
            StaticValue f = component_field(base.s, comps[i]);
            emit_store(global_ptr_at(f, index, target->loc),
                       convert_for_store(parts[i], f.field->dtype, "a component of " + describe_static(base.s), loc), loc);
          }
          return;
        }
        if (base.is_static() && base.s.kind == StaticValue::Kind::struct_field) {
          store_member(base.s, sub->slice);
          return;
        }
      }
      // x[i].a.b = v on a struct field whose member a is a struct: walk the
      // members down to b's field (Taichi's cornell_box sets
      // objects[i].transform.matrix).
      if (a->value->kind == ast::ExprKind::Attribute) {
        std::vector<const ast::Attribute*> chain{a};
        const ast::Expr* e = a->value;
        while (e->kind == ast::ExprKind::Attribute) {
          chain.push_back(e->as<ast::Attribute>());
          e = chain.back()->value;
        }
        if (e->kind == ast::ExprKind::Subscript && e->as<ast::Subscript>()->value->kind == ast::ExprKind::Name) {
          auto* sub = e->as<ast::Subscript>();
          KVal base = lower_expr(sub->value);
          if (base.is_static() && base.s.kind == StaticValue::Kind::struct_field) {
            StaticValue cur = base.s;
            for (size_t k = chain.size() - 1; k >= 1; k--) {  // the member next to x[i] first
              int i = member_index(cur.ctype ? *cur.ctype : cur, chain[k]->attr, chain[k]->loc);
              StaticValue m = cur.elems[i];
              if (m.kind != StaticValue::Kind::struct_field)
                raise("TypeError", "member '" + chain[k]->attr + "' is not a struct: it has no member '" +
                                       chain[k - 1]->attr + "'", chain[k]->loc);
              cur = m;
            }
            store_member(cur, sub->slice);
            return;
          }
        }
      }
      // v.x = s, v.xy = w on a local vector (or a vector member of a struct local).
      Binding* b = place_binding(a->value);
      if (!b || b->kind != Binding::Kind::local || !b->stmt->type.rows || b->stmt->type.cols) break;
      Stmt* cur = emit_load(b->stmt, loc);
      Stmt* x = value_of(v, loc);
      std::vector<Stmt*> parts = x->type.rows ? elements(x, loc) : std::vector<Stmt*>(a->attr.size(), x);
      if (parts.size() != a->attr.size())
        raise("TypeError", "cannot assign " + shape_phrase(x->type) + " to the swizzle '." + a->attr + "'", loc);
      for (size_t i = 0; i < a->attr.size(); i++) {
        KVal one = swizzle(cur, std::string(1, a->attr[i]), target->loc);  // validates the letter
        (void)one;
        static const std::string letters[3] = {"xyzw", "rgba", "stpq"};
        int k = -1;
        for (auto& l : letters)
          if (l.find(a->attr[i]) != std::string::npos) k = (int)l.find(a->attr[i]);
        cur = tensor_with(cur, {KVal::of(StaticValue::of_int(k))}, parts[i], loc);
      }
      emit_store(b->stmt, cur, loc);
      return;
    }
    default: break;
  }
  raise("SyntaxError", "cannot assign to '" + ast::unparse(target) + "' in a kernel", target->loc);
}

// The atomic op for an augmented assignment, if it has one.
static std::optional<ir::AtomicOp> atomic_of(ast::BinOpKind op) {
  switch (op) {
    case ast::BinOpKind::Add: return ir::AtomicOp::add;
    case ast::BinOpKind::Sub: return ir::AtomicOp::sub;
    case ast::BinOpKind::BitAnd: return ir::AtomicOp::bit_and;
    case ast::BinOpKind::BitOr: return ir::AtomicOp::bit_or;
    case ast::BinOpKind::BitXor: return ir::AtomicOp::bit_xor;
    default: return std::nullopt;
  }
}

// `*ptr op= v` as one atomic statement (a pointer to global memory or a local).
void Lowerer::emit_atomic_update(Stmt* ptr, ir::AtomicOp aop, Stmt* v, const std::string& what, SourceLoc loc) {
  bool bitwise = aop == ir::AtomicOp::bit_and || aop == ir::AtomicOp::bit_or || aop == ir::AtomicOp::bit_xor;
  if (bitwise && (prim_is_float(ptr->type.prim) || prim_is_float(v->type.prim)))
    raise("TypeError", "bitwise updates (&= |= ^=) need integers", loc);
  Type t = ptr->type;
  t.is_ptr = false;
  if (t.rows && !v->type.rows) v = broadcast(v, t, loc);
  if (t.rows != v->type.rows || t.cols != v->type.cols)
    raise("TypeError", "cannot update " + what + " (" + shape_phrase(t) + ") with " + shape_phrase(v->type), loc);
  if (is_quant_ptr(ptr)) {
    quant_atomic(ptr, aop, convert_for_store(v, t.prim, what, loc), loc);
    return;
  }
  auto a = std::make_unique<Stmt>(StmtKind::atomic);
  a->aop = aop;
  a->ops = {ptr, convert_for_store(v, t.prim, what, loc)};
  a->type = t;
  emit(std::move(a), loc);
}

void Lowerer::lower_aug_assign(const ast::AugAssign* s) {
  SourceLoc loc = s->loc;
  std::optional<ir::AtomicOp> aop = atomic_of(s->op);
  // Updates scalar fields `targets` at [slice] (the index evaluated once, before
  // the right-hand side, as Python does): atomically where the op has an
  // atomic form. whole_element: the targets are the components of one
  // vector/matrix element (or a swizzle), and the value is split among them.
  auto update_fields = [&](const std::vector<StaticValue>& targets, bool whole_element, const std::string& what,
                           const ast::Expr* slice) {
    KVal index = lower_index(slice);
    Stmt* rhs = value_of(lower_expr(s->value), loc);
    std::vector<Stmt*> parts;
    if (!whole_element) {
      parts.push_back(rhs);
    } else {
      Type ft = tensor_type(targets[0].field->dtype, (int)targets.size(), 0, loc);
      if (!rhs->type.rows) rhs = broadcast(rhs, ft, loc);
      if (num_elems(rhs->type) != (int)targets.size())
        raise("TypeError", "cannot update " + what + " with " + shape_phrase(rhs->type), loc);
      parts = elements(rhs, loc);
    }
    for (size_t k = 0; k < targets.size(); k++) {
      Stmt* ptr = global_ptr_at(targets[k], index, s->target->loc);
      if (aop) {
        emit_atomic_update(ptr, *aop, parts[k], what, loc);
      } else {
        Stmt* r = value_of(lower_binop(s->op, KVal::of(emit_load(ptr, loc)), KVal::of(parts[k]), loc), loc);
        emit_store(ptr, convert_for_store(r, ptr->type.prim, what, loc), loc);
      }
    }
  };
  if (s->target->kind == ast::ExprKind::Subscript) {
    // Augmented assignment to global data is atomic (so parallel loops can reduce).
    auto* sub = s->target->as<ast::Subscript>();
    std::vector<StaticValue> targets;  // scalar fields, each at [sub->slice]
    std::string what;
    bool whole_element = false;  // every component of a vector/matrix field's element (even a 1-vector's)
    if (sub->value->kind == ast::ExprKind::Subscript) {  // x[i][j] op= v
      auto* inner = sub->value->as<ast::Subscript>();
      KVal ib = lower_expr(inner->value);
      if (is_shared(ib)) {
        Stmt* ptr = shared_component(ib.v, inner->slice, sub->slice, loc);
        Stmt* rhs = value_of(lower_expr(s->value), loc);
        if (aop) {
          emit_atomic_update(ptr, *aop, rhs, "a shared array's component", loc);
        } else {
          Stmt* r = value_of(lower_binop(s->op, KVal::of(emit_load(ptr, loc)), KVal::of(rhs), loc), loc);
          emit_store(ptr, convert_for_store(r, ptr->type.prim, "a shared array's component", loc), loc);
        }
        return;
      }
      if (ib.is_static() && ib.s.kind == StaticValue::Kind::matrix_field) {
        what = "a component of " + describe_static(ib.s);
        Stmt* rhs = value_of(lower_expr(s->value), loc);
        KVal index = lower_index(inner->slice);
        each_component_at(*this, ib.s, sub->slice, [&](const StaticValue& f) {
          Stmt* ptr = global_ptr_at(f, index, s->target->loc);
          if (aop) {
            emit_atomic_update(ptr, *aop, rhs, what, loc);
          } else {
            Stmt* r = value_of(lower_binop(s->op, KVal::of(emit_load(ptr, loc)), KVal::of(rhs), loc), loc);
            emit_store(ptr, convert_for_store(r, ptr->type.prim, what, loc), loc);
          }
        });
        return;
      }
    }
    if (targets.empty()) {
      KVal base = lower_expr(sub->value);
      if (is_shared(base)) {
        shared_update(base.v, sub->slice, s->op, aop, lower_expr(s->value), loc);
        return;
      }
      if (base.is_static() && base.s.kind == StaticValue::Kind::sparse_builder) {
        lower_builder_update(base.s, s);
        return;
      }
      if (base.is_static() && base.s.kind == StaticValue::Kind::field) {
        targets.push_back(base.s);
        what = "an element of " + base.s.field->describe();
      } else if (base.is_static() && base.s.kind == StaticValue::Kind::matrix_field) {
        for (size_t k = 0; k < base.s.fields.size(); k++) targets.push_back(component_field(base.s, (int)k));
        what = "an element of " + describe_static(base.s);
        whole_element = true;
      }
    }
    if (!targets.empty()) {
      update_fields(targets, whole_element, what, sub->slice);
      return;
    }
  }
  // x[i].y op= v, x[i].xy op= w on a vector field (a swizzle) and x[i].m op= v
  // on a struct field's member: the same component-wise update.
  if (s->target->kind == ast::ExprKind::Attribute && s->target->as<ast::Attribute>()->value->kind == ast::ExprKind::Subscript) {
    auto* a = s->target->as<ast::Attribute>();
    auto* sub = a->value->as<ast::Subscript>();
    bool plain = sub->value->kind == ast::ExprKind::Name || sub->value->kind == ast::ExprKind::Attribute;
    KVal base = plain ? lower_expr(sub->value) : KVal{};
    std::vector<StaticValue> targets;
    bool whole_element = false;
    std::string what;
    if (base.is_static() && base.s.kind == StaticValue::Kind::matrix_field && !base.s.cols) {
      for (int k : swizzle_of(base.s, a->attr, s->target->loc)) targets.push_back(component_field(base.s, k));
      whole_element = targets.size() > 1;
      what = "a component of " + describe_static(base.s);
    } else if (base.is_static() && base.s.kind == StaticValue::Kind::struct_field) {
      const StaticValue& m = base.s.elems[member_index(base.s.ctype ? *base.s.ctype : base.s, a->attr, s->target->loc)];
      what = "member '" + a->attr + "' of " + describe_static(base.s);
      if (m.kind == StaticValue::Kind::field) targets.push_back(m);
      if (m.kind == StaticValue::Kind::matrix_field) {
        for (size_t k = 0; k < m.fields.size(); k++) targets.push_back(component_field(m, (int)k));
        whole_element = true;
      }
    }
    if (!targets.empty()) {
      update_fields(targets, whole_element, what, sub->slice);
      return;
    }
  }
  if (s->target->kind == ast::ExprKind::Name) {
    const std::string& name = s->target->as<ast::Name>()->id;
    Binding* b = find_local(name);
    if (!b) raise("NameError", "name '" + name + "' is not defined", s->target->loc);
    if (b->kind == Binding::Kind::value) lower_assign(s->target, KVal::of(StaticValue::of_int(0)), loc);  // raises
    if (b->kind != Binding::Kind::local)
      raise("SyntaxError", "'" + name + "' is a compile-time name and cannot be updated with " + ast::op_symbol(s->op) + "=", loc);
    Stmt* slot = b->stmt;
    // `total += x[i]` where `total` lives outside the parallel loop is a
    // reduction: many iterations update it at once, so it must be atomic (as
    // Taichi makes it). Offloading then moves `total` into a global temporary.
    bool in_parallel = false;
    for (auto& fr : frames)
      for (auto& l : fr.loops) in_parallel |= l.parallel;
    if (in_parallel && slot->parent == &kernel.root) {
      if (!aop)
        raise("SyntaxError", "'" + name + "' is defined outside the parallel loop, so '" + ast::op_symbol(s->op) +
                                 "=' on it would race between iterations (only += -= &= |= ^= are atomic)", loc);
      emit_atomic_update(slot, *aop, value_of(lower_expr(s->value), loc), "'" + name + "'", loc);
      return;
    }
    KVal old = KVal::of(emit_load(slot, loc));
    KVal rhs = lower_expr(s->value);
    Stmt* r = value_of(lower_binop(s->op, old, rhs, loc), loc);
    lower_assign(s->target, KVal::of(r), loc);
    return;
  }
  if (s->target->kind == ast::ExprKind::Subscript || s->target->kind == ast::ExprKind::Attribute) {
    // v[i] op= x, v.x op= y on local vectors: read, compute, write back.
    KVal old = lower_expr(s->target);
    KVal rhs = lower_expr(s->value);
    lower_assign(s->target, lower_binop(s->op, old, rhs, loc), loc);
    return;
  }
  raise("SyntaxError", "cannot assign to '" + ast::unparse(s->target) + "' in a kernel", s->target->loc);
}

}  // namespace kiln::frontend
