// ndarray kernel arguments (seed 003). An ndarray parameter is bound to a
// field-like static whose FieldInfo says where its data is (a kernel
// argument, ir::Access::ext_arg), so indexing, stores, atomics and
// struct-fors share the field paths; only what depends on the shape, which is
// known at launch, reads the shape arguments here.
#include "vm/frontend/lower.h"

namespace kiln::frontend {

using ir::Stmt;
using ir::StmtKind;

const FieldInfo* Lowerer::ndarray_of(const StaticValue& v) {
  if (v.kind == StaticValue::Kind::field && v.field && v.field->ndarray_arg >= 0) return v.field;
  if (v.kind == StaticValue::Kind::matrix_field && !v.fields.empty() && v.fields[0]->ndarray_arg >= 0) return v.fields[0];
  return nullptr;
}

std::vector<KVal> Lowerer::ndarray_shape(const FieldInfo& nd, SourceLoc loc) {
  std::vector<KVal> out;
  for (size_t d = 0; d < nd.shape.size(); d++) {
    auto s = std::make_unique<Stmt>(StmtKind::arg_load);
    s->index = nd.ndarray_arg + 1 + (int)d;
    s->type = Type::scalar(Prim::i32);
    out.push_back(KVal::of(emit(std::move(s), loc)));
  }
  return out;
}

KVal Lowerer::ndarray_attr(const FieldInfo& nd, const StaticValue& v, const std::string& name, SourceLoc loc) {
  if (name == "shape") {
    KVal t;
    t.kind = KVal::Kind::tuple;
    t.elems = ndarray_shape(nd, loc);
    return t;
  }
  if (name == "dtype") return KVal::of(StaticValue::of_dtype(nd.dtype));
  if (name == "grad" || name == "dual") {
    // the array's companion, passed beside it when the argument has one
    auto it = ndarray_companion.find(nd.ndarray_arg);
    if (it == ndarray_companion.end() || it->second.second != nd.name + "." + name)
      raise("AttributeError", nd.describe() + " has no " + name + " here (create it with needs_grad=True)", loc);
    StaticValue c = v;
    std::vector<FieldInfo*> comps = v.kind == StaticValue::Kind::field ? std::vector<FieldInfo*>{v.field} : v.fields;
    std::vector<FieldInfo*> out;
    for (FieldInfo* f : comps) {
      FieldInfo& g = ndarrays.emplace_back(*f);
      g.name = it->second.second;
      g.ndarray_arg = it->second.first;
      out.push_back(&g);
    }
    if (v.kind == StaticValue::Kind::field) c.field = out[0];
    else c.fields = out;
    return KVal::of(c);
  }
  if (v.kind == StaticValue::Kind::matrix_field && (name == "n" || name == "m"))
    return KVal::of(StaticValue::of_int(name == "n" ? v.rows : std::max(1, v.cols)));
  raise("AttributeError", nd.describe() + " has no attribute '" + name + "' in a kernel (it has shape, dtype and element_shape())", loc);
}

// Taichi's AnyArray.element_shape(): the element's shape as a list, [] for a
// scalar array, [n] for a vector, [n, m] for a matrix; known when the kernel
// is compiled, so `ti.static(a.element_shape() == [2])` picks a branch.
std::optional<StaticValue> Lowerer::ndarray_method(const ast::Call* c) {
  if (c->func->kind != ast::ExprKind::Attribute) return std::nullopt;
  auto* a = c->func->as<ast::Attribute>();
  if (a->attr != "element_shape") return std::nullopt;
  StaticValue base;
  try {
    base = eval_static(a->value);
  } catch (const Error&) {
    return std::nullopt;  // not a compile-time value: not an ndarray argument
  }
  if (!ndarray_of(base)) return std::nullopt;
  if (!c->args.empty() || !c->keywords.empty())
    raise("TypeError", "element_shape() takes no arguments", c->loc);
  StaticValue t;
  t.kind = StaticValue::Kind::tuple;
  if (base.kind == StaticValue::Kind::matrix_field) {
    t.elems.push_back(StaticValue::of_int(base.rows));
    if (base.cols) t.elems.push_back(StaticValue::of_int(base.cols));
  }
  return t;
}

}  // namespace kiln::frontend
