// Calls in kernel scope: casts through type objects, and the intrinsics of
// the `ti` module and Python builtins (ti.func calls are lower_func.cpp's).
#include <cmath>
#include <unordered_map>

#include "vm/frontend/lower.h"
#include "vm/support/format.h"

namespace kiln::frontend {

using ir::BinaryOp;
using ir::Stmt;
using ir::StmtKind;
using ir::UnaryOp;

static void want_args(const ast::Call* c, size_t lo, size_t hi, const std::string& name) {
  size_t n = c->args.size();
  if (n < lo || n > hi) {
    std::string want = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
    raise("TypeError", name + "() takes " + want + " argument" + (hi == 1 ? "" : "s") + " (" +
                           std::to_string(n) + " given)", c->loc);
  }
}

// ti.f32(x), ti.u8(250): a cast, or for a literal a typed constant that must
// fit its type.
// Python's int() or float() of a host number: Python's own conversion at
// compile time, as Taichi calls them on Python values (float(2 ** 31) is
// 2147483648.0, not an i32 literal first). nullopt for kernel values.
static std::optional<KVal> python_conversion(bool to_float, const KVal& v, SourceLoc loc) {
  using SK = StaticValue::Kind;
  if (!v.is_static() || (v.s.kind != SK::integer && v.s.kind != SK::floating && v.s.kind != SK::boolean)) return std::nullopt;
  if (v.s.kind != SK::floating) {
    __int128 i = v.s.kind == SK::boolean ? v.s.b : v.s.big();
    return KVal::of(to_float ? StaticValue::of_float((double)i) : StaticValue::of_big(i));
  }
  if (to_float) return v;
  double d = v.s.f;
  // No Taichi type holds more than a u64 or an i64.
  if (!std::isfinite(d) || d >= 0x1p64 || d < -0x1p63)
    raise("OverflowError", "int() of " + py_float_repr(d) + " does not fit in 64 bits", loc);
  return KVal::of(StaticValue::of_big((__int128)std::trunc(d)));
}

static KVal typed_cast(Lowerer& L, Prim to, const ast::Call* c) {
  // Taichi's rules for a primitive type used as a function (TaichiSyntaxError
  // there); Python's int() and float() keep Python's.
  bool python = c->func->kind == ast::ExprKind::Name;
  if (python) want_args(c, 1, 1, std::string(prim_name(to)));
  else if (c->args.size() != 1 || !c->keywords.empty())
    raise("TypeError", "A primitive type can only decorate a single expression.", c->loc);
  if (!python && c->args[0]->kind == ast::ExprKind::Constant) {
    auto* k = c->args[0]->as<ast::Constant>();
    if (k->tag == ast::Constant::Tag::Int && prim_is_float(to))
      raise("TypeError", "Integer literals must be annotated with a integer type. For type casting, use `ti.cast`.", c->loc);
    if (k->tag == ast::Constant::Tag::Float && !prim_is_float(to))
      raise("TypeError", "Floating-point literals must be annotated with a floating-point type. For type casting, use `ti.cast`.", c->loc);
  }
  KVal v = L.lower_expr(c->args[0]);
  if (python) {
    const std::string& fname = c->func->as<ast::Name>()->id;
    if (fname == "int" || fname == "float")
      if (auto r = python_conversion(fname == "float", v, c->loc)) return *r;
  }
  if (!python && (v.is_tuple() || v.is_struct() || (!v.is_static() && v.v && v.v->type.rows)))
    raise("TypeError", "A primitive type cannot decorate an expression with a compound type.", c->loc);
  if (v.is_static() && (v.s.kind == StaticValue::Kind::integer || v.s.kind == StaticValue::Kind::boolean) && prim_is_int(to)) {
    Prim save = L.types.default_ip;
    L.types.default_ip = to;
    Stmt* s = L.value_of(v, c->loc);
    L.types.default_ip = save;
    return KVal::of(s);
  }
  return KVal::of(L.emit_cast(L.value_of(v, c->loc), to, c->loc));
}

// f(*a, b, *c): the positional arguments are lowered in order, the starred
// ones unpacked (a tuple or list, a host sequence's constants, a vector's
// components), each bound to a hidden name; the call then runs as if written
// with those names: f(a0, a1, b, c0), whatever f is.
KVal Lowerer::lower_starred_call(const ast::Call* c) {
  auto call = std::make_unique<ast::Call>();
  call->loc = c->loc;
  call->func = c->func;
  call->keywords = c->keywords;
  auto pass = [&](const KVal& v, SourceLoc loc) {
    auto name = std::make_unique<ast::Name>();
    name->loc = loc;
    name->id = "*" + std::to_string(starred_names++);  // no Python name starts with '*'
    Binding b;
    if (v.is_static()) {
      b.kind = Binding::Kind::static_;
      b.s = v.s;
    } else {
      b.kind = Binding::Kind::value;
      if (v.is_value()) b.stmt = v.v;
      else b.tuple = v;
    }
    frame().scopes.back().vars[name->id] = std::move(b);
    call->args.push_back(name.get());
    synthesized.push_back(std::move(name));
  };
  for (const ast::Expr* a : c->args) {
    if (a->kind != ast::ExprKind::Starred) {
      pass(lower_expr_raw(a), a->loc);
      continue;
    }
    const ast::Expr* e = a->as<ast::Starred>()->value;
    KVal k = lower_expr(e);
    if (k.is_tuple()) {
      for (auto& x : k.elems) pass(x, e->loc);
    } else if (k.is_static() && k.s.kind == StaticValue::Kind::tuple) {
      for (auto& x : k.s.elems) pass(KVal::of(x), e->loc);
    } else if (k.is_static() && k.s.kind == StaticValue::Kind::object) {
      StaticValue t = host_tuple(k.s, e->loc);
      for (auto& x : t.elems) pass(KVal::of(x), e->loc);
    } else if (is_tensor(k)) {
      for (Stmt* x : elements(k.v, e->loc)) pass(KVal::of(x), e->loc);
    } else {
      raise("TypeError", "*" + ast::unparse(e) + " must be a tuple, a list or a vector to unpack into arguments", e->loc);
    }
  }
  const ast::Call* made = call.get();
  synthesized.push_back(std::move(call));
  return lower_call(made);
}

KVal Lowerer::lower_call(const ast::Call* c) {
  for (const ast::Expr* a : c->args)
    if (a->kind == ast::ExprKind::Starred) return lower_starred_call(c);
  // A method call on a host object or a struct binds it to the func's `self`.
  KVal self;
  bool has_self = false;
  KVal fn;
  if (c->func->kind == ast::ExprKind::Attribute) {
    auto* a = c->func->as<ast::Attribute>();
    KVal dyn;
    if (dynamic_method(c, dyn)) return dyn;
    if (auto r = ndarray_method(c)) return KVal::of(*r);
    KVal base = lower_expr(a->value);
    if (is_tensor(base) && a->attr == "fill") {
      // v.fill(s) on a local vector or a field element: every component becomes s
      want_args(c, 1, 1, "fill");
      Stmt* s = value_of(lower_expr(c->args[0]), c->loc);
      if (s->type.rows) raise("TypeError", "fill() takes a scalar", c->args[0]->loc);
      Stmt* t = base.v;
      lower_assign(a->value, KVal::of(broadcast(emit_cast(s, t->type.prim, c->loc), t->type, c->loc)), c->loc);
      return {};
    }
    if (is_tensor(base)) return tensor_method(base.v, a->attr, c);
    if (base.is_static() && a->attr == "fill" &&
        (base.s.kind == StaticValue::Kind::field || base.s.kind == StaticValue::Kind::matrix_field ||
         base.s.kind == StaticValue::Kind::struct_field)) {
      want_args(c, 1, 1, "fill");
      fill_field(base.s, lower_expr(c->args[0]), c->loc);
      return {};
    }
    if (base.is_struct()) {
      for (auto& n : base.s.names)
        if (n == a->attr) raise("TypeError", "member '" + n + "' is not callable", c->func->loc);
      fn = KVal::of(host.attr(base.s, a->attr, c->func->loc));  // a @ti.func method of the dataclass
    } else if (!base.is_static()) {
      return lower_expr(c->func);  // reports the attribute error
    } else if (a->attr == "parent" && (base.s.kind == StaticValue::Kind::snode || base.s.kind == StaticValue::Kind::field ||
                                       base.s.kind == StaticValue::Kind::matrix_field ||
                                       base.s.kind == StaticValue::Kind::struct_field)) {
      return snode_parent(base.s, c);
    } else if (a->attr == "get_scalar_field" && base.s.kind == StaticValue::Kind::matrix_field) {
      // v.get_scalar_field(i) / m.get_scalar_field(i, j): a component's field, at compile time
      if (c->args.size() != (base.s.cols ? 2u : 1u) || !c->keywords.empty())
        raise("TypeError", std::string("get_scalar_field() of ") + describe_static(base.s) + " takes " +
                               (base.s.cols ? "2 component indices" : "1 component index"), c->loc);
      int64_t at[2] = {0, 0};
      for (size_t k = 0; k < c->args.size(); k++) {
        StaticValue v = eval_static(c->args[k]);
        if (v.kind != StaticValue::Kind::integer)
          raise("TypeError", "get_scalar_field() takes compile-time integer indices", c->args[k]->loc);
        at[k] = v.i;
      }
      int cols = base.s.cols ? base.s.cols : 1;
      if (at[0] < 0 || at[0] >= base.s.rows || at[1] < 0 || at[1] >= cols)
        raise("IndexError", "get_scalar_field(): component index out of range for " + describe_static(base.s), c->loc);
      return KVal::of(component_field(base.s, (int)(at[0] * cols + at[1])));
    } else {
      fn = KVal::of(host.attr(base.s, a->attr, c->func->loc));
    }
    const ast::FunctionDef* d = fn.s.kind == StaticValue::Kind::func ? fn.s.def : nullptr;
    if (d && (base.is_struct() || base.s.kind == StaticValue::Kind::object) && !d->args.args.empty() &&
        d->args.args[0]->name == "self") {
      self = base;
      has_self = true;
    }
  } else {
    fn = lower_expr(c->func);
  }
  if (!fn.is_static()) raise("TypeError", "this value is not callable", c->func->loc);
  const StaticValue& f = fn.s;
  switch (f.kind) {
    case StaticValue::Kind::dtype:
      if (f.rows) return construct_tensor(f, c);  // vec3(1, 2, 3)
      return typed_cast(*this, f.prim, c);
    case StaticValue::Kind::builtin:
      if (f.s == "ti.Vector" || f.s == "ti.Matrix" || f.s.rfind("ti.Vector.", 0) == 0 || f.s.rfind("ti.Matrix.", 0) == 0)
        return construct_tensor(f, c);
      return call_builtin(f.s, c);
    case StaticValue::Kind::func:
      if (f.b) return call_real_func(f, c, has_self ? &self : nullptr);
      return inline_func(f, c, has_self ? &self : nullptr);
    case StaticValue::Kind::struct_type: return construct_struct(f, c);
    case StaticValue::Kind::kernel:
      raise("TypeError", "kernels cannot call kernels: '" + f.def->name + "' is a @ti.kernel (make it a @ti.func)", c->loc);
    case StaticValue::Kind::object: {
      // A host callable applied to compile-time values runs at compile time
      // (`ti.func(f)(x)`, `make_weights(3)`, `np.array(3, dtype=np.int32)`),
      // as in Taichi; its result is a constant.
      auto constant = [&](const ast::Expr* e, StaticValue& out) {
        KVal v = lower_expr(e);
        if (!v.is_static()) return false;
        out = std::move(v.s);
        return true;
      };
      std::vector<StaticValue> args(c->args.size());
      HostEnv::Kwargs kwargs;
      bool ok = true;
      for (size_t i = 0; ok && i < c->args.size(); i++) ok = constant(c->args[i], args[i]);
      for (size_t i = 0; ok && i < c->keywords.size(); i++) {
        const ast::Keyword* kw = c->keywords[i];  // f(**d) is not a compile-time call
        ok = !kw->arg.empty() && constant(kw->value, kwargs.emplace_back(kw->arg, StaticValue{}).second);
      }
      if (!ok) break;
      return KVal::of(host.call(f, args, c->loc, kwargs));
    }
    default: break;
  }
  raise("TypeError", "cannot call " + describe_static(f) + " inside a kernel (only @ti.func functions and ti intrinsics)", c->loc);
}

// Math intrinsics that compute in floating point: int arguments become default_fp.
static const std::unordered_map<std::string, UnaryOp> kFloatUnary = {
    {"sqrt", UnaryOp::sqrt}, {"rsqrt", UnaryOp::rsqrt}, {"sin", UnaryOp::sin}, {"cos", UnaryOp::cos},
    {"tan", UnaryOp::tan},   {"asin", UnaryOp::asin},   {"acos", UnaryOp::acos}, {"atan", UnaryOp::atan},
    {"tanh", UnaryOp::tanh}, {"exp", UnaryOp::exp},     {"log", UnaryOp::log},
};
// Rounding keeps the argument's float type (ti.floor(1.5) is 1.0 in f32).
static const std::unordered_map<std::string, UnaryOp> kRound = {
    {"floor", UnaryOp::floor}, {"ceil", UnaryOp::ceil}, {"round", UnaryOp::round}};

static const std::unordered_map<std::string, ir::AtomicOp> kAtomics = {
    {"atomic_add", ir::AtomicOp::add}, {"atomic_sub", ir::AtomicOp::sub},   {"atomic_min", ir::AtomicOp::min},
    {"atomic_max", ir::AtomicOp::max}, {"atomic_and", ir::AtomicOp::bit_and}, {"atomic_or", ir::AtomicOp::bit_or},
    {"atomic_xor", ir::AtomicOp::bit_xor}, {"atomic_mul", ir::AtomicOp::mul}};

KVal Lowerer::call_builtin(const std::string& full, const ast::Call* c) {
  bool is_ti = full.rfind("ti.", 0) == 0;
  std::string name = is_ti ? full.substr(3) : full;
  SourceLoc loc = c->loc;
  auto arg = [&](size_t i) { return lower_expr(c->args[i]); };

  if (is_ti && name.rfind("math.", 0) == 0) return call_math(name.substr(5), c);
  if (is_ti && name.rfind("simt.", 0) == 0) return call_simt(name.substr(5), c);
  if (name == "static") {
    // ti.static(a, b, c): a tuple of compile-time values (pos, n = ti.static(self.pos, self.n))
    if (c->args.empty()) raise("TypeError", "ti.static() needs an argument", loc);
    if (c->args.size() == 1) return KVal::of(eval_static(c->args[0]));
    StaticValue t;
    t.kind = StaticValue::Kind::tuple;
    for (auto* a : c->args) t.elems.push_back(eval_static(a));
    return KVal::of(t);
  }
  if (name == "print") {
    lower_print(c);
    return {};
  }
  if (is_ti && name == "Struct") return struct_literal(c);
  if (is_ti && (name == "activate" || name == "deactivate" || name == "is_active" || name == "append" ||
                name == "length" || name == "rescale_index" || name == "get_addr"))
    return call_sparse_builtin(name, c);
  if (name == "loop_config") {
    for (auto* kw : c->keywords) {
      if (kw->arg == "serialize") {
        StaticValue v = eval_static(kw->value);
        serialize_next = v.kind == StaticValue::Kind::boolean ? v.b : v.i != 0;
      } else if (kw->arg == "block_dim") {
        // The next parallel loop's chunk on the CPU, its workgroup on a GPU.
        StaticValue v = eval_static(kw->value);
        if (v.kind != StaticValue::Kind::integer || v.i < 1 || v.i > (1 << 20))
          raise("ValueError", "ti.loop_config(block_dim=...) takes a positive integer known at compile time (at most 2^20)",
                kw->value->loc);
        block_dim_next = (int)v.i;
      } else if (kw->arg != "parallelize" && kw->arg != "uniform") {
        raise("TypeError", "ti.loop_config() got an unexpected keyword argument '" + kw->arg + "'", kw->loc);
      }
    }
    return {};
  }
  if (is_ti && (name == "zero" || name == "one")) {
    // ti.zero(x) / ti.one(x): 0 or 1 of x's type and shape
    want_args(c, 1, 1, full);
    Stmt* v = value_of(arg(0), loc);
    Prim p = v->type.prim;
    int one = name == "one";
    Stmt* k = emit_const(prim_is_float(p) ? ir::Const::of_float(p, one) : ir::Const::of_int(p, one), loc);
    return KVal::of(v->type.rows ? broadcast(k, v->type, loc) : k);
  }
  if (is_ti && name == "no_activate") {
    // Taichi's promise that this kernel's writes land in active cells (so it
    // may skip activating); writing activates here anyway, which keeps the
    // promise's meaning and is also right when it is broken
    for (auto* a : c->args) snode_of(eval_static(a), full + "()", a->loc);
    return {};
  }
  if (is_ti && (name == "block_local" || name == "cache_read_only")) {
    // hints to cache fields in GPU shared memory / read-only caches; the CPU
    // engines have none to fill
    for (auto* a : c->args) {
      StaticValue f = eval_static(a);
      if (f.kind != StaticValue::Kind::field && f.kind != StaticValue::Kind::matrix_field)
        raise("TypeError", full + "() takes fields", a->loc);
    }
    return {};
  }
  if (is_ti && name == "stop_grad") {
    // ti.stop_grad(x): x, through which no derivative flows (autodiff kernels
    // keep the mark for vm/autodiff; other kernels need none)
    want_args(c, 1, 1, full);
    KVal v = lower_expr_raw(c->args[0]);
    if (v.is_static() && (v.s.kind == StaticValue::Kind::field || v.s.kind == StaticValue::Kind::matrix_field)) {
      // Taichi's form: ti.stop_grad(x) on a field stops x's gradient in this kernel
      if (v.s.field) kernel.stop_grad_fields.push_back(v.s.field->id);
      for (FieldInfo* f : v.s.fields) kernel.stop_grad_fields.push_back(f->id);
      return {};
    }
    if (ad_mode == AutodiffMode::none) return v;
    Stmt* x = value_of(v, loc);
    auto s = std::make_unique<Stmt>(StmtKind::stop_grad);
    s->type = x->type;
    s->ops = {x};
    return KVal::of(emit(std::move(s), loc));
  }
  if (is_ti && (name == "loop_unique" || name == "assume_in_range")) {
    // optimisation hints in Taichi (the index is unique per iteration / lies in a
    // range): the value itself
    want_args(c, 1, name == "loop_unique" ? 2 : 4, full);
    return arg(0);
  }
  if (name == "static_assert") {
    want_args(c, 1, 2, full);
    StaticValue v = eval_static(c->args[0]);
    bool ok = v.kind == StaticValue::Kind::boolean ? v.b : v.kind == StaticValue::Kind::integer ? v.i != 0 : true;
    if (!ok) {
      std::string msg = c->args.size() > 1 ? eval_static(c->args[1]).s : "static assertion failed";
      // Inside ti.funcs (a library's, such as ti.svd's checks) the callers
      // show where the offending call is.
      Error err("AssertionError", msg, c->args[0]->loc);
      for (int f = cur_frame; f > 0; f = kernel.frames[f].parent) {
        std::string where = format_location(kernel.frames[f].call);  // "  --> file:line:col" and the line
        size_t arrow = where.find("--> ");
        if (arrow != std::string::npos) where = where.substr(arrow + 4);
        err.notes.push_back("in '" + kernel.frames[f].func + "', called from " + where);
      }
      throw err;
    }
    return {};
  }
  if (name == "static_print") {
    std::string line;
    for (size_t i = 0; i < c->args.size(); i++) {
      StaticValue v = eval_static(c->args[i]);
      if (i) line += " ";
      line += v.kind == StaticValue::Kind::string ? v.s
              : v.kind == StaticValue::Kind::integer ? std::to_string(v.i)
              : describe_static(v);
    }
    prog.print(line + "\n");
    return {};
  }
  if (name == "int" || name == "float") {
    want_args(c, 1, 1, name);
    KVal v = arg(0);
    if (auto r = python_conversion(name == "float", v, loc)) return *r;
    Prim to = name == "int" ? types.default_ip : types.default_fp;
    return KVal::of(emit_cast(value_of(v, loc), to, loc));
  }
  if (name == "cast") {
    want_args(c, 2, 2, full);
    KVal v = arg(0);
    StaticValue t = eval_static(c->args[1]);
    if (t.kind != StaticValue::Kind::dtype) raise("TypeError", "ti.cast() needs a type as its second argument", c->args[1]->loc);
    return KVal::of(emit_cast(value_of(v, loc), t.prim, loc));
  }
  if (name == "bit_cast") {
    want_args(c, 2, 2, full);
    Stmt* v = value_of(arg(0), loc);
    StaticValue t = eval_static(c->args[1]);
    if (t.kind != StaticValue::Kind::dtype || prim_bits(t.prim) != prim_bits(v->type.prim))
      raise("TypeError", "ti.bit_cast() needs a type of the same width as its argument", loc);
    return KVal::of(emit_unary(UnaryOp::cast_bits, v, Type::scalar(t.prim), loc));
  }
  // Taichi's type check: rounding and trigonometry take real values only (a
  // host number is computed as a float, as Taichi computes it in Python).
  auto real_only = [&](const KVal& k, UnaryOp op, Stmt* v) {
    bool trig = op == UnaryOp::sin || op == UnaryOp::asin || op == UnaryOp::cos || op == UnaryOp::acos ||
                op == UnaryOp::tan || op == UnaryOp::tanh || op == UnaryOp::floor || op == UnaryOp::ceil ||
                op == UnaryOp::round;
    if (trig && !k.is_static() && !prim_is_float(v->type.prim))
      raise("TypeError", "'" + name + "' takes real inputs only, however '" + std::string(prim_name(v->type.prim)) +
                             "' is provided (cast it: ti.cast(x, ti.f32))", c->args[0]->loc);
  };
  if (auto it = kFloatUnary.find(name); it != kFloatUnary.end() && (is_ti || name == "sqrt")) {
    want_args(c, 1, 1, full);
    KVal k = arg(0);
    Stmt* v = value_of(k, loc);
    real_only(k, it->second, v);
    Prim p = prim_is_float(v->type.prim) ? v->type.prim : types.default_fp;
    return KVal::of(emit_unary(it->second, emit_cast(v, p, loc), shaped(v, p), loc));
  }
  if (auto it = kRound.find(name); it != kRound.end() && is_ti) {
    want_args(c, 1, 2, full);
    KVal k = arg(0);
    Stmt* v = value_of(k, loc);
    real_only(k, it->second, v);
    Prim p = prim_is_float(v->type.prim) ? v->type.prim : types.default_fp;
    Stmt* r = emit_unary(it->second, emit_cast(v, p, loc), shaped(v, p), loc);
    if (c->args.size() == 2) {
      StaticValue t = eval_static(c->args[1]);
      if (t.kind != StaticValue::Kind::dtype) raise("TypeError", full + "() needs a type as its second argument", loc);
      r = emit_cast(r, t.prim, loc);
    }
    return KVal::of(r);
  }
  if (name == "random" && is_ti) {
    // ti.random(dtype=float): uniform in [0, 1) for floats, any value for ints.
    want_args(c, 0, 1, full);
    Prim p = types.default_fp;
    const ast::Expr* dt = c->args.empty() ? nullptr : c->args[0];
    for (auto* kw : c->keywords) {
      if (kw->arg != "dtype" || dt) raise("TypeError", full + "() got an unexpected keyword argument '" + kw->arg + "'", kw->loc);
      dt = kw->value;
    }
    if (dt) {
      StaticValue t = eval_static(dt);
      if (t.kind != StaticValue::Kind::dtype) raise("TypeError", full + "() takes a dtype, not " + describe_static(t), dt->loc);
      p = t.prim;
    }
    // A half-precision draw is an f32 draw rounded to f16, as Taichi promotes it.
    Prim want = p;
    if (p == Prim::f16) p = Prim::f32;
    if (prim_bits(p) < 32)
      raise("TypeError", full + "() draws f16, f32, f64, i32, u32, i64 or u64, not " + std::string(prim_name(p)), dt ? dt->loc : loc);
    auto r = std::make_unique<Stmt>(StmtKind::random);
    r->type = Type::scalar(p);
    r->ops = {rng_index ? rng_index : emit_const(ir::Const::of_int(Prim::i32, 0), loc)};
    return KVal::of(emit_cast(emit(std::move(r), loc), want, loc));
  }
  if ((name == "popcnt" || name == "clz") && is_ti) {
    want_args(c, 1, 1, full);
    Stmt* v = value_of(arg(0), loc);
    if (!prim_is_int(v->type.prim)) raise("TypeError", full + "() needs an integer, got " + shape_phrase(v->type), loc);
    return KVal::of(emit_unary(name == "popcnt" ? UnaryOp::popcnt : UnaryOp::clz, v, v->type, loc));
  }
  if (name == "abs") {
    want_args(c, 1, 1, full);
    Stmt* v = value_of(arg(0), loc);
    return KVal::of(emit_unary(UnaryOp::abs, v, v->type, loc));
  }
  if (name == "max" || name == "min") {
    if (c->args.size() < 2) raise("TypeError", full + "() needs at least 2 arguments", loc);
    KVal acc = arg(0);
    for (size_t i = 1; i < c->args.size(); i++) {
      KVal b = arg(i);
      Prim t = promote(prim_of(acc, loc), prim_of(b, loc));
      Stmt* x = value_of(acc, loc);
      Stmt* y = value_of(b, loc);
      match_shapes(x, y, full + "()", loc);
      x = emit_cast(x, t, loc);
      y = emit_cast(y, t, loc);
      acc = KVal::of(emit_binary(name == "max" ? BinaryOp::max : BinaryOp::min, x, y, x->type, loc));
    }
    return acc;
  }
  if (name == "pow") {
    want_args(c, 2, 2, full);
    KVal a = arg(0), b = arg(1);
    return lower_binop(ast::BinOpKind::Pow, a, b, loc);
  }
  if (name == "atan2" || name == "raw_div" || name == "raw_mod" || name == "bit_shr") {
    want_args(c, 2, 2, full);
    KVal a = arg(0), b = arg(1);
    Prim t = promote(prim_of(a, loc), prim_of(b, loc));
    BinaryOp op = BinaryOp::atan2;
    if (name == "atan2") {
      if (!prim_is_float(t)) t = types.default_fp;
    } else if (name == "raw_div") {
      op = BinaryOp::div;
    } else if (name == "raw_mod") {
      op = BinaryOp::raw_mod;
    } else {
      op = BinaryOp::bit_shr;
      t = prim_of(a, loc);
      if (!prim_is_int(t)) raise("TypeError", "ti.bit_shr() needs integers", loc);
      return KVal::of(emit_binary(op, value_of(a, loc), value_of(b, loc), Type::scalar(t), loc));
    }
    Stmt* x = value_of(a, loc);
    Stmt* y = value_of(b, loc);
    match_shapes(x, y, full + "()", loc);
    x = emit_cast(x, t, loc);
    return KVal::of(emit_binary(op, x, emit_cast(y, t, loc), x->type, loc));
  }
  if (name == "select") {
    // element-wise on vectors and matrices: a scalar condition or operand broadcasts
    want_args(c, 3, 3, full);
    Stmt* cond = value_of(arg(0), loc);
    if (prim_is_float(cond->type.prim) || cond->type.is_none())
      raise("TypeError", "the condition of ti.select() must be an integer, not " + shape_phrase(cond->type), loc);
    KVal a = arg(1), b = arg(2);
    Prim t = promote(prim_of(a, loc), prim_of(b, loc));
    Stmt* x = value_of(a, loc);
    Stmt* y = value_of(b, loc);
    match_shapes(x, y, full + "()", loc);
    if (cond->type.rows) {
      match_shapes(cond, x, full + "()", loc);
      match_shapes(x, y, full + "()", loc);
    }
    x = emit_cast(x, t, loc);
    y = emit_cast(y, t, loc);
    auto s = std::make_unique<Stmt>(StmtKind::select);
    s->ops = {cond, x, y};
    s->type = x->type;
    return KVal::of(emit(std::move(s), loc));
  }
  if (auto it = kAtomics.find(name); it != kAtomics.end() && is_ti) {
    want_args(c, 2, 2, full);
    const ast::Expr* target = c->args[0];
    Stmt* ptr = nullptr;
    if (target->kind == ast::ExprKind::Subscript) {
      auto* sub = target->as<ast::Subscript>();
      KVal base = lower_expr(sub->value);
      if (base.is_static() && base.s.kind == StaticValue::Kind::field) ptr = global_ptr(base.s, sub->slice, target->loc);
      if (is_shared(base)) {
        std::vector<Stmt*> ptrs = shared_ptrs(base.v, sub->slice, target->loc);
        if (ptrs.size() != 1)
          raise("TypeError", full + "() on an element of a shared array of vectors or matrices: update its components", loc);
        ptr = ptrs[0];
      }
      if (base.is_static() && base.s.kind == StaticValue::Kind::matrix_field) {
        // an element of a vector/matrix field: one atomic per component; the old values as a tensor
        Stmt* v = value_of(arg(1), loc);
        int n = (int)base.s.fields.size();
        if (v->type.rows && v->type.rows * std::max<int>(1, v->type.cols) != n)
          raise("TypeError", full + "(): the value's shape differs from the elements of " + describe_static(base.s), loc);
        std::vector<Stmt*> olds;
        KVal index = lower_index(sub->slice);
        for (int k = 0; k < n; k++) {
          Stmt* p = global_ptr_at(component_field(base.s, k), index, target->loc);
          Stmt* vk = v->type.rows ? element(v, k, loc) : v;
          if (is_quant_ptr(p)) {
            olds.push_back(quant_atomic(p, it->second, emit_cast(vk, p->type.prim, loc), loc));
            continue;
          }
          auto s = std::make_unique<Stmt>(StmtKind::atomic);
          s->aop = it->second;
          s->ops = {p, emit_cast(vk, p->type.prim, loc)};
          s->type = Type::scalar(p->type.prim);
          olds.push_back(emit(std::move(s), loc));
        }
        return KVal::of(make_tensor(olds, base.s.rows, base.s.cols, loc));
      }
    } else if (target->kind == ast::ExprKind::Name) {
      Binding* b = find_local(target->as<ast::Name>()->id);
      if (b && b->kind == Binding::Kind::local) ptr = b->stmt;
    }
    if (!ptr) raise("TypeError", full + "() needs a field element or a local variable as its first argument", target->loc);
    Stmt* v = emit_cast(value_of(arg(1), loc), ptr->type.prim, loc);
    if (is_quant_ptr(ptr)) return KVal::of(quant_atomic(ptr, it->second, v, loc));
    auto s = std::make_unique<Stmt>(StmtKind::atomic);
    s->aop = it->second;
    s->ops = {ptr, v};
    s->type = Type::scalar(ptr->type.prim);
    return KVal::of(emit(std::move(s), loc));
  }
  if (!is_ti && (name == "all" || name == "any")) {
    // Python's all()/any() of a vector or matrix in a kernel: v.all() / v.any()
    want_args(c, 1, 1, full);
    Stmt* v = value_of(arg(0), loc);
    Stmt* zero = emit_const(prim_is_float(v->type.prim) ? ir::Const::of_float(v->type.prim, 0) : ir::Const::of_int(v->type.prim, 0), loc);
    if (!v->type.rows) return KVal::of(emit_binary(BinaryOp::cmp_ne, v, zero, Type::scalar(Prim::i32), loc));
    Stmt* nz = emit_binary(BinaryOp::cmp_ne, v, broadcast(zero, v->type, loc), shaped(v, Prim::i32), loc);
    return KVal::of(reduce(nz, name == "any" ? BinaryOp::bit_or : BinaryOp::bit_and, loc));
  }
  if (name == "len") {
    want_args(c, 1, 1, full);
    KVal v = arg(0);
    if (v.is_tuple()) return KVal::of(StaticValue::of_int((int64_t)v.elems.size()));
    return KVal::of(eval_static(c));
  }
  if (name == "range" || name == "ndrange" || name == "grouped")
    raise("TypeError", full + "() can only be used as the iterable of a for loop in a kernel", loc);
  raise("TypeError", "'" + full + "' cannot be called inside a kernel", loc);
}

}  // namespace kiln::frontend
