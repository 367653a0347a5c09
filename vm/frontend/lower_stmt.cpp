// Kernel-scope statements: control flow, return, assert, print (assignment is
// in lower_assign.cpp, loops in lower_for.cpp).
#include <cctype>
#include <cstring>
#include <functional>
#include <optional>

#include "vm/frontend/lower.h"
#include "vm/support/format.h"

namespace kiln::frontend {

using ir::BinaryOp;
using ir::Stmt;
using ir::StmtKind;


void Lowerer::lower_body(const ast::Body& body) {
  for (auto* s : body) {
    lower_stmt(s);
    // code after a kernel's return, or after a compile-time break/continue, is not lowered
    Frame& f = frame();
    if (f.ended || (!f.loops.empty() && f.loops.back().exit)) break;
  }
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

// `n = ti.static(A.n)` (or `(n := ti.static(A.n))`): a compile-time name, as
// in Taichi; a number assigned any other way is a local variable.
bool Lowerer::bind_static_name(const ast::Expr* target, const KVal& v, const ast::Expr* value) {
  if (!v.is_static() || target->kind != ast::ExprKind::Name || !is_static_call(*this, value)) return false;
  const std::string& name = target->as<ast::Name>()->id;
  Binding* old = find_local(name);
  if (old && old->kind != Binding::Kind::static_) return false;
  bind_static(name, v.s);
  return true;
}

void Lowerer::bind_static(const std::string& name, const StaticValue& v) {
  Binding b;
  b.kind = Binding::Kind::static_;
  b.s = v;
  bind(name, std::move(b));
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
      if (a->targets.size() == 1 && bind_static_name(a->targets[0], v, a->value)) return;
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
      bind(name, std::move(b));
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
      if (l.is_static) {
        if (blocks.size() != l.depth)
          raise("SyntaxError", std::string("'") + (brk ? "break" : "continue") +
                                   "' in a ti.static loop must be under ti.static conditions only (the loop is unrolled "
                                   "at compile time)", s->loc);
        l.exit = brk ? 2 : 1;
        return;
      }
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

void Lowerer::lower_if(const ast::If* s) {
  if (is_static_call(*this, s->test)) {
    StaticValue v = eval_static(s->test->as<ast::Call>()->args.at(0));
    push_scope();
    lower_body(static_truthy(v) ? s->body : s->orelse);
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
  // A real function's own body returns like a kernel, from anywhere (its
  // return_ ends the call); a kernel has one return and no early one.
  const bool real = real_func && frames.size() == 1;
  if (f.is_kernel || real) {
    const std::string who = (real ? "ti.real_func '" : "kernel '") + f.def->name + "'";
    bool none = s->value && s->value->kind == ast::ExprKind::Constant && ret_types.empty() &&
                eval_static(s->value).kind == StaticValue::Kind::none;
    if (!s->value || none) {  // `return` / `return None`
      if (real) {
        if (!ret_types.empty()) raise("SyntaxError", who + " must return a value (it is annotated to)", s->loc);
        emit_real_return({}, s->loc);
        if (blocks.size() == 1) f.ended = true;
        return;
      }
      // A bare `return` ends the kernel early; only allowed at the top level.
      if (blocks.size() != 1) raise("SyntaxError", "a bare return is only allowed at the top level of a kernel", s->loc);
      emit(std::make_unique<Stmt>(StmtKind::return_), s->loc);
      return;
    }
    if (ret_types.empty())
      raise("SyntaxError", who + " returns a value but has no return type annotation" +
                               (real ? ": its return value must be annotated" : "") + " (add e.g. `-> ti.i32`)", s->loc);
    if (++f.returns_seen > 1 && !real) raise("SyntaxError", "a kernel may have at most one return statement", s->loc);
    for (auto& l : f.loops)
      if (l.parallel) raise("SyntaxError", "return is not allowed inside the parallel for loop of a kernel", s->loc);
    KVal v = lower_expr(s->value);
    std::vector<KVal> vals;
    if (ret_is_tuple) {
      if (!v.is_tuple() || v.elems.size() != ret_types.size())
        raise("TypeError", who + " is annotated to return a tuple of " + std::to_string(ret_types.size()) + " values", s->loc);
      vals = v.elems;
    } else {
      if (v.is_tuple()) raise("TypeError", who + " returns a tuple but its annotation is a single type", s->loc);
      vals.push_back(v);
    }
    // A struct comes back as the annotated type itself, member types and all,
    // as Taichi checks (a struct of other member types is not converted).
    for (size_t i = 0; i < vals.size(); i++)
      if (ret_types[i].kind == StaticValue::Kind::struct_type && vals[i].is_struct() && !same_struct_type(vals[i].s, ret_types[i]))
        raise("TypeError", who + " is annotated to return " + struct_type_text(ret_types[i]) + ", not " +
                               struct_type_text(vals[i].s), s->loc);
    std::vector<Stmt*> ops;
    for (size_t i = 0; i < vals.size(); i++) flatten(vals[i], ret_types[i], ops, s->loc);
    if (real) {
      emit_real_return(std::move(ops), s->loc);
    } else {
      auto st = std::make_unique<Stmt>(StmtKind::return_);
      st->ops = std::move(ops);
      emit(std::move(st), s->loc);
    }
    if (blocks.size() == 1) f.ended = true;  // what follows a top-level return never runs
    return;
  }
  // Inside an inlined ti.func.
  bool in_loop = false;
  for (auto& l : f.loops) in_loop |= !l.is_static;
  if (in_loop) raise("SyntaxError", "return inside a loop of a ti.func is not supported yet", s->loc);
  if (s->value) {
    KVal v = lower_expr(s->value);
    if (v.is_tuple()) {  // return a, b from an inlined func
      if (f.ret_loop) raise("SyntaxError", "a ti.func that returns a tuple must have one return, at its end", s->loc);
      for (auto& e : v.elems) f.ret_tuple.push_back(struct_local(e, s->loc));
      f.has_ret_tuple = true;
      return;
    }
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
    // No annotation: as in Taichi, an inlined func returns its value's type, from one return
    // (a scalar annotation: its shape, cast to the annotation's type).
    if (f.returns_seen++ && !f.has_ret_annotation)
      raise("SyntaxError", "a ti.func without a return type annotation may return only once", s->loc);
    if (!f.ret_slot) {
      auto a = std::make_unique<Stmt>(StmtKind::alloca);
      a->type = value_of(v, s->loc)->type;
      if (f.ret_shape_from_value) a->type.prim = f.ret_type.prim;
      a->frame = cur_frame;
      a->loc = kernel.frames[cur_frame].call;  // prologue: on the call's line
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
  // A return outside any run-time if or loop (at the top, or under a
  // ti.static if) ends the body, as in Taichi: what follows is not compiled,
  // so `if ti.static(c): return a` may precede code valid only when c is false.
  if (blocks.size() == f.body_blocks) f.ended = true;
}

void Lowerer::lower_assert(const ast::Assert* s) {
  if (!debug) return;  // asserts are checked only under ti.init(debug=True), as in Taichi
  Stmt* c = as_condition(lower_expr(s->test), s->test->loc);
  auto st = std::make_unique<Stmt>(StmtKind::assert_);
  std::vector<Stmt*> ops{c};  // the condition, then the message's arguments
  st->rare_mut().text = s->msg ? assert_message(s->msg, ops) : "assert " + ast::unparse(s->test);
  st->ops = ops;
  emit(std::move(st), s->loc);
}

// Python's str() of a compile-time scalar (a string, bool, int or float), else nothing.
static std::optional<std::string> python_str(const StaticValue& s) {
  switch (s.kind) {
    case StaticValue::Kind::string: return s.s;
    case StaticValue::Kind::boolean: return std::string(s.b ? "True" : "False");
    case StaticValue::Kind::integer: return s.wide ? std::nullopt : std::optional<std::string>(std::to_string(s.i));
    case StaticValue::Kind::floating: return py_float_repr(s.f);
    default: return std::nullopt;
  }
}

// An assert's message, as Taichi takes it: a constant; 'format' % args, whose
// values go to the runtime, which formats them printf-style when the assert
// fails; or an f-string, whose values in the kernel become %d or %f (format
// specs are not applied, as in Taichi) and whose constants are text.
std::string Lowerer::assert_message(const ast::Expr* msg, std::vector<Stmt*>& args) {
  auto arg = [&](const KVal& k, const ast::Expr* e) {
    Stmt* v = value_of(k, e->loc);
    if (v->type.rows)
      raise("TypeError", "an assert message takes scalar values, not " + shape_phrase(v->type), e->loc);
    args.push_back(v);
    return v;
  };
  auto literal = [](const std::string& t) {  // '%' in literal text is not a format
    std::string out;
    for (char ch : t) out += ch == '%' ? std::string("%%") : std::string(1, ch);
    return out;
  };
  auto strip = [](std::string t) {  // Taichi strips the message
    size_t b = t.find_first_not_of(" \t\n\r"), e = t.find_last_not_of(" \t\n\r");
    return b == std::string::npos ? std::string() : t.substr(b, e - b + 1);
  };
  if (msg->kind == ast::ExprKind::BinOp) {
    auto* b = msg->as<ast::BinOp>();
    if (b->op == ast::BinOpKind::Mod && b->left->kind == ast::ExprKind::Constant &&
        b->left->as<ast::Constant>()->tag == ast::Constant::Tag::Str) {
      if (b->right->kind == ast::ExprKind::Tuple)
        for (auto* e : b->right->as<ast::Tuple>()->elts) arg(lower_expr(e), e);
      else
        arg(lower_expr(b->right), b->right);
      return strip(b->left->as<ast::Constant>()->s);
    }
  }
  if (msg->kind == ast::ExprKind::JoinedStr) {
    std::string text;
    for (auto* part : msg->as<ast::JoinedStr>()->values) {
      if (part->kind == ast::ExprKind::Constant) {
        text += literal(part->as<ast::Constant>()->s);
        continue;
      }
      const ast::Expr* e = part->as<ast::FormattedValue>()->value;
      KVal k = lower_expr(e);
      if (std::optional<std::string> t = k.is_static() ? python_str(k.s) : std::nullopt)
        text += literal(*t);
      else
        text += prim_is_float(arg(k, e)->type.prim) ? "%f" : "%d";
    }
    return strip(text);
  }
  StaticValue m = eval_static(msg);
  return m.kind == StaticValue::Kind::string ? m.s : describe_static(m);
}

// '...'.format(...) as a print argument: the string's literal text and its
// replacement fields, each field one of the call's arguments printed with the
// field's spec, as an f-string prints. Taichi's rules, stricter than Python's:
// every argument must be used. Anywhere else in a kernel a format call runs at
// compile time on constant arguments (Python's str.format) or is an error.
static const ast::Call* format_call(const ast::Expr* e) {
  if (e->kind != ast::ExprKind::Call) return nullptr;
  auto* c = e->as<ast::Call>();
  if (c->func->kind != ast::ExprKind::Attribute) return nullptr;
  auto* a = c->func->as<ast::Attribute>();
  if (a->attr != "format" || a->value->kind != ast::ExprKind::Constant) return nullptr;
  return a->value->as<ast::Constant>()->tag == ast::Constant::Tag::Str ? c : nullptr;
}

void Lowerer::print_format(const ast::Call* c, const std::function<void(const std::string&)>& text,
                           const std::function<void(const KVal&, const std::string&, SourceLoc)>& one) {
  const std::string& fmt = c->func->as<ast::Attribute>()->value->as<ast::Constant>()->s;
  SourceLoc loc = c->func->loc;
  for (auto* a : c->args)
    if (a->kind == ast::ExprKind::Starred) raise("SyntaxError", "*args in str.format() is not supported in kernels", a->loc);
  std::vector<bool> used_pos(c->args.size(), false);
  std::vector<bool> used_kw(c->keywords.size(), false);
  for (auto* kw : c->keywords)
    if (kw->arg.empty()) raise("SyntaxError", "**kwargs in str.format() is not supported in kernels", kw->loc);
  // Each argument is evaluated once, in order, as Python does, whatever the fields.
  std::vector<KVal> pos, kws;
  for (auto* a : c->args) pos.push_back(lower_expr(a));
  for (auto* kw : c->keywords) kws.push_back(lower_expr(kw->value));
  int next_auto = 0;
  bool manual = false, automatic = false;
  std::string lit;
  for (size_t i = 0; i < fmt.size(); i++) {
    char ch = fmt[i];
    if (ch == '}') {
      if (i + 1 < fmt.size() && fmt[i + 1] == '}') {
        lit += '}';
        i++;
        continue;
      }
      raise("ValueError", "Single '}' encountered in format string", loc);
    }
    if (ch != '{') {
      lit += ch;
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
      lit += '{';
      i++;
      continue;
    }
    size_t close = fmt.find('}', i + 1);
    if (close == std::string::npos) raise("ValueError", "Single '{' encountered in format string", loc);
    std::string field = fmt.substr(i + 1, close - i - 1);
    if (field.find('{') != std::string::npos)
      raise("ValueError", "nested replacement fields in a format spec are not supported in kernels", loc);
    i = close;
    std::string spec, name = field;
    if (size_t colon = field.find(':'); colon != std::string::npos) {
      spec = field.substr(colon + 1);
      name = field.substr(0, colon);
    }
    if (size_t bang = name.find('!'); bang != std::string::npos) {
      std::string conv = name.substr(bang + 1);
      if (conv != "s" && conv != "r" && conv != "a")
        raise("ValueError", "Unknown conversion specifier " + conv + " in format string", loc);
      name = name.substr(0, bang);
    }
    const KVal* arg = nullptr;
    if (name.empty() || std::isdigit((unsigned char)name[0])) {
      size_t k;
      if (name.empty()) {
        if (manual) raise("ValueError", "cannot switch from manual field specification to automatic field numbering", loc);
        automatic = true;
        k = (size_t)next_auto++;
      } else {
        if (automatic) raise("ValueError", "cannot switch from automatic field numbering to manual field specification", loc);
        manual = true;
        for (char d : name)
          if (!std::isdigit((unsigned char)d)) raise("ValueError", "the field '" + name + "' is not an index or a name", loc);
        k = std::stoul(name);
      }
      if (k >= c->args.size())
        raise("IndexError", "Replacement index " + std::to_string(k) + " out of range for positional args tuple (" +
                                std::to_string(c->args.size()) + " given)", loc);
      used_pos[k] = true;
      arg = &pos[k];
    } else {
      for (size_t k = 0; k < c->keywords.size(); k++)
        if (c->keywords[k]->arg == name) {
          used_kw[k] = true;
          arg = &kws[k];
        }
      if (!arg) raise("KeyError", "'" + name + "': the format string names an argument the call does not give", loc);
    }
    text(lit);
    lit.clear();
    one(*arg, spec, loc);
  }
  text(lit);
  for (size_t k = 0; k < used_pos.size(); k++)
    if (!used_pos[k])
      raise("TypeError", "str.format() in a kernel: positional argument " + std::to_string(k) + " is not used by the format string",
            c->args[k]->loc);
  for (size_t k = 0; k < used_kw.size(); k++)
    if (!used_kw[k])
      raise("TypeError", "str.format() in a kernel: keyword argument '" + c->keywords[k]->arg +
                             "' is not used by the format string", c->keywords[k]->loc);
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
    if (!st->rare_mut().print_parts.empty() && !st->rare_mut().print_parts.back().is_value) st->rare_mut().print_parts.back().text += t;
    else st->rare_mut().print_parts.push_back({false, -1, t});
  };
  auto value = [&](Stmt* v, std::string spec) {
    // The spec's type letter must suit the value, as Taichi checks: d and i
    // print signed integers, u unsigned ones, x X o c b integers, e f g a floats.
    if (!spec.empty() && std::isalpha((unsigned char)spec.back())) {
      char t = spec.back();
      Prim p = v->type.prim;
      bool ok = true;
      if (t == 'd' || t == 'i') ok = prim_is_int(p) && prim_is_signed(p);
      else if (t == 'u') ok = prim_is_int(p) && !prim_is_signed(p);
      else if (t == 'x' || t == 'X' || t == 'o' || t == 'c' || t == 'b') ok = prim_is_int(p);
      else if (std::strchr("eEfFgGaA", t)) ok = prim_is_float(p);
      if (!ok)
        raise("TypeError", std::string("format spec '") + spec + "' does not suit a value of type " + std::string(prim_name(p)) +
                               " (d and i print signed integers, u unsigned ones, e f g floats)", c->loc);
    }
    st->rare_mut().print_parts.push_back({true, (int)st->ops.size(), std::move(spec)});
    st->ops.push_back(v);
  };
  std::function<void(const KVal&, const std::string&, SourceLoc)> print_kval;
  print_kval = [&](const KVal& k, const std::string& spec, SourceLoc loc) {
    if (k.is_static() && k.s.kind == StaticValue::Kind::string) return text(k.s.s);
    // Lists and tuples (a grouped index, a field's shape, [k, x.shape]) print
    // as Taichi prints them, brackets at every level: [233.3, [2, 3]].
    if (k.is_tuple() || (k.is_static() && k.s.kind == StaticValue::Kind::tuple)) {
      size_t n = k.is_tuple() ? k.elems.size() : k.s.elems.size();
      text("[");
      for (size_t i = 0; i < n; i++) {
        if (i) text(", ");
        print_kval(k.is_tuple() ? k.elems[i] : KVal::of(k.s.elems[i]), spec, loc);
      }
      return text("]");
    }
    if (k.is_struct()) {  // as host code prints a struct: {'pos': [1.0, 2.0], 'mass': 3.0}
      text("{");
      for (size_t i = 0; i < k.elems.size(); i++) {
        text((i ? ", '" : "'") + (i < k.s.names.size() ? k.s.names[i] : "?") + "': ");
        print_kval(k.elems[i], spec, loc);
      }
      return text("}");
    }
    Stmt* v = value_of(k, loc);
    if (v->type.rows) {  // vectors print as [a, b], matrices as [[a, b], [c, d]]
      std::vector<Stmt*> el = elements(v, loc);
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
  auto one = [&](const ast::Expr* e, const std::string& spec) { print_kval(lower_expr(e), spec, e->loc); };
  for (size_t i = 0; i < c->args.size(); i++) {
    if (i) text(sep);
    const ast::Expr* a = c->args[i];
    if (const ast::Call* f = format_call(a)) {
      print_format(f, text, print_kval);
    } else if (a->kind == ast::ExprKind::JoinedStr) {
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
