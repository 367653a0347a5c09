// Structs in kernels (ti.types.struct, @ti.dataclass). A struct never exists
// in the IR: a struct value is a compile-time aggregate of its members' values
// (KVal::Kind::struct_), a struct local one local per member, a struct field
// one field per member, as in Taichi's own frontend.
#include "vm/frontend/lower.h"

namespace kiln::frontend {

using ir::Stmt;
using ir::StmtKind;

static bool is_struct_type(const StaticValue& t) { return t.kind == StaticValue::Kind::struct_type; }

int Lowerer::member_index(const StaticValue& type, const std::string& name, SourceLoc loc) {
  for (size_t i = 0; i < type.names.size(); i++)
    if (type.names[i] == name) return (int)i;
  std::string all;
  for (auto& n : type.names) all += (all.empty() ? "" : ", ") + n;
  raise("TypeError", describe_static(type) + " has no member '" + name + "' (its members: " + all + ")", loc);
}

Binding* Lowerer::place_binding(const ast::Expr* e) {
  if (e->kind == ast::ExprKind::Name) return find_local(e->as<ast::Name>()->id);
  if (e->kind == ast::ExprKind::Attribute) {
    auto* a = e->as<ast::Attribute>();
    Binding* outer = place_binding(a->value);
    if (!outer || outer->kind != Binding::Kind::struct_) return nullptr;
    return &outer->members[member_index(outer->s, a->attr, e->loc)];
  }
  return nullptr;
}

Binding* Lowerer::struct_member_binding(const ast::Expr* e) {
  Binding* b = place_binding(e);
  return b && b->kind == Binding::Kind::struct_ ? b : nullptr;
}

KVal Lowerer::zero_of(const StaticValue& t, SourceLoc loc) {
  if (is_struct_type(t)) {
    KVal k;
    k.kind = KVal::Kind::struct_;
    k.s = t;
    for (auto& m : t.elems) k.elems.push_back(zero_of(m, loc));
    return k;
  }
  Stmt* z = emit_const(prim_is_float(t.prim) ? ir::Const::of_float(t.prim, 0) : ir::Const::of_int(t.prim, 0), loc);
  return KVal::of(t.rows ? broadcast(z, tensor_type(t.prim, t.rows, t.cols, loc), loc) : z);
}

// `v` as a value of `type`: casts, scalar broadcast into vectors, struct
// members converted one by one. Anything else is a TypeError naming both.
// A tuple or list for a vector or matrix (a struct member: Foo((1, 1, 1)),
// an assignment to a vector local: R = [i + p, j, k]): its elements in
// order, nested lists flattened row by row, each cast to want's dtype.
Stmt* Lowerer::tensor_from_list(const KVal& v, const Type& want, const std::string& what, SourceLoc loc) {
  std::vector<Stmt*> e;
  std::function<void(const KVal&)> flat = [&](const KVal& k) {
    if (k.is_tuple()) {
      for (auto& x : k.elems) flat(x);
    } else if (k.is_static() && k.s.kind == StaticValue::Kind::tuple) {
      for (auto& x : k.s.elems) flat(KVal::of(x));
    } else {
      e.push_back(value_of(k, loc));
    }
  };
  flat(v);
  int n = want.rows * (want.cols ? want.cols : 1);
  if ((int)e.size() != n)
    raise("TypeError", "cannot use " + std::to_string(e.size()) + " values as " + what + ", which is " + shape_phrase(want), loc);
  for (auto& x : e) x = emit_cast(x, want.prim, loc);
  return convert_for_store(make_tensor(e, want.rows, want.cols, loc), want.prim, what, loc);
}

// Struct types with the same members of the same types, in order.
bool same_struct_type(const StaticValue& a, const StaticValue& b) {
  if (a.names != b.names || a.elems.size() != b.elems.size()) return false;
  for (size_t i = 0; i < a.elems.size(); i++) {
    const StaticValue& x = a.elems[i];
    const StaticValue& y = b.elems[i];
    if (is_struct_type(x) || is_struct_type(y)) {
      if (!is_struct_type(x) || !is_struct_type(y) || !same_struct_type(x, y)) return false;
    } else if (x.prim != y.prim || x.rows != y.rows || x.cols != y.cols) {
      return false;
    }
  }
  return true;
}

// "struct(center=vec3 f32, radius=i32)": a struct type by its members.
std::string struct_type_text(const StaticValue& t) {
  std::string out = "struct(";
  for (size_t i = 0; i < t.elems.size(); i++) {
    const StaticValue& m = t.elems[i];
    out += (i ? ", " : "") + (i < t.names.size() ? t.names[i] : std::string("?")) + "=";
    if (is_struct_type(m)) out += struct_type_text(m);
    else if (m.rows && m.cols) out += "mat" + std::to_string(m.rows) + "x" + std::to_string(m.cols) + " " + std::string(prim_name(m.prim));
    else if (m.rows) out += "vec" + std::to_string(m.rows) + " " + std::string(prim_name(m.prim));
    else out += prim_name(m.prim);
  }
  return out + ")";
}

KVal Lowerer::convert_to(const KVal& v, const StaticValue& type, const std::string& what, SourceLoc loc) {
  if (is_struct_type(type)) {
    if (v.is_struct()) {
      if (v.s.names != type.names)
        raise("TypeError", "cannot use " + describe_static(v.s) + " as " + what + " of " + describe_static(type), loc);
      KVal k = v;
      k.s = type;
      for (size_t i = 0; i < type.elems.size(); i++) k.elems[i] = convert_to(v.elems[i], type.elems[i], what, loc);
      return k;
    }
    // A scalar for a struct fills its first member (recursively), the rest are
    // zero, as Taichi does: mystruct(1) with line=line3f(...) first sets line.linedir.
    if (!v.is_tuple() && !(v.is_static() && v.s.kind == StaticValue::Kind::tuple) && !type.elems.empty()) {
      Stmt* x = value_of(v, loc);
      if (!x->type.rows) {
        KVal k;
        k.kind = KVal::Kind::struct_;
        k.s = type;
        k.elems.push_back(convert_to(KVal::of(x), type.elems[0], what, loc));
        for (size_t i = 1; i < type.elems.size(); i++) k.elems.push_back(zero_of(type.elems[i], loc));
        return k;
      }
    }
    raise("TypeError", "cannot use a non-struct value as " + what + " of " + describe_static(type), loc);
  }
  if (v.is_struct()) raise("TypeError", "cannot use " + describe_static(v.s) + " value as " + what, loc);
  Type want = tensor_type(type.prim, type.rows, type.cols, loc);
  if (want.rows && (v.is_tuple() || (v.is_static() && v.s.kind == StaticValue::Kind::tuple)))
    return KVal::of(tensor_from_list(v, want, what, loc));  // Foo((1, 1, 1), mass=2)
  Stmt* x = value_of(v, loc);
  Type t = tensor_type(type.prim, type.rows, type.cols, loc);
  if (t.rows && !x->type.rows) x = broadcast(x, t, loc);
  if (x->type.rows != t.rows || x->type.cols != t.cols)
    raise("TypeError", "cannot use " + shape_phrase(x->type) + " as " + what + ", which is " + shape_phrase(t), loc);
  return KVal::of(convert_for_store(x, t.prim, what, loc));
}

// ti.Struct(a=v, ...) or ti.Struct({'a': v, ...}) in a kernel: a struct value
// whose members take their values' types (ints default_ip, floats default_fp,
// vectors, matrices, structs), as Taichi types an untyped ti.Struct.
KVal Lowerer::struct_literal(const ast::Call* c) {
  std::vector<std::pair<std::string, const ast::Expr*>> members;
  if (c->args.size() == 1 && c->keywords.empty() && c->args[0]->kind == ast::ExprKind::Dict) {
    auto* d = c->args[0]->as<ast::Dict>();
    for (size_t i = 0; i < d->keys.size(); i++) {
      if (!d->keys[i]) raise("TypeError", "ti.Struct({**d}) is not supported in kernels: name the members", d->loc);
      StaticValue k = eval_static(d->keys[i]);
      if (k.kind != StaticValue::Kind::string) raise("TypeError", "ti.Struct's member names must be strings", d->keys[i]->loc);
      members.emplace_back(k.s, d->values[i]);
    }
  } else if (c->args.empty()) {
    for (auto* kw : c->keywords) {
      if (kw->arg.empty()) raise("TypeError", "ti.Struct(**d) is not supported in kernels: name the members", kw->loc);
      members.emplace_back(kw->arg, kw->value);
    }
  } else {
    raise("SyntaxError", "Custom structs need to be initialized using either dictionary or keyword arguments", c->loc);
  }
  KVal k;
  k.kind = KVal::Kind::struct_;
  k.s.kind = StaticValue::Kind::struct_type;
  for (auto& [name, e] : members) {
    for (auto& n : k.s.names)
      if (n == name) raise("SyntaxError", "ti.Struct member '" + name + "' is given twice", e->loc);
    KVal v = lower_expr(e);
    if (v.is_struct()) {
      k.s.elems.push_back(v.s);
      k.elems.push_back(v);
    } else {
      Stmt* x = value_of(v, e->loc);
      StaticValue t = StaticValue::of_dtype(x->type.prim);
      t.rows = x->type.rows;
      t.cols = x->type.cols;
      k.s.elems.push_back(t);
      k.elems.push_back(KVal::of(x));
    }
    k.s.names.push_back(name);
  }
  return k;
}

KVal Lowerer::construct_struct(const StaticValue& type, const ast::Call* c) {
  size_t n = type.names.size();
  std::vector<const ast::Expr*> given(n, nullptr);
  if (c->args.size() > n)
    raise("TypeError", describe_static(type) + " has " + std::to_string(n) + " members, got " +
                           std::to_string(c->args.size()) + " values", c->loc);
  for (size_t i = 0; i < c->args.size(); i++) given[i] = c->args[i];
  for (auto* kw : c->keywords) {
    int i = member_index(type, kw->arg, kw->loc);
    if (given[i]) raise("TypeError", "member '" + kw->arg + "' given twice", kw->loc);
    given[i] = kw->value;
  }
  KVal k;
  k.kind = KVal::Kind::struct_;
  k.s = type;
  for (size_t i = 0; i < n; i++) {
    // Missing members are zero (seed 000).
    k.elems.push_back(given[i] ? convert_to(lower_expr(given[i]), type.elems[i], "member '" + type.names[i] + "'", given[i]->loc)
                               : zero_of(type.elems[i], c->loc));
  }
  return k;
}

Binding Lowerer::struct_local(const KVal& v, SourceLoc loc) {
  Binding b;
  if (v.is_struct()) {
    b.kind = Binding::Kind::struct_;
    b.s = v.s;
    for (auto& m : v.elems) b.members.push_back(struct_local(m, loc));
    return b;
  }
  Stmt* x = value_of(v, loc);
  b.kind = Binding::Kind::local;
  b.stmt = emit_alloca(x->type, loc);
  emit_store(b.stmt, x, loc);
  return b;
}

KVal Lowerer::load_binding(const Binding& b, SourceLoc loc) {
  switch (b.kind) {
    case Binding::Kind::local: return KVal::of(emit_load(b.stmt, loc));
    case Binding::Kind::value: return b.stmt ? KVal::of(b.stmt) : b.tuple;
    case Binding::Kind::static_: return KVal::of(b.s);
    case Binding::Kind::tuple: {
      if (!b.list) return b.tuple;
      KVal k = b.tuple;
      for (size_t i = 0; i < b.members.size(); i++)
        if (b.members[i].kind == Binding::Kind::local) k.elems[i] = KVal::of(emit_load(b.members[i].stmt, loc));
      return k;
    }
    case Binding::Kind::struct_: {
      KVal k;
      k.kind = KVal::Kind::struct_;
      k.s = b.s;
      for (auto& m : b.members) k.elems.push_back(load_binding(m, loc));
      return k;
    }
  }
  return {};
}

void Lowerer::store_binding(Binding& b, const KVal& v, const std::string& what, SourceLoc loc) {
  if (b.kind == Binding::Kind::struct_) {
    KVal cv = convert_to(v, b.s, what, loc);
    for (size_t i = 0; i < b.members.size(); i++) store_binding(b.members[i], cv.elems[i], what + "." + b.s.names[i], loc);
    return;
  }
  if (b.kind != Binding::Kind::local) raise("SyntaxError", "cannot assign to " + what, loc);
  Stmt* x = value_of(v, loc);
  const Type& lt = b.stmt->type;
  if (lt.rows && !x->type.rows) x = broadcast(x, lt, loc);
  if (x->type.rows != lt.rows || x->type.cols != lt.cols)
    raise("TypeError", "cannot assign " + shape_phrase(x->type) + " to " + what + ", which is " + shape_phrase(lt), loc);
  emit_store(b.stmt, convert_for_store(x, lt.prim, what, loc), loc);
}

KVal Lowerer::struct_member(const KVal& sv, const std::string& name, SourceLoc loc) {
  return sv.elems.at(member_index(sv.s, name, loc));
}

static StaticValue member_type_of(const StaticValue& f) {
  // A struct field's member field -> the member's type.
  if (f.kind == StaticValue::Kind::field) return StaticValue::of_dtype(f.field->dtype);
  if (f.kind == StaticValue::Kind::matrix_field) {
    StaticValue t = StaticValue::of_dtype(f.fields.at(0)->dtype);
    t.rows = f.rows;
    t.cols = f.cols;
    return t;
  }
  return f.ctype ? *f.ctype : StaticValue{};
}

KVal Lowerer::load_struct_field(const StaticValue& sf, const KVal& index, SourceLoc loc) {
  KVal k;
  k.kind = KVal::Kind::struct_;
  if (sf.ctype) k.s = *sf.ctype;
  else {  // no declared type: describe it from the member fields
    k.s.kind = StaticValue::Kind::struct_type;
    k.s.names = sf.names;
    for (auto& m : sf.elems) k.s.elems.push_back(member_type_of(m));
  }
  for (auto& m : sf.elems) {
    switch (m.kind) {
      case StaticValue::Kind::field: k.elems.push_back(KVal::of(emit_load(global_ptr_at(m, index, loc), loc))); break;
      case StaticValue::Kind::matrix_field: {
        std::vector<Stmt*> e;
        for (size_t i = 0; i < m.fields.size(); i++) e.push_back(emit_load(global_ptr_at(component_field(m, (int)i), index, loc), loc));
        k.elems.push_back(KVal::of(make_tensor(e, m.rows, m.cols, loc)));
        break;
      }
      case StaticValue::Kind::struct_field: k.elems.push_back(load_struct_field(m, index, loc)); break;
      default: raise("TypeError", "a struct field member is not a field", loc);
    }
  }
  return k;
}

void Lowerer::store_struct_field(const StaticValue& sf, const KVal& index, const KVal& v, SourceLoc loc) {
  if (!v.is_struct() || v.s.names != sf.names)
    raise("TypeError", "cannot store this value into an element of " + describe_static(sf) + " (it needs a struct with members " +
                           std::to_string(sf.names.size()) + ")", loc);
  for (size_t i = 0; i < sf.elems.size(); i++) {
    const StaticValue& m = sf.elems[i];
    std::string what = "member '" + sf.names[i] + "' of " + describe_static(sf);
    KVal mv = convert_to(v.elems[i], member_type_of(m), what, loc);
    switch (m.kind) {
      case StaticValue::Kind::field: emit_store(global_ptr_at(m, index, loc), value_of(mv, loc), loc); break;
      case StaticValue::Kind::matrix_field: {
        std::vector<Stmt*> e = elements(value_of(mv, loc), loc);
        for (size_t k = 0; k < e.size(); k++) emit_store(global_ptr_at(component_field(m, (int)k), index, loc), e[k], loc);
        break;
      }
      case StaticValue::Kind::struct_field: store_struct_field(m, index, mv, loc); break;
      default: break;
    }
  }
}

int Lowerer::slot_count(const StaticValue& t) {
  if (is_struct_type(t)) {
    int n = 0;
    for (auto& m : t.elems) n += slot_count(m);
    return n;
  }
  return t.rows ? t.rows * (t.cols ? t.cols : 1) : 1;
}

void Lowerer::flatten(const KVal& v, const StaticValue& t, std::vector<Stmt*>& out, SourceLoc loc) {
  KVal cv = convert_to(v, t, "the return value", loc);
  if (cv.is_struct()) {
    for (size_t i = 0; i < t.elems.size(); i++) flatten(cv.elems[i], t.elems[i], out, loc);
    return;
  }
  Stmt* x = value_of(cv, loc);
  if (x->type.rows)
    for (Stmt* e : elements(x, loc)) out.push_back(e);
  else
    out.push_back(x);
}

KVal Lowerer::from_slots(const StaticValue& t, const std::vector<Stmt*>& slots, size_t& pos, SourceLoc loc) {
  if (is_struct_type(t)) {
    KVal k;
    k.kind = KVal::Kind::struct_;
    k.s = t;
    for (auto& m : t.elems) k.elems.push_back(from_slots(m, slots, pos, loc));
    return k;
  }
  if (!t.rows) return KVal::of(slots.at(pos++));
  int n = t.rows * (t.cols ? t.cols : 1);
  std::vector<Stmt*> e(slots.begin() + (long)pos, slots.begin() + (long)pos + n);
  pos += n;
  return KVal::of(make_tensor(e, t.rows, t.cols, loc));
}

}  // namespace kiln::frontend
