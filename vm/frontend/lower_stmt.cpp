// Kernel-scope statements: assignment with seed 000's implicit casts, control
// flow, loops (the kernel's outermost loop is the parallel one), print.
#include <optional>

#include "vm/frontend/lower.h"

namespace kiln::frontend {

using ir::BinaryOp;
using ir::Stmt;
using ir::StmtKind;


void Lowerer::lower_body(const ast::Body& body) {
  for (auto* s : body) lower_stmt(s);
}

static bool is_static_call(Lowerer& L, const ast::Expr* e) {
  if (e->kind != ast::ExprKind::Call) return false;
  const ast::Expr* f = e->as<ast::Call>()->func;
  // Resolve without emitting code: ti.static is always reached by name/attribute.
  if (f->kind != ast::ExprKind::Attribute && f->kind != ast::ExprKind::Name) return false;
  StaticValue v;
  try {
    v = L.eval_static(f);
  } catch (const Error&) {
    return false;
  }
  return v.kind == StaticValue::Kind::builtin && v.s == "ti.static";
}

static bool truthy(const StaticValue& v) {
  switch (v.kind) {
    case StaticValue::Kind::none: return false;
    case StaticValue::Kind::boolean: return v.b;
    case StaticValue::Kind::integer: return v.i != 0;
    case StaticValue::Kind::floating: return v.f != 0;
    case StaticValue::Kind::string: return !v.s.empty();
    case StaticValue::Kind::tuple: return !v.elems.empty();
    default: return true;
  }
}

void Lowerer::lower_stmt(const ast::Stmt* s) {
  using SK = ast::StmtKind;
  switch (s->kind) {
    case SK::ExprStmt: {
      auto* e = s->as<ast::ExprStmt>()->value;
      if (e->kind == ast::ExprKind::Constant) return;  // docstrings
      lower_expr(e);
      return;
    }
    case SK::Assign: {
      auto* a = s->as<ast::Assign>();
      KVal v = lower_expr(a->value);
      for (auto* t : a->targets) lower_assign(t, v, t->loc);
      return;
    }
    case SK::AnnAssign: {
      auto* a = s->as<ast::AnnAssign>();
      if (a->target->kind != ast::ExprKind::Name) raise("SyntaxError", "only a plain name can be annotated in a kernel", a->target->loc);
      const std::string& name = a->target->as<ast::Name>()->id;
      StaticValue t = eval_static(a->annotation);
      if (t.kind != StaticValue::Kind::dtype) raise("TypeError", "the annotation of '" + name + "' must be a type such as ti.f32", a->annotation->loc);
      if (frame().scopes.back().vars.count(name))
        raise("SyntaxError", "'" + name + "' is already defined in this block", a->target->loc);
      Binding b;
      b.kind = Binding::Kind::local;
      b.stmt = emit_alloca(Type::scalar(t.prim), a->target->loc);
      Stmt* init = a->value ? value_of(lower_expr(a->value), a->value->loc)
                            : emit_const(prim_is_float(t.prim) ? ir::Const::of_float(t.prim, 0) : ir::Const::of_int(t.prim, 0), s->loc);
      emit_store(b.stmt, convert_for_store(init, t.prim, "'" + name + "'", s->loc), s->loc);
      bind(name, b);
      return;
    }
    case SK::AugAssign: lower_aug_assign(s->as<ast::AugAssign>()); return;
    case SK::If: lower_if(s->as<ast::If>()); return;
    case SK::For: lower_for(s->as<ast::For>()); return;
    case SK::While: lower_while(s->as<ast::While>()); return;
    case SK::Break:
    case SK::Continue: {
      bool brk = s->kind == SK::Break;
      if (frame().loops.empty()) raise("SyntaxError", std::string("'") + (brk ? "break" : "continue") + "' outside loop", s->loc);
      Loop& l = frame().loops.back();
      if (brk && l.parallel)
        raise("SyntaxError",
              "'break' is not allowed in the outermost for loop of a kernel, which runs in parallel "
              "(put ti.loop_config(serialize=True) before the loop to run it serially)",
              s->loc);
      auto st = std::make_unique<Stmt>(brk ? StmtKind::break_ : StmtKind::continue_);
      st->loop = l.stmt;
      emit(std::move(st), s->loc);
      return;
    }
    case SK::Pass: return;
    case SK::Return: lower_return(s->as<ast::Return>()); return;
    case SK::Assert: lower_assert(s->as<ast::Assert>()); return;
    case SK::FunctionDef: raise("SyntaxError", "functions cannot be defined inside a kernel or ti.func", s->loc);
    case SK::ClassDef: raise("SyntaxError", "classes cannot be defined inside a kernel or ti.func", s->loc);
    case SK::Import:
    case SK::ImportFrom: raise("SyntaxError", "import is not allowed inside a kernel or ti.func", s->loc);
    case SK::Try:
    case SK::Raise: raise("SyntaxError", "exceptions (try/raise) are not supported inside a kernel or ti.func", s->loc);
    default: break;
  }
  raise("SyntaxError", std::string("the statement '") + ast::stmt_kind_name(s->kind) + "' is not supported inside a kernel", s->loc);
}

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
            if (v.is_tuple())
              raise("TypeError", "cannot assign a tuple of " + std::to_string(v.elems.size()) + " values to '" + name +
                                     "' of type " + type_name(lt), loc);
            Stmt* x = value_of(v, loc);
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
      if (v.is_tuple()) {
        b.kind = Binding::Kind::tuple;
        b.tuple = v;
      } else if (v.is_static() && v.s.kind != StaticValue::Kind::integer && v.s.kind != StaticValue::Kind::floating &&
                 v.s.kind != StaticValue::Kind::boolean) {
        b.kind = Binding::Kind::static_;  // an alias of a field, func, type, ...
        b.s = v.s;
      } else {
        Stmt* x = value_of(v, loc);
        b.kind = Binding::Kind::local;
        b.stmt = emit_alloca(x->type, loc);
        emit_store(b.stmt, x, loc);
      }
      bind(name, b);
      return;
    }
    case ast::ExprKind::Tuple:
    case ast::ExprKind::List: {
      const ast::ExprList& elts = target->kind == ast::ExprKind::Tuple ? target->as<ast::Tuple>()->elts : target->as<ast::List>()->elts;
      std::vector<KVal> vals;
      if (v.is_tuple()) vals = v.elems;
      else if (v.is_static() && v.s.kind == StaticValue::Kind::tuple)
        for (auto& e : v.s.elems) vals.push_back(KVal::of(e));
      else raise("TypeError", "cannot unpack a non-tuple value", loc);
      if (vals.size() != elts.size())
        raise("ValueError", std::string(vals.size() > elts.size() ? "too many" : "not enough") + " values to unpack (expected " +
                                std::to_string(elts.size()) + ", got " + std::to_string(vals.size()) + ")", loc);
      for (size_t i = 0; i < elts.size(); i++) lower_assign(elts[i], vals[i], elts[i]->loc);
      return;
    }
    case ast::ExprKind::Subscript: {
      auto* sub = target->as<ast::Subscript>();
      if (v.is_tuple())
        raise("TypeError", "cannot store a tuple of " + std::to_string(v.elems.size()) +
                               " values through [] (use ti.Vector([...]))", loc);
      // x[i][j] = s: one component of a vector/matrix field element.
      if (sub->value->kind == ast::ExprKind::Subscript) {
        auto* inner = sub->value->as<ast::Subscript>();
        KVal ib = lower_expr(inner->value);
        if (ib.is_static() && ib.s.kind == StaticValue::Kind::matrix_field) {
          StaticValue f = component_field(ib.s, sub->slice);
          Stmt* ptr = global_ptr(f, inner->slice, target->loc);
          emit_store(ptr, convert_for_store(value_of(v, loc), f.field->dtype, "a component of " + f.field->describe(), loc), loc);
          return;
        }
      }
      // v[i] = s on a local vector: the local gets a copy with that element replaced.
      if (sub->value->kind == ast::ExprKind::Name) {
        Binding* b = find_local(sub->value->as<ast::Name>()->id);
        if (b && b->kind == Binding::Kind::local && b->stmt->type.rows) {
          std::vector<KVal> idx;
          flatten_index(sub->slice, idx);
          Stmt* cur = emit_load(b->stmt, loc);
          emit_store(b->stmt, tensor_with(cur, idx, value_of(v, loc), loc), loc);
          return;
        }
      }
      KVal base = lower_expr(sub->value);
      if (base.is_static() && base.s.kind == StaticValue::Kind::struct_field) {
        store_struct_field(base.s, sub->slice, v, loc);
        return;
      }
      if (base.is_static() && base.s.kind == StaticValue::Kind::matrix_field) {
        Stmt* x = value_of(v, loc);
        Type ft{base.s.fields[0]->dtype, (uint8_t)base.s.rows, (uint8_t)base.s.cols, false};
        if (!x->type.rows) x = broadcast(x, ft, loc);
        if (x->type.rows != ft.rows || x->type.cols != ft.cols)
          raise("TypeError", "cannot store " + shape_phrase(x->type) + " into an element of " + describe_static(base.s) +
                                 ", which holds " + shape_phrase(ft), loc);
        std::vector<Stmt*> el = elements(x, loc);
        for (size_t k = 0; k < el.size(); k++) {
          StaticValue f = component_field(base.s, (int)k);
          Stmt* ptr = global_ptr(f, sub->slice, target->loc);
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
          std::vector<int> comps;
          for (char ch : a->attr) {
            size_t k = std::string("xyzw").find(ch);
            if (k == std::string::npos) k = std::string("rgba").find(ch);
            if (k == std::string::npos || (int)k >= base.s.rows)
              raise("TypeError", "'" + a->attr + "' is not a swizzle of " + describe_static(base.s) + " (a " +
                                          std::to_string(base.s.rows) + "-vector)", target->loc);
            comps.push_back((int)k);
          }
          Stmt* x = value_of(v, loc);
          std::vector<Stmt*> parts = x->type.rows ? elements(x, loc) : std::vector<Stmt*>(comps.size(), x);
          if (parts.size() != comps.size())
            raise("TypeError", "cannot assign " + shape_phrase(x->type) + " to the swizzle '." + a->attr + "'", loc);
          for (size_t i = 0; i < comps.size(); i++) {
            StaticValue f = component_field(base.s, comps[i]);
            emit_store(global_ptr(f, sub->slice, target->loc),
                       convert_for_store(parts[i], f.field->dtype, "a component of " + describe_static(base.s), loc), loc);
          }
          return;
        }
        if (base.is_static() && base.s.kind == StaticValue::Kind::struct_field) {
          int i = member_index(base.s.ctype ? *base.s.ctype : base.s, a->attr, target->loc);
          const StaticValue& m = base.s.elems[i];
          StaticValue single;  // a one-member struct field, to reuse the member store
          single.kind = StaticValue::Kind::struct_field;
          single.names = {a->attr};
          single.elems = {m};
          KVal one;
          one.kind = KVal::Kind::struct_;
          one.s.names = {a->attr};
          one.elems = {v};
          store_struct_field(single, sub->slice, one, loc);
          return;
        }
      }
      // v.x = s, v.xy = w on a local vector.
      Binding* b = a->value->kind == ast::ExprKind::Name ? find_local(a->value->as<ast::Name>()->id) : nullptr;
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
  auto a = std::make_unique<Stmt>(StmtKind::atomic);
  a->aop = aop;
  a->ops = {ptr, convert_for_store(v, t.prim, what, loc)};
  a->type = t;
  emit(std::move(a), loc);
}

