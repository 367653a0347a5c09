// Statements, the token buffer, assignment-target checking, and ast::parse.
#include "vm/lang/parser_impl.h"

namespace kiln::lang {

// ---- tokens ---------------------------------------------------------------

const Token& Parser::fill(size_t k) {
  if (k >= kLookahead) raise("InternalError", "parser lookahead past " + std::to_string(kLookahead - 1) + " tokens");
  while (count_ <= k) buf_[(head_ + count_++) % kLookahead] = lex_.next();
  return buf_[(head_ + k) % kLookahead];
}

void Parser::drop() {
  const Token& t = peek();
  // Node ends exclude NEWLINE/INDENT/DEDENT, which have no text of their own.
  if (t.kind != Tok::Newline && t.kind != Tok::Indent && t.kind != Tok::Dedent && t.kind != Tok::End)
    prev_end_ = t.end;
  head_ = (head_ + 1) % kLookahead;
  count_--;
}

Token Parser::take() {
  peek();
  Token t = std::move(buf_[head_]);  // drop() reads only its kind and end, which a move keeps
  drop();
  return t;
}

void Parser::expect_op(std::string_view o) {
  if (accept_op(o)) return;
  if (o == "(") error("expected '('", peek().loc);
  invalid_syntax();
}

void Parser::expect_kw(std::string_view k) {
  if (!accept_kw(k)) invalid_syntax();
}

std::string Parser::expect_name() {
  const Token& t = peek();
  if (t.kind != Tok::Name || is_keyword(t.text)) invalid_syntax();
  return take().text;
}

void Parser::error(const std::string& msg, SourceLoc loc) { error_kind("SyntaxError", msg, loc); }

void Parser::error_kind(const char* kind, const std::string& msg, SourceLoc loc) {
  failed_ = true;
  raise(kind, msg, loc);
}

void Parser::invalid_syntax() {
  const Token& t = peek();
  if (t.kind == Tok::Indent) error_kind("IndentationError", "unexpected indent", t.loc);
  if (t.kind == Tok::Dedent) error_kind("IndentationError", "unexpected unindent", t.loc);
  error("invalid syntax", t.loc);
}

// Inside brackets, `a b` is most likely a missing comma.
void Parser::comma_check(const Expr* elem) {
  const Token& t = peek();
  if (!starts_expr(t) || t.kw("not") || t.op("*") || t.op("-") || t.op("+")) return;
  if (elem->kind == ExprKind::Name && t.kind == Tok::String) return;
  // CPython parses the second expression before complaining, so running into
  // the end of the file inside the brackets reports the unclosed bracket.
  SourceLoc at = elem->loc;
  expression();
  if (accept_op("=")) expression();  // its "a = b" rule looks past b too
  peek();
  error("invalid syntax. Perhaps you forgot a comma?", at);
}

// CPython tokenizes the rest of the source before reporting a parser error,
// and a tokenizer error found there wins; "'(' was never closed" wins only if
// that bracket opened on an earlier line than the error.
void Parser::prefer_tokenizer_error(const Error& parser_error) {
  // An unexpected INDENT/DEDENT is reported as is (CPython raises it without
  // looking further).
  if (parser_error.message == "unexpected indent" || parser_error.message == "unexpected unindent") return;
  try {
    while (lex_.next().kind != Tok::End) {
    }
  } catch (const Error& e) {
    // CPython's tokenizer reports these through its status code, not an
    // exception, so its rescan doesn't see them.
    if (e.kind != "SyntaxError" || e.message == "unexpected character after line continuation character" ||
        e.message == "unexpected EOF while parsing")
      return;
    if (e.message.ends_with("was never closed") && e.loc.line >= parser_error.loc.line) return;
    throw;
  }
}

// ---- assignment targets ----------------------------------------------------

const char* expr_noun(const Expr* e) {
  switch (e->kind) {
    case ExprKind::Name: return "name";
    case ExprKind::Attribute: return "attribute";
    case ExprKind::Subscript: return "subscript";
    case ExprKind::Starred: return "starred";
    case ExprKind::Tuple: return "tuple";
    case ExprKind::List: return "list";
    case ExprKind::Lambda: return "lambda";
    case ExprKind::Call: return "function call";
    case ExprKind::BoolOp: case ExprKind::BinOp: case ExprKind::UnaryOp: return "expression";
    case ExprKind::GeneratorExp: return "generator expression";
    case ExprKind::ListComp: return "list comprehension";
    case ExprKind::DictComp: return "dict comprehension";
    case ExprKind::Dict: return "dict literal";
    case ExprKind::JoinedStr: case ExprKind::FormattedValue: return "f-string expression";
    case ExprKind::Compare: return "comparison";
    case ExprKind::IfExp: return "conditional expression";
    case ExprKind::NamedExpr: return "named expression";
    case ExprKind::Slice: return "slice";
    case ExprKind::Constant: {
      auto* c = e->as<Constant>();
      if (c->tag == Constant::Tag::None) return "None";
      if (c->tag == Constant::Tag::Bool) return c->b ? "True" : "False";
      if (c->tag == Constant::Tag::Ellipsis) return "ellipsis";
      return "literal";
    }
  }
  return "expression";
}

// Marks e (recursively through Tuple/List/Starred) as a Store/Del target, or
// raises CPython's message at the first sub-expression that cannot be one.
// `last_target`: e is directly followed by "= value" (the "Maybe you meant
// '=='" hint applies, as in CPython's invalid_named_expression rule).
void Parser::set_ctx(Expr* e, Ctx ctx, TargetUse use, bool last_target) {
  switch (e->kind) {
    case ExprKind::Name: e->as<Name>()->ctx = ctx; return;
    case ExprKind::Attribute: e->as<Attribute>()->ctx = ctx; return;
    case ExprKind::Subscript: e->as<Subscript>()->ctx = ctx; return;
    case ExprKind::Starred:
      if (use == TargetUse::Del) break;
      e->as<Starred>()->ctx = ctx;
      set_ctx(e->as<Starred>()->value, ctx, use);
      return;
    case ExprKind::Tuple:
      e->as<Tuple>()->ctx = ctx;
      for (auto* x : e->as<Tuple>()->elts) set_ctx(x, ctx, use);
      return;
    case ExprKind::List:
      e->as<List>()->ctx = ctx;
      for (auto* x : e->as<List>()->elts) set_ctx(x, ctx, use);
      return;
    default: break;
  }
  std::string noun = expr_noun(e);
  if (use == TargetUse::Del) error("cannot delete " + noun, e->loc);
  bool hint = last_target && use == TargetUse::Assign;
  if (e->kind == ExprKind::Compare || e->kind == ExprKind::BoolOp || e->kind == ExprKind::IfExp ||
      e->kind == ExprKind::Lambda || (e->kind == ExprKind::UnaryOp && e->as<UnaryOp>()->op == UnaryOpKind::Not))
    hint = false;
  if (e->kind == ExprKind::Constant && noun != "literal" && noun != "ellipsis") hint = false;
  error("cannot assign to " + noun + (hint ? " here. Maybe you meant '==' instead of '='?" : ""), e->loc);
}

// ---- statements ------------------------------------------------------------

static std::string on_line(const char* what, SourceLoc loc) {
  return std::string(what) + " on line " + std::to_string(loc.line);
}

Body Parser::file_input() {
  Body body;
  while (peek().kind != Tok::End) {
    if (peek().kind == Tok::Newline) {
      take();
      continue;
    }
    statement(body);
  }
  if (unsupported_) {
    failed_ = true;
    throw *unsupported_;
  }
  return body;
}

void Parser::unsupported(const std::string& msg, SourceLoc loc) {
  if (!unsupported_) unsupported_ = Error("SyntaxError", msg, loc);
}

// with a as b, c: ... -- parsed only to report syntax errors in it first.
void Parser::with_stmt() {
  SourceLoc s = take().loc;
  unsupported("'with' statements are not supported by Kiln", s);
  bool paren = accept_op("(");
  do {
    if (paren && at_op(")")) break;
    expression();
    if (accept_kw("as")) target_list(TargetUse::Assign);
  } while (accept_op(","));
  if (paren) expect_op(")");
  block(on_line("'with' statement", s));
}

void Parser::statement(Body& out) {
  const Token& t = peek();
  if (t.op("@")) {
    out.push_back(decorated());
    return;
  }
  if (t.kind == Tok::Name) {
    const uint64_t k = t.key;  // 0 for names longer than any keyword
    if (k == pack_key("if")) return out.push_back(if_stmt(false));
    if (k == pack_key("for")) return out.push_back(for_stmt());
    if (k == pack_key("while")) return out.push_back(while_stmt());
    if (k == pack_key("try")) return out.push_back(try_stmt());
    if (k == pack_key("def")) return out.push_back(funcdef(t.loc, {}));
    if (k == pack_key("class")) return out.push_back(classdef(t.loc, {}));
    if (k == pack_key("with")) return with_stmt();
    if (k == pack_key("async")) {  // async def / for / with
      unsupported("'async' is not supported by Kiln", take().loc);
      if (!at_kw("def") && !at_kw("for") && !at_kw("with")) invalid_syntax();
      Body dropped;
      return statement(dropped);
    }
  }
  if (t.kind == Tok::Indent) invalid_syntax();
  simple_stmts(out);
}

void Parser::simple_stmts(Body& out) {
  for (;;) {
    out.push_back(simple_stmt());
    if (!accept_op(";")) break;
    if (peek().kind == Tok::Newline || peek().kind == Tok::End) break;
  }
  if (peek().kind == Tok::End) return;  // REPL chunks may end without NEWLINE
  if (peek().kind != Tok::Newline) invalid_syntax();
  take();
}

Stmt* Parser::simple_stmt() {
  const Token& t = peek();
  SourceLoc s = t.loc;
  if (t.kind != Tok::Name) return expr_or_assign();
  const uint64_t k = t.key;  // 0 for names longer than any keyword
  if (k == pack_key("pass")) return take(), fin(node<Pass>(s));
  if (k == pack_key("break")) return take(), fin(node<Break>(s));
  if (k == pack_key("continue")) return take(), fin(node<Continue>(s));
  if (k == pack_key("return")) {
    take();
    auto* r = node<Return>(s);
    if (starts_expr(peek())) r->value = star_expressions();
    return fin(r);
  }
  if (k == pack_key("raise")) {
    take();
    auto* r = node<Raise>(s);
    if (starts_expr(peek())) {
      r->exc = expression();
      if (accept_kw("from")) r->cause = expression();
    }
    return fin(r);
  }
  if (k == pack_key("global") || k == pack_key("nonlocal")) {
    take();
    std::vector<std::string> names;
    do names.push_back(expect_name());
    while (accept_op(","));
    if (k == pack_key("global")) {
      auto* g = node<Global>(s);
      g->names = std::move(names);
      return fin(g);
    }
    auto* g = node<Nonlocal>(s);
    g->names = std::move(names);
    return fin(g);
  }
  if (k == pack_key("del")) {
    take();
    auto* d = node<Delete>(s);
    do {
      if (!starts_expr(peek())) break;
      Expr* e = binary(0);
      set_ctx(e, Ctx::Del, TargetUse::Del);
      d->targets.push_back(e);
    } while (accept_op(","));
    if (d->targets.empty()) invalid_syntax();
    return fin(d);
  }
  if (k == pack_key("assert")) {
    take();
    auto* a = node<Assert>(s);
    a->test = expression();
    if (accept_op(",")) a->msg = expression();
    return fin(a);
  }
  if (k == pack_key("import")) return import_stmt();
  if (k == pack_key("from")) return from_stmt();
  return expr_or_assign();
}

// Expression statement, a = b = v, a += v, or a: T [= v].
Stmt* Parser::expr_or_assign() {
  SourceLoc s = peek().loc;
  Expr* first = star_expressions();
  if (at_op(":")) {
    take();
    auto* a = node<AnnAssign>(s);
    a->annotation = expression();  // parsed first: with no annotation CPython says "invalid syntax"
    if (first->kind == ExprKind::Tuple) error("only single target (not tuple) can be annotated", first->loc);
    if (first->kind == ExprKind::List) error("only single target (not list) can be annotated", first->loc);
    if (first->kind != ExprKind::Name && first->kind != ExprKind::Attribute && first->kind != ExprKind::Subscript)
      error("illegal target for annotation", first->loc);
    set_ctx(first, Ctx::Store, TargetUse::Assign);
    a->target = first;
    if (accept_op("=")) a->value = star_expressions();
    return fin(a);
  }
  static const std::pair<const char*, BinOpKind> aug[] = {
      {"+=", BinOpKind::Add}, {"-=", BinOpKind::Sub}, {"*=", BinOpKind::Mult}, {"@=", BinOpKind::MatMult},
      {"/=", BinOpKind::Div}, {"//=", BinOpKind::FloorDiv}, {"%=", BinOpKind::Mod}, {"**=", BinOpKind::Pow},
      {"<<=", BinOpKind::LShift}, {">>=", BinOpKind::RShift}, {"|=", BinOpKind::BitOr},
      {"^=", BinOpKind::BitXor}, {"&=", BinOpKind::BitAnd}};
  for (auto& [sym, op] : aug) {
    if (!at_op(sym)) continue;
    if (first->kind != ExprKind::Name && first->kind != ExprKind::Attribute && first->kind != ExprKind::Subscript)
      error(std::string("'") + expr_noun(first) + "' is an illegal expression for augmented assignment", first->loc);
    take();
    set_ctx(first, Ctx::Store, TargetUse::Assign);
    auto* a = node<AugAssign>(s);
    a->target = first;
    a->op = op;
    a->value = star_expressions();
    return fin(a);
  }
  if (at_op("=")) {
    auto* a = node<Assign>(s);
    Expr* cur = first;
    while (accept_op("=")) {
      a->targets.push_back(cur);
      cur = star_expressions();
    }
    for (size_t i = 0; i < a->targets.size(); i++) {
      Expr* t = a->targets[i];
      if (t->kind == ExprKind::Starred)
        error("starred assignment target must be in a list or tuple", t->loc);
      set_ctx(t, Ctx::Store, TargetUse::Assign, i + 1 == a->targets.size());
    }
    a->value = cur;
    return fin(a);
  }
  auto* e = node<ExprStmt>(s);
  e->value = first;
  return fin(e);
}

namespace {
std::string dotted(Parser& p) {
  std::string name = p.expect_name();
  while (p.accept_op(".")) name += "." + p.expect_name();
  return name;
}
}  // namespace

Stmt* Parser::import_stmt() {
  auto* im = node<Import>(take().loc);
  do {
    Alias a;
    a.loc = peek().loc;
    a.name = dotted(*this);
    if (accept_kw("as")) a.asname = expect_name();
    im->names.push_back(std::move(a));
  } while (accept_op(","));
  return fin(im);
}

// from .mod import a as b, c | from x import (a, b,) | from x import *
// Relative imports keep their leading dots in `module` (the AST has no level).
Stmt* Parser::from_stmt() {
  auto* im = node<ImportFrom>(take().loc);
  while (at_op(".") || at_op("...")) im->module += take().text;
  if (!at_kw("import")) im->module += dotted(*this);
  expect_kw("import");
  if (at_op("*")) {
    Alias a;
    a.loc = peek().loc;
    a.name = take().text;
    im->names.push_back(a);
    return fin(im);
  }
  bool paren = accept_op("(");
  do {
    if (paren && at_op(")")) break;
    Alias a;
    a.loc = peek().loc;
    a.name = expect_name();
    if (accept_kw("as")) a.asname = expect_name();
    im->names.push_back(std::move(a));
  } while (accept_op(","));
  if (paren) expect_op(")");
  if (im->names.empty()) invalid_syntax();
  return fin(im);
}

// ':' then either simple statements on the same line or an indented block.
Body Parser::block(const std::string& after, bool forced_colon) {
  // CPython says "expected ':'" after def/else/try/finally headers, and after
  // the others only when the line ends where the ':' should be.
  if (!at_op(":") && (forced_colon || peek().kind == Tok::Newline)) error("expected ':'", peek().loc);
  expect_op(":");
  Body b;
  if (peek().kind != Tok::Newline) {
    simple_stmts(b);
    return b;
  }
  take();
  if (peek().kind != Tok::Indent)
    error_kind("IndentationError", "expected an indented block after " + after, peek().loc);
  take();
  while (peek().kind != Tok::Dedent && peek().kind != Tok::End) statement(b);
  if (peek().kind == Tok::Dedent) take();
  return b;
}


Stmt* Parser::if_stmt(bool is_elif) {
  auto* s = node<If>(take().loc);
  s->test = expression();
  s->body = block(on_line(is_elif ? "'elif' statement" : "'if' statement", s->loc));
  fin(s);
  if (at_kw("elif")) {
    s->orelse.push_back(if_stmt(true));
  } else if (at_kw("else")) {
    SourceLoc e = take().loc;
    s->orelse = block(on_line("'else' statement", e), true);
  }
  return fin(s);
}

Stmt* Parser::for_stmt() {
  auto* s = node<For>(take().loc);
  s->target = target_list(TargetUse::For);
  expect_kw("in");
  s->iter = star_expressions();
  s->body = block(on_line("'for' statement", s->loc));
  if (at_kw("else")) {
    SourceLoc e = take().loc;
    s->orelse = block(on_line("'else' statement", e), true);
  }
  return fin(s);
}

Stmt* Parser::while_stmt() {
  auto* s = node<While>(take().loc);
  s->test = expression();
  s->body = block(on_line("'while' statement", s->loc));
  if (at_kw("else")) {
    SourceLoc e = take().loc;
    s->orelse = block(on_line("'else' statement", e), true);
  }
  return fin(s);
}

Stmt* Parser::try_stmt() {
  auto* s = node<Try>(take().loc);
  s->body = block(on_line("'try' statement", s->loc), true);
  while (at_kw("except")) {
    auto* h = node<ExceptHandler>(take().loc);
    if (!s->handlers.empty() && !s->handlers.back()->type)
      error("default 'except:' must be last", s->handlers.back()->loc);
    if (!at_op(":")) {
      SourceLoc ts = peek().loc;
      h->type = expression();
      if (at_op(",")) error("multiple exception types must be parenthesized", ts);
      if (accept_kw("as")) h->name = expect_name();
    }
    h->body = block(on_line("'except' statement", h->loc));
    s->handlers.push_back(fin(h));
  }
  if (at_kw("else")) {
    if (s->handlers.empty()) invalid_syntax();
    SourceLoc e = take().loc;
    s->orelse = block(on_line("'else' statement", e), true);
  }
  if (at_kw("finally")) {
    SourceLoc e = take().loc;
    s->finalbody = block(on_line("'finally' statement", e), true);
  }
  if (s->handlers.empty() && s->finalbody.empty()) error("expected 'except' or 'finally' block", peek().loc);
  return fin(s);
}

Stmt* Parser::decorated() {
  SourceLoc s = peek().loc;
  ExprList decos;
  while (accept_op("@")) {
    decos.push_back(expression());
    if (peek().kind != Tok::Newline) invalid_syntax();
    take();
  }
  if (at_kw("def")) return funcdef(s, std::move(decos));
  if (at_kw("class")) return classdef(s, std::move(decos));
  invalid_syntax();
}

// loc is the first decorator's '@' when decorated, def_loc the `def` keyword.
Stmt* Parser::funcdef(SourceLoc loc, ExprList decorators) {
  auto* f = node<FunctionDef>(loc);
  f->def_loc = take().loc;
  f->decorators = std::move(decorators);
  f->name = expect_name();
  expect_op("(");
  parameters(f->args, false, ")");
  expect_op(")");
  if (accept_op("->")) f->returns = expression();
  f->body = block(on_line("function definition", f->def_loc), true);
  return fin(f);
}

Stmt* Parser::classdef(SourceLoc loc, ExprList decorators) {
  auto* c = node<ClassDef>(loc);
  SourceLoc kw = take().loc;
  c->decorators = std::move(decorators);
  c->name = expect_name();
  if (accept_op("(")) {
    while (!at_op(")")) {
      if (peek().kind == Tok::Name && peek(1).op("=")) {
        unsupported("class keyword arguments (metaclass=...) are not supported by Kiln", peek().loc);
        take(), take();
        expression();
      } else {
        c->bases.push_back(expression());
      }
      if (!accept_op(",")) break;
    }
    expect_op(")");
  }
  c->body = block(on_line("class definition", kw));
  return fin(c);
}

}  // namespace kiln::lang

namespace kiln::ast {

std::unique_ptr<Module> parse(const SourceFile* file) {
  auto mod = std::make_unique<Module>();
  mod->file = file;
  if (size_t nul = file->text.find('\0'); nul != std::string::npos)
    raise("SyntaxError", "source code string cannot contain null bytes", lang::loc_at(file, (uint32_t)nul));
  lang::Parser p(mod.get(), lang::Lexer(file));
  try {
    mod->body = p.file_input();
  } catch (const Error& e) {
    if (!p.failed_) throw;  // the tokenizer's own error
    Error original = e;
    p.prefer_tokenizer_error(original);
    throw original;
  }
  return mod;
}

}  // namespace kiln::ast
