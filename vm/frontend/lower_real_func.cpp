// ti.real_func: a function compiled once and called at run time, with its
// own frame, so that it may recurse (Taichi's "real function").
//
// Each (function, compile-time arguments) pair is an instance: an ir::Kernel
// of its own in the top-level kernel's `funcs`, lowered by a Lowerer of its
// own the first time a call needs it. Its run-time parameters are argument
// slots (scalars; vectors, matrices and structs flattened as kernel arguments
// are), its results return slots. A call is a `call` statement whose operands
// are the argument values, followed by one `call_ret` per returned slot.
// A ti.ref(T) parameter passes the caller's local by copy-in/copy-out: its
// value goes in as an argument and comes back after the declared results, and
// the caller stores it back into the local. Recursion needs no special case:
// an instance is registered before its body is lowered, so a call to itself
// finds it; the return type comes from the annotation, which is required.
#include "vm/frontend/lower.h"

namespace kiln::frontend {

using ir::Stmt;
using ir::StmtKind;
using K = StaticValue::Kind;

namespace {

// What a parameter of a real function is.
struct Param {
  enum class Kind : uint8_t { value, template_, ref, ndarray } kind = Kind::value;
  StaticValue type;  // value/ref: a dtype (scalar, vector, matrix) or struct_type
  ArgSpec array;     // ndarray: the argument's element type and dimensions
};

// `ti.types.ndarray(...)` (any spelling ending in `.ndarray(...)`): the
// parameter takes the argument's element type and dimensions.
bool is_ndarray_annotation(const ast::Expr* a) {
  if (!a || a->kind != ast::ExprKind::Call) return false;
  const ast::Expr* f = a->as<ast::Call>()->func;
  return f->kind == ast::ExprKind::Attribute && f->as<ast::Attribute>()->attr == "ndarray";
}

std::string where(const ast::FunctionDef* def) { return "ti.real_func '" + def->name + "'"; }

// Whether instance `i` of `owner` draws random numbers, itself or in a call
// (an instance not lowered yet, one being lowered, counts as drawing).
bool draws(const ir::Kernel& owner, int i, std::vector<char>& seen) {
  if (i < 0 || (size_t)i >= owner.funcs.size() || !owner.funcs[(size_t)i]) return true;
  // seen: 0 not yet, 1 being looked at (a call back into it adds no draw of
  // its own), 2 draws nothing, 3 draws.
  if (seen[(size_t)i]) return seen[(size_t)i] == 3;
  seen[(size_t)i] = 1;
  bool any = false;
  ir::walk(const_cast<ir::Block&>(owner.funcs[(size_t)i]->root), [&](Stmt* s) {
    any = any || s->kind == StmtKind::random || (s->kind == StmtKind::call && draws(owner, s->index, seen));
  });
  seen[(size_t)i] = any ? 3 : 2;
  return any;
}

Param classify(Lowerer& L, const ast::FunctionDef* def, size_t i, bool is_self) {
  const ast::Arg* p = def->args.args[i];
  Param out;
  if (is_self) {
    out.kind = Param::Kind::template_;
    return out;
  }
  if (!p->annotation)
    raise("SyntaxError", "parameter '" + p->name + "' of " + where(def) + " must be type annotated (e.g. `" + p->name +
                             ": ti.i32`, or `ti.template()` for a compile-time argument)", p->loc);
  if (is_ndarray_annotation(p->annotation)) {
    out.kind = Param::Kind::ndarray;
    return out;
  }
  StaticValue ann = L.eval_static(p->annotation);
  if (ann.kind == K::builtin && ann.s == "bool") ann = StaticValue::of_dtype(Prim::i32);
  if (ann.kind == K::builtin && ann.s == "ti.template") {
    out.kind = Param::Kind::template_;
  } else if (ann.kind == K::builtin && ann.s == "ti.ref" && ann.elems.size() == 1 && ann.elems[0].kind == K::dtype) {
    out.kind = Param::Kind::ref;
    out.type = ann.elems[0];
  } else if (ann.kind == K::dtype || ann.kind == K::struct_type) {
    out.type = ann;
  } else {
    raise("TypeError", "parameter '" + p->name + "' of " + where(def) + " has an unsupported annotation " +
                           describe_static(ann) + " (use a scalar, vector, matrix or struct type, ti.ref(T) or ti.template())",
          p->annotation->loc);
  }
  return out;
}

// The declared result: nothing, one value, or a tuple of values.
void return_types(Lowerer& L, const ast::FunctionDef* def, std::vector<StaticValue>& types, bool& is_tuple) {
  if (!def->returns) return;
  StaticValue rt = L.eval_static(def->returns);
  if (rt.kind == K::tuple) {
    is_tuple = true;
    types = rt.elems;
  } else if (rt.kind != K::none) {
    types.push_back(rt);
  }
  for (auto& t : types) {
    if (t.kind == K::builtin && t.s == "bool") t = StaticValue::of_dtype(Prim::i32);  // a truth value, as comparisons give
    if (t.kind != K::dtype && t.kind != K::struct_type)
      raise("TypeError", where(def) + " has an unsupported return type annotation: " + describe_static(t) +
                             " (use a type such as ti.i32, a vector/matrix/struct type, or a tuple of them)",
            def->returns->loc);
  }
}

// Lowers the body of a new instance into its own ir::Kernel.
void lower_instance(Lowerer& caller, const StaticValue& fn, const std::vector<Param>& params,
                    const std::vector<StaticValue>& templates, ir::Kernel& fk) {
  const ast::FunctionDef* def = fn.def;
  Lowerer L(caller.host, caller.prog, fk);
  L.types = caller.types;
  L.debug = caller.debug;
  L.real_funcs = caller.real_funcs;
  L.real_func = true;
  L.blocks.push_back(&fk.root);
  Frame fr;
  fr.def = def;
  fr.env = fn.handle;
  fr.scopes.emplace_back();
  L.frames.push_back(std::move(fr));
  return_types(L, def, L.ret_types, L.ret_is_tuple);
  std::vector<Prim> prims;
  for (auto& t : L.ret_types) slot_prims(t, prims);
  for (Prim p : prims) fk.rets.push_back(Type::scalar(p));

  size_t t = 0;
  for (size_t i = 0; i < params.size(); i++) {
    const ast::Arg* p = def->args.args[i];
    if (params[i].kind == Param::Kind::template_) {
      Binding b;
      b.kind = Binding::Kind::static_;
      b.s = templates[t++];
      L.bind(p->name, std::move(b));
      continue;
    }
    if (params[i].kind == Param::Kind::ndarray) {  // its pointer and shape are arguments
      t++;  // its key among the compile-time arguments
      ArgSpec a = params[i].array;
      a.name = p->name;
      L.bind(p->name, bind_param(L, fk, a, p->loc));
      continue;
    }
    ArgSpec a;
    a.name = p->name;
    a.kind = ArgSpec::Kind::compound;
    a.type = params[i].type;
    // Parameters are the function's own variables: assignable, as in Python.
    Binding arg = bind_param(L, fk, a, p->loc);
    Binding local = L.struct_local(L.load_binding(arg, p->loc), p->loc);
    if (params[i].kind == Param::Kind::ref) L.ref_params.push_back(local);
    L.bind(p->name, local);
  }
  // Every return hands the ti.ref parameters back after the declared results.
  for (size_t i = 0; i < params.size(); i++)
    if (params[i].kind == Param::Kind::ref) {
      std::vector<Prim> ref_prims;
      slot_prims(params[i].type, ref_prims);
      for (Prim p : ref_prims) fk.rets.push_back(Type::scalar(p));
    }
  L.lower_body(def->body);
  if (L.frame().ended) return;
  if (!L.ret_types.empty() && L.frame().returns_seen == 0)
    raise("SyntaxError", where(def) + " has a return type annotation but no return statement", def->loc);
  // Falling off the end: the declared results are zero (Taichi leaves them undefined).
  std::vector<Stmt*> ops;
  for (auto& rt : L.ret_types) L.flatten(L.zero_of(rt, def->loc), rt, ops, def->loc);
  L.emit_real_return(std::move(ops), def->loc);
}

}  // namespace

void Lowerer::emit_real_return(std::vector<Stmt*> ops, SourceLoc loc) {
  for (auto& b : ref_params) scalar_parts(load_binding(b, loc), ops, loc);
  auto st = std::make_unique<Stmt>(StmtKind::return_);
  st->ops = std::move(ops);
  emit(std::move(st), loc);
}

KVal Lowerer::call_real_func(const StaticValue& fn, const ast::Call* c, const KVal* self) {
  const ast::FunctionDef* def = fn.def;
  size_t np = def->args.args.size();
  size_t first = self ? 1 : 0;
  std::vector<const ast::Expr*> exprs = call_args(def, c, first, "ti.real_func");
  size_t first_default = np - def->args.defaults.size();

  // Annotations name things in the function's own scope.
  std::vector<Param> params;
  std::vector<StaticValue> rtypes;
  bool is_tuple = false;
  Frame fr;
  fr.def = def;
  fr.env = fn.handle;
  fr.scopes.emplace_back();
  frames.push_back(std::move(fr));
  for (size_t i = 0; i < np; i++) params.push_back(classify(*this, def, i, i == 0 && self));
  return_types(*this, def, rtypes, is_tuple);
  frames.pop_back();

  std::vector<StaticValue> templates;
  std::vector<Stmt*> args;
  std::vector<Binding*> refs;  // the caller's locals that ti.ref parameters write back
  for (size_t i = 0; i < np; i++) {
    Param& p = params[i];
    const ast::Arg* pa = def->args.args[i];
    if (i == 0 && self) {
      if (!self->is_static()) raise("TypeError", where(def) + " is a method of a struct; real functions are methods of ti.data_oriented classes only", c->loc);
      templates.push_back(self->s);
      continue;
    }
    SourceLoc at = exprs[i] ? exprs[i]->loc : c->loc;
    KVal v;
    if (exprs[i]) v = p.kind == Param::Kind::ref ? KVal() : lower_expr(exprs[i]);
    else if (i >= first_default) v = KVal::of(eval_static(def->args.defaults[i - first_default]));
    else raise("TypeError", def->name + "() missing required argument '" + pa->name + "'", c->loc);
    switch (p.kind) {
      case Param::Kind::ndarray: {
        const FieldInfo* nd = v.is_static() ? ndarray_of(v.s) : nullptr;
        if (!nd)
          raise("TypeError", "parameter '" + pa->name + "' of " + where(def) +
                                 " is a ti.types.ndarray(): its argument must be an ndarray", at);
        p.array.kind = ArgSpec::Kind::ndarray;
        p.array.prim = nd->dtype;
        p.array.ndim = (int)nd->shape.size();
        p.array.rows = v.s.kind == K::matrix_field ? v.s.rows : 0;
        p.array.cols = v.s.kind == K::matrix_field ? v.s.cols : 0;
        // One instance per element type and dimensions.
        StaticValue key;
        key.kind = K::tuple;
        for (int x : {(int)p.array.prim, p.array.ndim, p.array.rows, p.array.cols}) key.elems.push_back(StaticValue::of_int(x));
        templates.push_back(key);
        for (int d = 0; d <= p.array.ndim; d++) {  // the data pointer, then the shape
          auto a = std::make_unique<Stmt>(StmtKind::arg_load);
          a->index = nd->ndarray_arg + d;
          a->type = Type::scalar(d == 0 ? Prim::u64 : Prim::i32);
          args.push_back(emit(std::move(a), at));
        }
        break;
      }
      case Param::Kind::template_:
        if (!v.is_static())
          raise("TypeError", "parameter '" + pa->name + "' of " + where(def) +
                                 " is a ti.template(): its argument must be known at compile time (a field, a number, ...)", at);
        templates.push_back(v.s);
        break;
      case Param::Kind::ref: {
        Binding* b = exprs[i] ? place_binding(exprs[i]) : nullptr;
        if (!b || b->kind != Binding::Kind::local)
          raise("TypeError", "parameter '" + pa->name + "' of " + where(def) +
                                 " is a ti.ref(): its argument must be a local variable of the caller", at);
        refs.push_back(b);
        v = load_binding(*b, at);
        [[fallthrough]];
      }
      case Param::Kind::value: flatten(convert_to(v, p.type, "parameter '" + pa->name + "'", at), p.type, args, at); break;
    }
  }

  // The instance for these compile-time arguments; a new one is lowered now.
  RealFuncs& rf = *real_funcs;
  if (!rf.owner) rf.owner = &kernel;
  int index = -1;
  for (auto& inst : rf.list) {
    if (inst.def != def || inst.templates.size() != templates.size()) continue;
    bool same = true;
    for (size_t k = 0; k < templates.size() && same; k++) same = static_equal(inst.templates[k], templates[k]);
    if (same) index = inst.index;
  }
  if (index < 0) {
    if (rf.list.size() >= 1000)
      raise("RecursionError", where(def) + ": more than 1000 instances in one kernel (a ti.template() argument that "
                                           "changes at every recursive call never ends)", c->loc);
    index = (int)rf.owner->funcs.size();
    rf.owner->funcs.push_back(std::make_unique<ir::Kernel>());
    ir::Kernel& fk = *rf.owner->funcs.back();
    fk.name = def->name;
    fk.loc = def->loc;
    fk.frames[0].func = def->name;
    rf.list.push_back(RealFunc{def, templates, index});
    lower_instance(*this, fn, params, templates, fk);
  }
  const ir::Kernel& fk = *rf.owner->funcs[(size_t)index];
  if (args.size() != fk.args.size())
    raise("InternalError", where(def) + ": " + std::to_string(args.size()) + " argument slots for " +
                               std::to_string(fk.args.size()), c->loc);
  for (size_t k = 0; k < args.size(); k++) args[k] = emit_cast(args[k], fk.args[k].type.prim, c->loc);

  // In a parallel loop, a call whose callee draws first steps this
  // iteration's stream (a draw, as the loop's own ti.random would make), so
  // that the key the call takes from the stream depends on the iteration, not
  // on the iterations the same thread ran before it: a GPU thread or a CPU
  // chunk starts a stream of its own, and every one's first call would draw
  // the same numbers.
  std::vector<char> seen(rf.owner->funcs.size(), 0);
  if (rng_index && draws(*rf.owner, index, seen)) {
    auto step = std::make_unique<Stmt>(StmtKind::random);
    step->type = Type::scalar(Prim::u64);
    step->ops = {rng_index};
    emit(std::move(step), c->loc);
  }
  auto call = std::make_unique<Stmt>(StmtKind::call);
  call->ops = args;
  call->index = index;
  call->rare_mut().text = def->name;
  Stmt* cs = emit(std::move(call), c->loc);
  std::vector<Stmt*> slots;
  for (size_t k = 0; k < fk.rets.size(); k++) {
    auto r = std::make_unique<Stmt>(StmtKind::call_ret);
    r->ops = {cs};
    r->index = (int)k;
    r->type = fk.rets[k];
    slots.push_back(emit(std::move(r), c->loc));
  }
  // The results as the annotation shapes them, then the ti.ref write-backs.
  size_t pos = 0;
  KVal result;
  if (is_tuple) result.kind = KVal::Kind::tuple;
  for (auto& t : rtypes) {
    KVal v = from_slots(t, slots, pos, c->loc);
    if (is_tuple) result.elems.push_back(v);
    else result = v;
  }
  for (Binding* b : refs) {
    Type lt = b->stmt->type;
    size_t n = (size_t)std::max(1, num_elems(lt));
    std::vector<Stmt*> parts(slots.begin() + (std::ptrdiff_t)pos, slots.begin() + (std::ptrdiff_t)(pos + n));
    pos += n;
    for (auto*& x : parts) x = convert_for_store(x, lt.prim, "the ti.ref argument", c->loc);
    emit_store(b->stmt, lt.rows ? make_tensor(parts, lt.rows, lt.cols, c->loc) : parts[0], c->loc);
  }
  return result;
}

}  // namespace kiln::frontend
