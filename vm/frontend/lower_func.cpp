// ti.func calls in kernel scope: binding a call's arguments to the
// function's parameters, and inlining its body (arguments by value, a fresh
// local each; ti.template() parameters bind the caller's object itself).
#include "vm/frontend/lower.h"
#include "vm/support/format.h"

namespace kiln::frontend {

using ir::Stmt;
using ir::StmtKind;

// An expression of numbers, names and arithmetic only: evaluating it at
// compile time has no effects.
static bool is_arithmetic(const ast::Expr* e) {
  switch (e->kind) {
    case ast::ExprKind::Constant:
    case ast::ExprKind::Name: return true;
    case ast::ExprKind::BinOp: return is_arithmetic(e->as<ast::BinOp>()->left) && is_arithmetic(e->as<ast::BinOp>()->right);
    case ast::ExprKind::UnaryOp: return is_arithmetic(e->as<ast::UnaryOp>()->operand);
    default: return false;
  }
}

// Inlines a ti.func call: arguments are passed by value (a fresh local each),
// ti.template() parameters bind the caller's object itself.
std::vector<const ast::Expr*> Lowerer::call_args(const ast::FunctionDef* def, const ast::Call* c, size_t first,
                                                 const char* what) {
  const ast::Arguments& params = def->args;
  size_t np = params.args.size();
  if (params.vararg || params.kwarg || !params.kwonlyargs.empty())
    raise("TypeError", std::string(what) + " '" + def->name + "' may only have plain parameters", def->loc);
  if (c->args.size() + first > np)
    raise("TypeError", def->name + "() takes " + std::to_string(np - first) + " arguments (" + std::to_string(c->args.size()) + " given)", c->loc);
  std::vector<const ast::Expr*> exprs(np, nullptr);
  for (size_t i = 0; i < c->args.size(); i++) exprs[first + i] = c->args[i];
  for (auto* kw : c->keywords) {
    size_t i = 0;
    while (i < np && params.args[i]->name != kw->arg) i++;
    if (i == np) raise("TypeError", def->name + "() got an unexpected keyword argument '" + kw->arg + "'", kw->loc);
    if (exprs[i]) raise("TypeError", def->name + "() got multiple values for argument '" + kw->arg + "'", kw->loc);
    exprs[i] = kw->value;
  }
  return exprs;
}

KVal Lowerer::inline_func(const StaticValue& fn, const ast::Call* c, const KVal* self) {
  const ast::FunctionDef* def = fn.def;
  if (++func_depth > 64) raise("RecursionError", "ti.func '" + def->name + "' recurses too deeply (recursion needs ti.static to end at compile time)", c->loc);
  const ast::Arguments& params = def->args;
  size_t np = params.args.size();
  size_t first = self ? 1 : 0;  // parameters filled by the call's own arguments start here
  // Evaluate the arguments in the caller's frame.
  std::vector<const ast::Expr*> exprs = call_args(def, c, first, "ti.func");
  std::vector<KVal> vals(np);
  // An argument that folds to a number at compile time (`n - 1` of a template
  // n): a ti.template() parameter takes the number itself, so that ti.static
  // can end a compile-time recursion on it.
  std::vector<std::optional<StaticValue>> folded(np);
  // A caller's local variable given for a ti.template() parameter: the
  // parameter is that variable, so the func's assignments to it (color.rgb +=
  // ...) change the caller's, as in Taichi.
  std::vector<std::optional<Binding>> caller_local(np);
  size_t first_default = np - params.defaults.size();
  for (size_t i = 0; i < np; i++) {
    if (i == 0 && self) {
      vals[i] = *self;
    } else if (exprs[i]) {
      if (exprs[i]->kind == ast::ExprKind::Name)
        if (Binding* b = find_local(exprs[i]->as<ast::Name>()->id); b && b->kind == Binding::Kind::local) caller_local[i] = *b;
      vals[i] = lower_expr(exprs[i]);
      if (!vals[i].is_static() && is_arithmetic(exprs[i])) {
        try {
          StaticValue v = eval_static(exprs[i]);
          if (v.kind == StaticValue::Kind::integer || v.kind == StaticValue::Kind::floating || v.kind == StaticValue::Kind::boolean)
            folded[i] = v;
        } catch (const Error&) {  // not a compile-time value: the parameter takes the runtime one
        }
      }
    } else if (i >= first_default) {
      vals[i] = KVal::of(eval_static(params.defaults[i - first_default]));
    } else {
      raise("TypeError", def->name + "() missing required argument '" + params.args[i]->name + "'", c->loc);
    }
  }

  Frame fr;
  fr.def = def;
  fr.env = fn.handle;
  fr.scopes.emplace_back();
  fr.call_block = blocks.back();
  frames.push_back(std::move(fr));
  kernel.frames.push_back(ir::InlineFrame{cur_frame, def->name, c->loc});
  const int caller_frame = cur_frame;
  cur_frame = (int)kernel.frames.size() - 1;
  for (size_t i = 0; i < np; i++) {
    const ast::Arg* p = params.args[i];
    StaticValue ann;
    if (p->annotation) ann = eval_static(p->annotation);
    bool is_template = ann.kind == StaticValue::Kind::builtin && ann.s == "ti.template";
    if (is_template && folded[i]) vals[i] = KVal::of(*folded[i]);
    if (is_template && caller_local[i]) {
      bind(p->name, *caller_local[i]);
      continue;
    }
    Binding b;
    if (vals[i].is_struct()) {  // structs pass by value: the func gets its own copy
      KVal v = ann.kind == StaticValue::Kind::struct_type ? convert_to(vals[i], ann, "parameter '" + p->name + "'", c->loc) : vals[i];
      bind(p->name, struct_local(v, p->loc));
      continue;
    }
    // A shared array is passed as itself (the block's array), as in Taichi.
    if (is_template || is_shared(vals[i]) || vals[i].is_tuple() || (vals[i].is_static() && vals[i].s.kind != StaticValue::Kind::integer &&
                                             vals[i].s.kind != StaticValue::Kind::floating &&
                                             vals[i].s.kind != StaticValue::Kind::boolean)) {
      if (vals[i].is_tuple()) {
        b.kind = Binding::Kind::tuple;
        b.tuple = vals[i];
      } else if (vals[i].is_static()) {
        b.kind = Binding::Kind::static_;
        b.s = vals[i].s;
      } else {
        b.kind = Binding::Kind::value;
        b.stmt = vals[i].v;
        b.what = is_shared(vals[i]) ? "shared array" : "template argument";
      }
    } else {
      Stmt* v = value_of(vals[i], c->loc);
      Type t = ann.kind == StaticValue::Kind::dtype ? tensor_type(ann.prim, ann.rows, ann.cols, c->loc) : v->type;
      if (t.rows && !v->type.rows) v = broadcast(v, t, c->loc);
      if (t.rows != v->type.rows || t.cols != v->type.cols)
        raise("TypeError", "parameter '" + p->name + "' of '" + def->name + "' is " + shape_phrase(t) + ", got " +
                               shape_phrase(v->type), exprs[i] ? exprs[i]->loc : c->loc);
      b.kind = Binding::Kind::local;
      b.stmt = emit_alloca(t, c->loc);  // the prologue sits on the call's line
      emit_store(b.stmt, convert_for_store(v, t.prim, "parameter '" + p->name + "'", c->loc), c->loc);
    }
    bind(p->name, std::move(b));
  }
  if (def->returns) {
    StaticValue rt = eval_static(def->returns);
    if (rt.kind == StaticValue::Kind::dtype) {
      frame().ret_type = tensor_type(rt.prim, rt.rows, rt.cols, def->returns->loc);
      frame().has_ret_annotation = true;
      frame().ret_shape_from_value = rt.rows == 0;
    } else if (rt.kind == StaticValue::Kind::struct_type) {
      frame().ret_struct_type = rt;
    } else if (rt.kind != StaticValue::Kind::none) {
      raise("TypeError", "unsupported return type annotation for ti.func '" + def->name + "'", def->returns->loc);
    }
  }
  if (frame().has_ret_annotation && !frame().ret_shape_from_value) frame().ret_slot = emit_alloca(frame().ret_type, def->loc);
  frame().call_pos = blocks.back()->stmts.size();
  // A return before the end leaves the body through a one-shot loop's break.
  bool simple = true;
  std::vector<const ast::Stmt*> stack;
  for (size_t i = 0; i + 1 < def->body.size(); i++) stack.push_back(def->body[i]);
  if (!def->body.empty() && def->body.back()->kind != ast::StmtKind::Return) stack.push_back(def->body.back());
  while (!stack.empty() && simple) {
    const ast::Stmt* s = stack.back();
    stack.pop_back();
    switch (s->kind) {
      case ast::StmtKind::Return: simple = false; break;
      case ast::StmtKind::If:
        for (auto* x : s->as<ast::If>()->body) stack.push_back(x);
        for (auto* x : s->as<ast::If>()->orelse) stack.push_back(x);
        break;
      case ast::StmtKind::For:
        for (auto* x : s->as<ast::For>()->body) stack.push_back(x);
        break;
      case ast::StmtKind::While:
        for (auto* x : s->as<ast::While>()->body) stack.push_back(x);
        break;
      default: break;
    }
  }
  if (simple) {
    frame().body_blocks = blocks.size();
    lower_body(def->body);
  } else {
    auto w = std::make_unique<Stmt>(StmtKind::while_);
    Stmt* loop = emit(std::move(w), def->loc);
    frame().ret_loop = loop;
    push_block(loop);
    frame().body_blocks = blocks.size();
    lower_body(def->body);
    auto br = std::make_unique<Stmt>(StmtKind::break_);
    br->loop = loop;
    emit(std::move(br), def->loc);
    pop_block();
  }
  if (frame().has_ret_annotation && frame().returns_seen == 0 && !frame().has_ret_struct && !frame().has_ret_tuple)
    raise("SyntaxError", "ti.func '" + def->name + "' has a return type annotation but no return statement", def->loc);
  KVal result;
  if (frame().ret_slot) result = KVal::of(emit_load(frame().ret_slot, c->loc));
  if (frame().has_ret_struct) result = load_binding(frame().ret_struct, c->loc);
  if (frame().has_ret_tuple) {
    result.kind = KVal::Kind::tuple;
    for (auto& b : frame().ret_tuple) result.elems.push_back(load_binding(b, c->loc));
  }
  frames.pop_back();
  cur_frame = caller_frame;
  func_depth--;
  return result;
}

}  // namespace kiln::frontend