void Lowerer::lower_aug_assign(const ast::AugAssign* s) {
  SourceLoc loc = s->loc;
  std::optional<ir::AtomicOp> aop = atomic_of(s->op);
  if (s->target->kind == ast::ExprKind::Subscript) {
    // Augmented assignment to global data is atomic (so parallel loops can reduce).
    auto* sub = s->target->as<ast::Subscript>();
    std::vector<std::pair<StaticValue, const ast::Expr*>> targets;  // (scalar field, its index)
    std::string what;
    if (sub->value->kind == ast::ExprKind::Subscript) {  // x[i][j] op= v
      auto* inner = sub->value->as<ast::Subscript>();
      KVal ib = lower_expr(inner->value);
      if (ib.is_static() && ib.s.kind == StaticValue::Kind::matrix_field) {
        targets.push_back({component_field(ib.s, sub->slice), inner->slice});
        what = "a component of " + describe_static(ib.s);
      }
    }
    if (targets.empty()) {
      KVal base = lower_expr(sub->value);
      if (base.is_static() && base.s.kind == StaticValue::Kind::field) {
        targets.push_back({base.s, sub->slice});
        what = "an element of " + base.s.field->describe();
      } else if (base.is_static() && base.s.kind == StaticValue::Kind::matrix_field) {
        for (size_t k = 0; k < base.s.fields.size(); k++) targets.push_back({component_field(base.s, (int)k), sub->slice});
        what = "an element of " + describe_static(base.s);
      }
    }
    if (!targets.empty()) {
      Stmt* rhs = value_of(lower_expr(s->value), loc);
      std::vector<Stmt*> parts;
      if (targets.size() == 1) {
        parts.push_back(rhs);
      } else {
        Type ft{targets[0].first.field->dtype, (uint8_t)targets.size(), 0, false};
        if (!rhs->type.rows) rhs = broadcast(rhs, ft, loc);
        if (num_elems(rhs->type) != (int)targets.size())
          raise("TypeError", "cannot update " + what + " with " + shape_phrase(rhs->type), loc);
        parts = elements(rhs, loc);
      }
      for (size_t k = 0; k < targets.size(); k++) {
        Stmt* ptr = global_ptr(targets[k].first, targets[k].second, s->target->loc);
        if (aop) {
          emit_atomic_update(ptr, *aop, parts[k], what, loc);
        } else {
          Stmt* r = value_of(lower_binop(s->op, KVal::of(emit_load(ptr, loc)), KVal::of(parts[k]), loc), loc);
          emit_store(ptr, convert_for_store(r, ptr->type.prim, what, loc), loc);
        }
      }
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

void Lowerer::lower_if(const ast::If* s) {
  if (is_static_call(*this, s->test)) {
    StaticValue v = eval_static(s->test->as<ast::Call>()->args.at(0));
    push_scope();
    lower_body(truthy(v) ? s->body : s->orelse);
    pop_scope();
    return;
  }
  Stmt* cond = as_condition(lower_expr(s->test), s->test->loc);
  auto st = std::make_unique<Stmt>(StmtKind::if_);
  st->ops = {cond};
  Stmt* iff = emit(std::move(st), s->loc);
  push_block(iff);
  push_scope();
  lower_body(s->body);
  pop_scope();
  pop_block();
  if (!s->orelse.empty()) {
    push_block(iff, true);
    push_scope();
    lower_body(s->orelse);
    pop_scope();
    pop_block();
  }
}

void Lowerer::lower_while(const ast::While* s) {
  if (!s->orelse.empty()) raise("SyntaxError", "while-else is not supported in kernels", s->loc);
  auto st = std::make_unique<Stmt>(StmtKind::while_);
  Stmt* loop = emit(std::move(st), s->loc);
  push_block(loop);
  // while c: body  ==>  while true { if !c { break }; body }
  Stmt* c = as_condition(lower_expr(s->test), s->test->loc);
  Stmt* zero = emit_const(ir::Const::of_int(c->type.prim, 0), s->test->loc);
  Stmt* done = emit_binary(BinaryOp::cmp_eq, c, zero, Type::scalar(Prim::i32), s->test->loc);
  auto iff = std::make_unique<Stmt>(StmtKind::if_);
  iff->ops = {done};
  Stmt* exit_if = emit(std::move(iff), s->test->loc);
  push_block(exit_if);
  auto br = std::make_unique<Stmt>(StmtKind::break_);
  br->loop = loop;
  emit(std::move(br), s->test->loc);
  pop_block();
  frame().loops.push_back({loop, false});
  push_scope();
  lower_body(s->body);
  pop_scope();
  frame().loops.pop_back();
  pop_block();
}

void Lowerer::lower_return(const ast::Return* s) {
  Frame& f = frame();
  if (f.is_kernel) {
    if (!s->value) {
      // A bare `return` ends the kernel early; only allowed at the top level.
      if (blocks.size() != 1) raise("SyntaxError", "a bare return is only allowed at the top level of a kernel", s->loc);
      emit(std::make_unique<Stmt>(StmtKind::return_), s->loc);
      return;
    }
    if (kernel.rets.empty())
      raise("SyntaxError", "kernel '" + f.def->name + "' returns a value but has no return type annotation (add e.g. `-> ti.i32`)", s->loc);
    if (++f.returns_seen > 1) raise("SyntaxError", "a kernel may have at most one return statement", s->loc);
    for (auto& l : f.loops)
      if (l.parallel) raise("SyntaxError", "return is not allowed inside the parallel for loop of a kernel", s->loc);
    KVal v = lower_expr(s->value);
    std::vector<KVal> vals;
    if (ret_is_tuple) {
      if (!v.is_tuple() || v.elems.size() != ret_types.size())
        raise("TypeError", "kernel '" + f.def->name + "' is annotated to return a tuple of " +
                               std::to_string(ret_types.size()) + " values", s->loc);
      vals = v.elems;
    } else {
      if (v.is_tuple())
        raise("TypeError", "kernel '" + f.def->name + "' returns a tuple but its annotation is a single type", s->loc);
      vals.push_back(v);
    }
    auto st = std::make_unique<Stmt>(StmtKind::return_);
    for (size_t i = 0; i < vals.size(); i++) flatten(vals[i], ret_types[i], st->ops, s->loc);
    emit(std::move(st), s->loc);
    return;
  }
  // Inside an inlined ti.func.
  if (!f.loops.empty()) raise("SyntaxError", "return inside a loop of a ti.func is not supported yet", s->loc);
  if (s->value) {
    KVal v = lower_expr(s->value);
    if (v.is_struct() || f.ret_struct_type.kind == StaticValue::Kind::struct_type) {
      if (f.ret_loop)
        raise("SyntaxError", "a ti.func that returns a struct must have one return, at its end", s->loc);
      if (f.ret_struct_type.kind == StaticValue::Kind::struct_type)
        v = convert_to(v, f.ret_struct_type, "the return value", s->loc);
      if (!v.is_struct()) raise("TypeError", "ti.func '" + f.def->name + "' must return a struct", s->loc);
      f.ret_struct = struct_local(v, s->loc);
      f.has_ret_struct = true;
      return;
    }
    if (!f.ret_slot) {
      // No annotation: as in Taichi, an inlined func returns its value's type.
      if (f.returns_seen++ && !f.has_ret_annotation)
        raise("SyntaxError", "a ti.func without a return type annotation may return only once", s->loc);
      auto a = std::make_unique<Stmt>(StmtKind::alloca);
      a->type = value_of(v, s->loc)->type;
      a->loc = s->loc;
      f.ret_type = a->type;
      f.ret_slot = f.call_block->insert(f.call_pos, std::move(a));
    }
    Stmt* x = value_of(v, s->loc);
    if (f.ret_type.rows && !x->type.rows) x = broadcast(x, f.ret_type, s->loc);
    if (x->type.rows != f.ret_type.rows || x->type.cols != f.ret_type.cols)
      raise("TypeError", "ti.func '" + f.def->name + "' returns " + shape_phrase(x->type) + " but returns " +
                             shape_phrase(f.ret_type) + " elsewhere or in its annotation", s->loc);
    emit_store(f.ret_slot, convert_for_store(x, f.ret_type.prim, "the return value", s->loc), s->loc);
  } else if (f.has_ret_annotation) {
    raise("SyntaxError", "ti.func '" + f.def->name + "' must return a value", s->loc);
  }
  if (f.ret_loop) {
    auto br = std::make_unique<Stmt>(StmtKind::break_);
    br->loop = f.ret_loop;
    emit(std::move(br), s->loc);
  }
}

void Lowerer::lower_assert(const ast::Assert* s) {
  if (!debug) return;  // asserts are checked only under ti.init(debug=True), as in Taichi
  Stmt* c = as_condition(lower_expr(s->test), s->test->loc);
  auto st = std::make_unique<Stmt>(StmtKind::assert_);
  st->ops = {c};
  if (s->msg) {
    StaticValue m = eval_static(s->msg);
    st->text = m.kind == StaticValue::Kind::string ? m.s : describe_static(m);
  } else {
    st->text = "assert " + ast::unparse(s->test);
  }
  emit(std::move(st), s->loc);
}

void Lowerer::lower_print(const ast::Call* c) {
  std::string sep = " ", end = "\n";
  for (auto* kw : c->keywords) {
    StaticValue v = eval_static(kw->value);
    if (v.kind != StaticValue::Kind::string) raise("TypeError", "print() " + kw->arg + " must be a string", kw->loc);
    if (kw->arg == "sep") sep = v.s;
    else if (kw->arg == "end") end = v.s;
    else raise("TypeError", "print() got an unexpected keyword argument '" + kw->arg + "'", kw->loc);
  }
  auto st = std::make_unique<Stmt>(StmtKind::print);
  auto text = [&](const std::string& t) {
    if (!st->print_parts.empty() && !st->print_parts.back().is_value) st->print_parts.back().text += t;
    else st->print_parts.push_back({false, -1, t});
  };
  auto value = [&](Stmt* v, std::string spec) {
    st->print_parts.push_back({true, (int)st->ops.size(), std::move(spec)});
    st->ops.push_back(v);
  };
  auto one = [&](const ast::Expr* e, const std::string& spec) {
    KVal k = lower_expr(e);
    if (k.is_static() && k.s.kind == StaticValue::Kind::string) return text(k.s.s);
    if (k.is_tuple()) {  // a grouped index prints like a vector: [1, 2]
      text("[");
      for (size_t i = 0; i < k.elems.size(); i++) {
        if (i) text(", ");
        value(value_of(k.elems[i], e->loc), spec);
      }
      return text("]");
    }
    Stmt* v = value_of(k, e->loc);
    if (v->type.rows) {  // vectors print as [a, b], matrices as [[a, b], [c, d]]
      std::vector<Stmt*> el = elements(v, e->loc);
      int cols = v->type.cols;
      text("[");
      for (int i = 0; i < (int)el.size(); i++) {
        if (cols && i % cols == 0) text(i ? ", [" : "[");
        else if (i) text(", ");
        value(el[i], spec);
        if (cols && i % cols == cols - 1) text("]");
      }
      return text("]");
    }
    value(v, spec);
  };
  for (size_t i = 0; i < c->args.size(); i++) {
    if (i) text(sep);
    const ast::Expr* a = c->args[i];
    if (a->kind == ast::ExprKind::JoinedStr) {
      for (auto* part : a->as<ast::JoinedStr>()->values) {
        if (part->kind == ast::ExprKind::Constant) {
          text(part->as<ast::Constant>()->s);
          continue;
        }
        auto* fv = part->as<ast::FormattedValue>();
        std::string spec;
        if (fv->format_spec) {
          StaticValue sv = eval_static(fv->format_spec);
          spec = sv.s;
        }
        one(fv->value, spec);
      }
    } else {
      one(a, "");
    }
  }
  text(end);
  emit(std::move(st), c->loc);
}

}  // namespace kiln::frontend
