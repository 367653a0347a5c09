// Emitting IR statements and converting between KVal forms.
#include <cmath>
#include <limits>

#include "vm/frontend/lower.h"

namespace kiln::frontend {

using ir::Stmt;
using ir::StmtKind;

Stmt* Lowerer::emit(std::unique_ptr<Stmt> s, SourceLoc loc) {
  s->loc = loc;
  s->frame = cur_frame;
  if (!known_locals.empty() && s->kind != StmtKind::local_load)
    for (Stmt* op : s->ops)
      if (op->kind == StmtKind::alloca) known_locals.erase(op);
  return blocks.back()->add(std::move(s));
}

// A constant already made in the current block is used again (its
// definition precedes every later statement of the block and whatever nests
// in them): a ti.static-unrolled body names the same few constants thousands
// of times, and each one was a statement for every pass to carry (issue 16).
// Only the current block's: a constant from an enclosing block would be a
// value live across the loops in between.
Stmt* Lowerer::emit_const(ir::Const c, SourceLoc loc) {
  auto [it, fresh] = const_memo.try_emplace(ConstKey{blocks.back(), c.prim, c.u}, nullptr);
  if (!fresh) return it->second;
  auto s = std::make_unique<Stmt>(StmtKind::const_);
  s->type = Type::scalar(c.prim);
  s->value = c;
  return it->second = emit(std::move(s), loc);
}

Stmt* Lowerer::emit_unary(ir::UnaryOp op, Stmt* v, Type t, SourceLoc loc) {
  auto s = std::make_unique<Stmt>(StmtKind::unary);
  s->uop = op;
  s->type = t;
  s->ops = {v};
  return emit(std::move(s), loc);
}

Stmt* Lowerer::emit_cast(Stmt* v, Prim to, SourceLoc loc) {
  if (v->type.prim == to) return v;
  return emit_unary(ir::UnaryOp::cast_value, v, shaped(v, to), loc);  // element-wise on tensors
}

Stmt* Lowerer::emit_binary(ir::BinaryOp op, Stmt* a, Stmt* b, Type t, SourceLoc loc) {
  auto s = std::make_unique<Stmt>(StmtKind::binary);
  s->bop = op;
  s->type = t;
  s->ops = {a, b};
  return emit(std::move(s), loc);
}

Stmt* Lowerer::emit_alloca(Type t, SourceLoc loc) {
  auto s = std::make_unique<Stmt>(StmtKind::alloca);
  s->type = t;
  return emit(std::move(s), loc);
}

// Whether code in `b` may run more than once per run of its enclosing
// block: any block but an if's branches (a loop body; a pushed function root).
static bool repeats(const ir::Block* b) { return !b->owner || b->owner->kind != StmtKind::if_; }

Stmt* Lowerer::forwarded(const Stmt* local) const {
  auto it = known_locals.find(local);
  if (it == known_locals.end()) return nullptr;
  const KnownLocal& k = it->second;
  if (k.depth >= blocks.size() || blocks[k.depth] != k.block) return nullptr;  // its block closed
  for (size_t d = k.depth + 1; d < blocks.size(); d++)
    if (repeats(blocks[d])) return nullptr;  // a loop opened since
  return k.value;
}

Stmt* Lowerer::emit_load(Stmt* p, SourceLoc loc) {
  if (is_quant_ptr(p)) return quant_load(p, loc);
  bool local = p->kind == StmtKind::alloca;
  if (local)
    if (Stmt* v = forwarded(p)) return v;
  auto s = std::make_unique<Stmt>(local ? StmtKind::local_load : StmtKind::global_load);
  s->type = p->type;
  s->type.is_ptr = false;
  s->ops = {p};
  return emit(std::move(s), loc);
}

void Lowerer::emit_store(Stmt* p, Stmt* v, SourceLoc loc) {
  if (is_quant_ptr(p)) return quant_store(p, v, loc);
  bool local = p->kind == StmtKind::alloca;
  auto s = std::make_unique<Stmt>(local ? StmtKind::local_store : StmtKind::global_store);
  s->ops = {p, v};
  emit(std::move(s), loc);
  if (local) {
    Type t = p->type;
    t.is_ptr = false;
    if (v->type == t) known_locals[p] = KnownLocal{blocks.back(), blocks.size() - 1, v};
  }
}

ir::Block* Lowerer::push_block(Stmt* owner, bool else_branch) {
  auto& slot = else_branch ? owner->else_body : owner->body;
  if (!slot) {
    slot = std::make_unique<ir::Block>();
    slot->owner = owner;
  }
  blocks.push_back(slot.get());
  return slot.get();
}

// Closing a loop forgets every known local: a value from before the loop
// used after it would cross the tasks that offload makes of a top-level loop.
void Lowerer::pop_block() {
  if (repeats(blocks.back())) known_locals.clear();
  blocks.pop_back();
}

// One warning per message and place: a vector store warns once, not per element.
void Lowerer::warn(const std::string& msg, SourceLoc loc) {
  std::string w = format_warning(msg, loc);
  for (auto& seen : warnings)
    if (seen == w) return;
  warnings.push_back(std::move(w));
}

static bool fits(__int128 v, Prim p) {
  switch (p) {
    case Prim::i64: return v == (__int128)(int64_t)v;
    case Prim::u64: return v >= 0 && v == (__int128)(uint64_t)v;
    case Prim::i8: return v >= INT8_MIN && v <= INT8_MAX;
    case Prim::i16: return v >= INT16_MIN && v <= INT16_MAX;
    case Prim::i32: return v >= INT32_MIN && v <= INT32_MAX;
    case Prim::u8: return v >= 0 && v <= UINT8_MAX;
    case Prim::u16: return v >= 0 && v <= UINT16_MAX;
    case Prim::u32: return v >= 0 && v <= (int64_t)UINT32_MAX;
    default: return true;
  }
}

// A Python int or float literal as a typed IR constant of `p`.
static ir::Const make_const(const StaticValue& s, Prim p, SourceLoc loc) {
  if (prim_is_float(p)) {
    double d = s.kind == StaticValue::Kind::floating ? s.f : (double)s.big();
    if (p == Prim::f32) d = (double)(float)d;
    return ir::Const::of_float(p, d);
  }
  if (s.kind == StaticValue::Kind::floating) {
    if (!std::isfinite(s.f)) raise("TypeError", "cannot convert the float literal to an integer type", loc);
    return ir::Const::of_int(p, (int64_t)s.f);
  }
  __int128 v = s.kind == StaticValue::Kind::boolean ? (__int128)s.b : s.big();
  if (!fits(v, p))
    raise("OverflowError", "the literal " + big_text(v) + " is out of range for " + std::string(prim_name(p)), loc);
  return ir::Const::of_int(p, (int64_t)v);  // a u64 above 2**63 keeps its bits
}

Prim Lowerer::prim_of(const KVal& k, SourceLoc loc) {
  if (k.is_value()) return k.v->type.prim;
  if (k.is_static()) {
    switch (k.s.kind) {
      case StaticValue::Kind::integer:
      case StaticValue::Kind::boolean: return types.default_ip;
      case StaticValue::Kind::floating: return types.default_fp;
      case StaticValue::Kind::matrix: {  // a host vector/matrix constant
        Prim p = Prim::none;
        for (auto& e : k.s.elems) {
          Prim q = prim_of(KVal::of(e), loc);
          p = p == Prim::none ? q : promote(p, q);
        }
        return p == Prim::none ? types.default_fp : p;
      }
      default: break;
    }
    raise("TypeError", describe_static(k.s) + " cannot be used as a value in a kernel", loc);
  }
  if (k.is_tuple()) raise("TypeError", "a tuple of " + std::to_string(k.elems.size()) + " values cannot be used as a scalar here", loc);
  if (k.is_struct()) raise("TypeError", describe_static(k.s) + " value cannot be used as a number here", loc);
  raise("TypeError", "this expression has no value", loc);
}

Stmt* Lowerer::value_of(const KVal& k, SourceLoc loc) {
  if (k.is_value()) {
    // (the only pointer a kernel names is a ti.simt.block.SharedArray)
    if (k.v->type.is_ptr) raise("TypeError", "a shared array is not a value: index it (a[i])", loc);
    return k.v;
  }
  Prim p = prim_of(k, loc);
  if (k.is_static() && k.s.kind == StaticValue::Kind::matrix) {
    std::vector<Stmt*> elems;
    for (auto& e : k.s.elems) elems.push_back(emit_const(make_const(e, p, loc), loc));
    return make_tensor(elems, k.s.rows, k.s.cols, loc);
  }
  return emit_const(make_const(k.s, p, loc), loc);
}

StaticValue Lowerer::static_of(const KVal& k, const char* what, SourceLoc loc) {
  if (k.is_static()) return k.s;
  if (k.is_tuple()) {
    StaticValue t;
    t.kind = StaticValue::Kind::tuple;
    for (auto& e : k.elems) t.elems.push_back(static_of(e, what, loc));
    return t;
  }
  raise("TypeError", std::string(what) + " must be a compile-time constant (wrap it in ti.static?)", loc);
}

Stmt* Lowerer::as_condition(const KVal& k, SourceLoc loc) {
  Stmt* v = value_of(k, loc);
  if (prim_is_float(v->type.prim))
    raise("TypeError",
          "the condition has type " + std::string(prim_name(v->type.prim)) +
              "; conditions must be integers (compare it, e.g. `x != 0`)",
          loc);
  if (!v->type.is_scalar()) raise("TypeError", "the condition must be a scalar", loc);
  return v;
}

Stmt* Lowerer::convert_for_store(Stmt* v, Prim to, const std::string& target, SourceLoc loc) {
  Prim from = v->type.prim;
  if (from == to) return v;
  // Constants that fit exactly need no warning (`a = 1.0; a = 1` is fine).
  bool exact_const = v->kind == StmtKind::const_ &&
                     (prim_is_float(from) ? (prim_is_float(to) || v->value.f == std::trunc(v->value.f))
                                          : true);
  if (!exact_const && cast_loses_precision(from, to))
    warn("assigning " + a_value(from) + " to " + target + " of type " +
             std::string(prim_name(to)) + " may lose precision",
         loc);
  return emit_cast(v, to, loc);
}

// Types whose name starts with a vowel sound ("i32", "f32") take "an".
std::string a_value(Prim p) {
  std::string n(prim_name(p));
  return (n[0] == 'i' || n[0] == 'f' ? "an " : "a ") + n + " value";
}

std::string shape_phrase(const Type& t) {
  if (!t.rows) return a_value(t.prim);
  std::string p(prim_name(t.prim));
  return t.cols ? "a " + std::to_string(t.rows) + "x" + std::to_string(t.cols) + " matrix of " + p
                : "a " + std::to_string(t.rows) + "-vector of " + p;
}

std::string describe_static(const StaticValue& v) {
  using K = StaticValue::Kind;
  switch (v.kind) {
    case K::none: return "None";
    case K::boolean: return v.b ? "True" : "False";
    case K::integer: return "the int " + std::to_string(v.i);
    case K::floating: return "a float";
    case K::string: return "the string '" + v.s + "'";
    case K::tuple: return "a tuple of " + std::to_string(v.elems.size());
    case K::dtype: return "the type " + std::string(prim_name(v.prim));
    case K::field: return v.field ? "the " + v.field->describe() : "a field";
    case K::func: return "the ti.func '" + (v.def ? v.def->name : std::string("?")) + "'";
    case K::kernel: return "the kernel '" + (v.def ? v.def->name : std::string("?")) + "'";
    case K::builtin: return "the function '" + v.s + "'";
    case K::module: return "the module '" + v.s + "'";
    case K::object: return "a " + (v.s.empty() ? std::string("Python object") : v.s + " object");
    case K::matrix: return v.cols ? "a matrix constant" : "a vector constant";
    case K::matrix_field:
      return std::string(v.cols ? "the matrix field" : "the vector field") + (v.s.empty() ? "" : " '" + v.s + "'");
    case K::struct_type: return "the struct type" + (v.s.empty() ? std::string() : " '" + v.s + "'");
    case K::struct_value: return "a struct constant";
    case K::struct_field: return "the struct field" + (v.s.empty() ? std::string() : " '" + v.s + "'");
    case K::snode: return v.snode ? "the SNode " + v.snode->name() : "an SNode";
    case K::sparse_builder: return "the sparse matrix builder '" + v.s + "'";
  }
  return "?";
}

}  // namespace kiln::frontend
