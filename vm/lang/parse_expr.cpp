// Expressions: Python's grammar from `expression` down to `atom`.
#include <set>

#include "vm/lang/parser_impl.h"

namespace kiln::lang {

bool Parser::starts_expr(const Token& t) const {
  switch (t.kind) {
    case Tok::Int: case Tok::Float: case Tok::String: return true;
    case Tok::Name:
      return !is_keyword(t.text) || t.kw("None") || t.kw("True") || t.kw("False") || t.kw("not") ||
             t.kw("lambda") || t.kw("yield") || t.kw("await");
    case Tok::Op:
      return t.op("(") || t.op("[") || t.op("{") || t.op("-") || t.op("+") || t.op("~") || t.op("*") ||
             t.op("...");
    default: return false;
  }
}

// expression: lambda | disjunction ['if' disjunction 'else' expression]
Expr* Parser::expression() {
  if (at_kw("lambda")) return lambda();
  SourceLoc s = peek().loc;
  Expr* body = disjunction();
  if (at_op(":=") && body->kind == ExprKind::Name) {  // (name := value): binds name, yields the value
    take();
    auto* e = node<NamedExpr>(s);
    e->target = static_cast<Name*>(body);
    e->target->ctx = Ctx::Store;
    e->value = expression();
    return fin(e);
  }
  if (!at_kw("if")) return body;
  take();
  auto* e = node<IfExp>(s);
  e->body = body;
  e->test = disjunction();
  if (!accept_kw("else")) error("expected 'else' after 'if' expression", peek().loc);
  e->orelse = expression();
  return fin(e);
}

Expr* Parser::star_expression() {
  if (!at_op("*")) return expression();
  auto* e = node<Starred>(take().loc);
  e->value = binary(0);
  return fin(e);
}

// a, *b, c  (a trailing comma makes a one-tuple)
Expr* Parser::star_expressions() {
  SourceLoc s = peek().loc;
  Expr* first = star_expression();
  if (!at_op(",")) return first;
  auto* t = node<Tuple>(s);
  t->elts.push_back(first);
  while (accept_op(",")) {
    if (!starts_expr(peek())) break;
    t->elts.push_back(star_expression());
  }
  return fin(t);
}

Expr* Parser::disjunction() {
  SourceLoc s = peek().loc;
  Expr* first = conjunction();
  if (!at_kw("or")) return first;
  auto* e = node<BoolOp>(s);
  e->op = BoolOpKind::Or;
  e->values.push_back(first);
  while (accept_kw("or")) e->values.push_back(conjunction());
  return fin(e);
}

Expr* Parser::conjunction() {
  SourceLoc s = peek().loc;
  Expr* first = inversion();
  if (!at_kw("and")) return first;
  auto* e = node<BoolOp>(s);
  e->op = BoolOpKind::And;
  e->values.push_back(first);
  while (accept_kw("and")) e->values.push_back(inversion());
  return fin(e);
}

Expr* Parser::inversion() {
  if (!at_kw("not")) return comparison();
  auto* e = node<UnaryOp>(take().loc);
  e->op = UnaryOpKind::Not;
  e->operand = inversion();
  return fin(e);
}

// Chained: a < b <= c is one Compare with two ops.
Expr* Parser::comparison() {
  SourceLoc s = peek().loc;
  Expr* left = binary(0);
  Compare* cmp = nullptr;
  for (;;) {
    const Token& t = peek();
    CmpOpKind op;
    if (t.op("==")) op = CmpOpKind::Eq;
    else if (t.op("!=")) op = CmpOpKind::NotEq;
    else if (t.op("<")) op = CmpOpKind::Lt;
    else if (t.op("<=")) op = CmpOpKind::LtE;
    else if (t.op(">")) op = CmpOpKind::Gt;
    else if (t.op(">=")) op = CmpOpKind::GtE;
    else if (t.kw("in")) op = CmpOpKind::In;
    else if (t.kw("not") && peek(1).kw("in")) op = CmpOpKind::NotIn, take();
    else if (t.kw("is")) op = peek(1).kw("not") ? (take(), CmpOpKind::IsNot) : CmpOpKind::Is;
    else break;
    take();
    if (!cmp) {
      cmp = node<Compare>(s);
      cmp->left = left;
    }
    cmp->ops.push_back(op);
    cmp->comparators.push_back(binary(0));
  }
  return cmp ? fin(cmp) : left;
}

// The left-associative binary levels, loosest first: | ^ & shifts arith term,
// by precedence climbing: an operand is one factor() call, not a descent
// through every level (six calls per operand made binary expressions a fifth
// of the parse of a large kernel, issue 16). binary(level) parses operators of
// `level` or tighter; each right operand binds the levels above its operator's.
Expr* Parser::binary(int level) {
  struct OpName { uint64_t key; BinOpKind op; int level; };
  static constexpr OpName kOps[] = {
      {pack_key("|"), BinOpKind::BitOr, 0},    {pack_key("^"), BinOpKind::BitXor, 1},
      {pack_key("&"), BinOpKind::BitAnd, 2},   {pack_key("<<"), BinOpKind::LShift, 3},
      {pack_key(">>"), BinOpKind::RShift, 3},  {pack_key("+"), BinOpKind::Add, 4},
      {pack_key("-"), BinOpKind::Sub, 4},      {pack_key("*"), BinOpKind::Mult, 5},
      {pack_key("@"), BinOpKind::MatMult, 5},  {pack_key("/"), BinOpKind::Div, 5},
      {pack_key("//"), BinOpKind::FloorDiv, 5}, {pack_key("%"), BinOpKind::Mod, 5}};
  SourceLoc s = peek().loc;
  Expr* left = factor();
  for (;;) {
    const Token& t = peek();
    const OpName* hit = nullptr;
    if (t.kind == Tok::Op)
      for (const OpName& o : kOps)
        if (t.key == o.key) hit = &o;
    if (!hit || hit->level < level) return left;
    drop();
    auto* e = node<BinOp>(s);
    e->left = left;
    e->op = hit->op;
    e->right = binary(hit->level + 1);
    left = fin(e);
  }
}

// factor: ('+' | '-' | '~') factor | power. So -2**2 is -(2**2).
Expr* Parser::factor() {
  const Token& t = peek();
  UnaryOpKind op;
  if (t.op("-")) op = UnaryOpKind::USub;
  else if (t.op("+")) op = UnaryOpKind::UAdd;
  else if (t.op("~")) op = UnaryOpKind::Invert;
  else return power();
  // -9223372036854775808 is the one literal whose magnitude exceeds i64: fold it.
  if (op == UnaryOpKind::USub && peek(1).kind == Tok::Int && peek(1).ival == (uint64_t)1 << 63 &&
      !peek(2).op("**") && !peek(2).op(".") && !peek(2).op("(") && !peek(2).op("[")) {
    SourceLoc s = take().loc;
    Expr* c = int_constant(take(), true);
    c->loc = s;
    return c;
  }
  auto* e = node<UnaryOp>(take().loc);
  e->op = op;
  e->operand = factor();
  return fin(e);
}

// power: primary ['**' factor] -- right-associative through factor.
Expr* Parser::power() {
  SourceLoc s = peek().loc;
  Expr* base = primary();
  if (!at_op("**")) return base;
  take();
  auto* e = node<BinOp>(s);
  e->left = base;
  e->op = BinOpKind::Pow;
  e->right = factor();
  return fin(e);
}

// primary: atom followed by .name, (args) and [slices] trailers.
Expr* Parser::primary() {
  SourceLoc s = peek().loc;
  Expr* e = atom();
  for (;;) {
    if (accept_op(".")) {
      auto* a = node<Attribute>(s);
      a->value = e;
      a->attr = expect_name();
      e = fin(a);
    } else if (at_op("(")) {
      take();
      auto* c = node<Call>(s);
      c->func = e;
      call_args(c);
      e = fin(c);
    } else if (accept_op("[")) {
      auto* sub = node<Subscript>(s);
      sub->value = e;
      sub->slice = slices();
      expect_op("]");
      e = fin(sub);
    } else {
      return e;
    }
  }
}

Expr* Parser::int_constant(const Token& t, bool negate) {
  auto* c = node<Constant>(t.loc);
  c->tag = Constant::Tag::Int;
  if (negate) {
    c->i = INT64_MIN;
  } else {
    if (t.ival > (uint64_t)INT64_MAX) error("integer literal too large for 64 bits", t.loc);
    c->i = (int64_t)t.ival;
  }
  c->end = t.end;
  return c;
}

Expr* Parser::atom() {
  const Token& t = peek();
  switch (t.kind) {
    case Tok::Int: return int_constant(take(), false);
    case Tok::Float: {
      Token tk = take();
      auto* c = node<Constant>(tk.loc);
      c->tag = Constant::Tag::Float;
      c->f = tk.fval;
      return fin(c);
    }
    case Tok::String: return strings();
    case Tok::Name: {
      if (t.kw("None") || t.kw("True") || t.kw("False")) {
        Token tk = take();
        auto* c = node<Constant>(tk.loc);
        c->tag = tk.kw("None") ? Constant::Tag::None : Constant::Tag::Bool;
        c->b = tk.kw("True");
        return fin(c);
      }
      if (t.kw("yield") || t.kw("await")) {
        unsupported("'" + t.text + "' is not supported by Kiln", t.loc);
        bool await = take().text == "await";
        if (await) return primary();
        accept_kw("from");
        if (starts_expr(peek())) return star_expressions();
        return fin(node<Constant>(prev_end_));
      }
      if (is_keyword(t.text)) invalid_syntax();
      Token tk = take();
      auto* n = node<Name>(tk.loc);
      n->id = tk.text;
      return fin(n);
    }
    case Tok::Op:
      if (t.op("(")) return paren();
      if (t.op("[")) return list_display();
      if (t.op("{")) return brace_display();
      if (t.op("...")) {
        auto* c = node<Constant>(take().loc);
        c->tag = Constant::Tag::Ellipsis;
        return fin(c);
      }
      if (t.op("*")) error("cannot use starred expression here", t.loc);
      [[fallthrough]];
    default: invalid_syntax();
  }
}

// ( ) | (expr) | (a, b) | (x for ...)
Expr* Parser::paren() {
  SourceLoc open = take().loc;
  if (accept_op(")")) return fin(node<Tuple>(open));
  Expr* first = star_expression();
  comma_check(first);
  if (at_kw("for")) {
    auto* g = node<GeneratorExp>(open);
    g->elt = first;
    g->generators = comp_for();
    expect_op(")");
    return fin(g);
  }
  if (accept_op(")")) {
    if (first->kind == ExprKind::Starred) error("cannot use starred expression here", first->loc);
    return first;  // keeps its own loc, as CPython does
  }
  auto* t = node<Tuple>(open);
  t->elts.push_back(first);
  while (accept_op(",")) {
    if (at_op(")")) break;
    t->elts.push_back(star_expression());
    comma_check(t->elts.back());
  }
  expect_op(")");
  return fin(t);
}

Expr* Parser::list_display() {
  SourceLoc open = take().loc;
  if (accept_op("]")) return fin(node<List>(open));
  Expr* first = star_expression();
  comma_check(first);
  if (at_kw("for")) {
    auto* c = node<ListComp>(open);
    c->elt = first;
    c->generators = comp_for();
    expect_op("]");
    return fin(c);
  }
  auto* l = node<List>(open);
  l->elts.push_back(first);
  while (accept_op(",")) {
    if (at_op("]")) break;
    l->elts.push_back(star_expression());
    comma_check(l->elts.back());
  }
  expect_op("]");
  return fin(l);
}

// Dicts and dict comprehensions. The AST has no Set, so set displays are refused.
Expr* Parser::brace_display() {
  SourceLoc open = take().loc;
  auto* d = node<Dict>(open);
  if (accept_op("}")) return fin(d);
  bool first = true;
  do {
    if (at_op("}")) break;
    if (accept_op("**")) {
      d->keys.push_back(nullptr);
      d->values.push_back(binary(0));
      comma_check(d->values.back());
    } else {
      Expr* k = star_expression();
      comma_check(k);
      if (!at_op(":")) {  // a set display or comprehension
        unsupported("set literals are not supported by Kiln", open);
        if (first && at_kw("for")) comp_for();
        while (accept_op(",") && !at_op("}")) star_expression();
        expect_op("}");
        return fin(d);
      }
      take();
      Expr* v = expression();
      comma_check(v);
      if (first && at_kw("for")) {
        auto* c = node<DictComp>(open);
        c->key = k;
        c->value = v;
        c->generators = comp_for();
        expect_op("}");
        return fin(c);
      }
      d->keys.push_back(k);
      d->values.push_back(v);
    }
    first = false;
  } while (accept_op(","));
  expect_op("}");
  return fin(d);
}

// x[i] | x[i, j] (Tuple) | x[a:b:c, i]
Expr* Parser::slices() {
  SourceLoc s = peek().loc;
  Expr* first = slice_item();
  comma_check(first);
  if (!at_op(",")) return first;
  auto* t = node<Tuple>(s);
  t->elts.push_back(first);
  while (accept_op(",")) {
    if (at_op("]")) break;
    t->elts.push_back(slice_item());
    comma_check(t->elts.back());
  }
  return fin(t);
}

Expr* Parser::slice_item() {
  SourceLoc s = peek().loc;
  Expr* lower = nullptr;
  if (!at_op(":")) {
    lower = star_expression();
    if (!at_op(":")) return lower;
  }
  take();
  auto* sl = node<Slice>(s);
  sl->lower = lower;
  if (!at_op(":") && !at_op(",") && !at_op("]")) sl->upper = expression();
  if (accept_op(":") && !at_op(",") && !at_op("]")) sl->step = expression();
  return fin(sl);
}

// After '(': positional, *it, name=v, **kw, or one bare generator expression.
void Parser::call_args(Call* call) {
  bool seen_kw = false, seen_kwunpack = false;
  while (!at_op(")")) {
    const Token& t = peek();
    if (t.op("*")) {
      if (seen_kwunpack) error("iterable argument unpacking follows keyword argument unpacking", t.loc);
      auto* s = node<Starred>(take().loc);
      s->value = expression();
      call->args.push_back(fin(s));
      comma_check(s);
    } else if (t.op("**")) {
      auto* k = node<Keyword>(take().loc);
      k->value = expression();
      call->keywords.push_back(fin(k));
      comma_check(k->value);
      seen_kwunpack = true;
    } else if (t.kind == Tok::Name && !is_keyword(t.text) && peek(1).op("=")) {
      auto* k = node<Keyword>(t.loc);
      k->arg = take().text;
      take();
      k->value = expression();
      for (auto* other : call->keywords)
        if (other->arg == k->arg) error("keyword argument repeated: " + k->arg, k->loc);
      call->keywords.push_back(fin(k));
      comma_check(k->value);
      seen_kw = true;
    } else {
      Expr* e = expression();
      if (at_kw("for")) {
        auto* g = node<GeneratorExp>(e->loc);
        g->elt = e;
        g->generators = comp_for();
        fin(g);
        if (!call->args.empty() || !call->keywords.empty() || at_op(","))
          error("Generator expression must be parenthesized", g->loc);
        e = g;
      }
      if (at_op("="))
        error("expression cannot contain assignment, perhaps you meant \"==\"?", e->loc);
      if (seen_kwunpack) error("positional argument follows keyword argument unpacking", e->loc);
      if (seen_kw) error("positional argument follows keyword argument", e->loc);
      call->args.push_back(e);
      comma_check(e);
    }
    if (!accept_op(",")) break;
  }
  expect_op(")");
}

std::vector<Comprehension> Parser::comp_for() {
  std::vector<Comprehension> gens;
  while (accept_kw("for")) {
    Comprehension c;
    c.target = target_list(TargetUse::Comp);
    expect_kw("in");
    c.iter = disjunction();
    while (accept_kw("if")) c.ifs.push_back(disjunction());
    gens.push_back(std::move(c));
  }
  return gens;
}

// star_targets up to `in`: a | a, b | *a, b | (a, b), c
Expr* Parser::target_list(TargetUse use) {
  SourceLoc s = peek().loc;
  auto one = [&]() -> Expr* {
    if (!at_op("*")) return binary(0);
    auto* st = node<Starred>(take().loc);
    st->value = binary(0);
    return fin(st);
  };
  Expr* first = one();
  Expr* result = first;
  if (at_op(",")) {
    auto* t = node<Tuple>(s);
    t->elts.push_back(first);
    while (accept_op(",")) {
      if (!starts_expr(peek())) break;
      t->elts.push_back(one());
    }
    result = fin(t);
  }
  set_ctx(result, Ctx::Store, use);
  return result;
}

Expr* Parser::lambda() {
  auto* l = node<Lambda>(take().loc);
  parameters(l->args, true, ":");
  expect_op(":");
  l->body = expression();
  return fin(l);
}

// Parameters of def (closer ")") or lambda (closer ":"). A '/' marker is
// accepted; Kiln treats positional-only parameters as ordinary ones.
void Parser::parameters(Arguments& a, bool is_lambda, const char* closer) {
  bool seen_default = false, seen_star = false;
  SourceLoc star_loc;
  std::set<std::string> names;
  auto arg = [&]() {
    const Token& t = peek();
    if (t.kind != Tok::Name || is_keyword(t.text)) invalid_syntax();
    auto* x = node<Arg>(t.loc);
    x->name = take().text;
    if (!names.insert(x->name).second)
      error("duplicate argument '" + x->name + "' in function definition", x->loc);
    if (!is_lambda && accept_op(":")) x->annotation = expression();
    return fin(x);
  };
  while (!at_op(closer)) {
    if (at_op("/")) {
      if (seen_star || a.args.empty()) error("at least one argument must precede /", peek().loc);
      take();
    } else if (accept_op("**")) {
      a.kwarg = arg();
      if (at_op("=")) error("var-keyword argument cannot have default value", peek().loc);
      accept_op(",");
      if (!at_op(closer)) error("arguments cannot follow var-keyword argument", peek().loc);
      break;
    } else if (at_op("*")) {
      star_loc = peek().loc;
      take();
      if (seen_star) error("* argument may appear only once", star_loc);
      seen_star = true;
      if (!at_op(",") && !at_op(closer)) {
        a.vararg = arg();
        if (at_op("=")) error("var-positional argument cannot have default value", peek().loc);
      }
    } else {
      Arg* x = arg();
      Expr* def = nullptr;
      if (accept_op("=")) def = expression();
      if (seen_star) {
        a.kwonlyargs.push_back(x);
        a.kw_defaults.push_back(def);
      } else {
        if (def) {
          a.defaults.push_back(def);
          seen_default = true;
        } else if (seen_default) {
          error("non-default argument follows default argument", x->loc);
        }
        a.args.push_back(x);
      }
    }
    if (!accept_op(",")) break;
  }
  if (seen_star && !a.vararg && a.kwonlyargs.empty()) error("named arguments must follow bare *", star_loc);
}

}  // namespace kiln::lang
