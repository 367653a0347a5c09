// AST names, operator spellings, and unparse (Python's ast.unparse rules for
// parentheses: a sub-expression is parenthesized only when its precedence is
// lower than its position requires).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "vm/lang/ast.h"

namespace kiln::ast {

const char* expr_kind_name(ExprKind k) {
  switch (k) {
#define KILN_AST_NAME(n) case ExprKind::n: return #n;
    KILN_EXPR_KINDS(KILN_AST_NAME)
#undef KILN_AST_NAME
  }
  return "?";
}

const char* stmt_kind_name(StmtKind k) {
  switch (k) {
#define KILN_AST_NAME(n) case StmtKind::n: return #n;
    KILN_STMT_KINDS(KILN_AST_NAME)
#undef KILN_AST_NAME
  }
  return "?";
}

const char* op_symbol(BinOpKind k) {
  static const char* const s[] = {"+", "-", "*", "@", "/", "//", "%", "**", "<<", ">>", "|", "^", "&"};
  return s[(int)k];
}
const char* op_symbol(UnaryOpKind k) {
  static const char* const s[] = {"+", "-", "not", "~"};
  return s[(int)k];
}
const char* op_symbol(BoolOpKind k) { return k == BoolOpKind::And ? "and" : "or"; }
const char* op_symbol(CmpOpKind k) {
  static const char* const s[] = {"==", "!=", "<", "<=", ">", ">=", "is", "is not", "in", "not in"};
  return s[(int)k];
}

namespace {

enum Prec : int { NAMED, TUPLE, TEST, OR, AND, NOT, CMP, BOR, BXOR, BAND, SHIFT, ARITH, TERM, FACTOR, POWER, ATOM };

Prec binop_prec(BinOpKind k) {
  switch (k) {
    case BinOpKind::Add: case BinOpKind::Sub: return ARITH;
    case BinOpKind::Mult: case BinOpKind::MatMult: case BinOpKind::Div: case BinOpKind::FloorDiv:
    case BinOpKind::Mod: return TERM;
    case BinOpKind::Pow: return POWER;
    case BinOpKind::LShift: case BinOpKind::RShift: return SHIFT;
    case BinOpKind::BitOr: return BOR;
    case BinOpKind::BitXor: return BXOR;
    case BinOpKind::BitAnd: return BAND;
  }
  return ATOM;
}

// Python's repr(float): shortest round-trip digits, fixed notation for
// exponents in [-4, 16), otherwise d.ddde+XX.
std::string float_repr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "1e309" : "-1e309";  // as ast.unparse spells inf
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string sci(buf, r.ptr);
  size_t epos = sci.find('e');
  std::string mant = sci.substr(0, epos);
  int exp = std::stoi(sci.substr(epos + 1));
  bool neg = mant[0] == '-';
  if (neg) mant.erase(0, 1);
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;
  std::string out;
  if (exp >= -4 && exp < 16) {
    if (exp < 0) {
      out = "0." + std::string(-exp - 1, '0') + digits;
    } else if ((int)digits.size() <= exp + 1) {
      out = digits + std::string(exp + 1 - digits.size(), '0') + ".0";
    } else {
      out = digits.substr(0, exp + 1) + "." + digits.substr(exp + 1);
    }
  } else {
    out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char e[16];
    snprintf(e, sizeof e, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
    out += e;
  }
  return neg ? "-" + out : out;
}

// The non-ASCII code points that Python's str.isprintable() rejects and repr
// escapes, for the ranges that occur in practice: C1 controls, Unicode
// spaces other than ' ', format characters, line/paragraph separators.
bool unprintable(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0xA0) || cp == 0xAD || (cp >= 0x2000 && cp <= 0x200F) ||
         (cp >= 0x2028 && cp <= 0x202F) || (cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 || cp == 0xFEFF ||
         (cp >= 0xD800 && cp <= 0xDFFF) || (cp >= 0xE000 && cp <= 0xF8FF) || cp == 0x1680 || cp == 0x180E ||
         (cp >= 0xFFF9 && cp <= 0xFFFB);
}

// Python's repr(str): single quotes unless the text has ' and no ".
std::string str_repr(const std::string& s, char quote = 0) {
  if (!quote) quote = (s.find('\'') != std::string::npos && s.find('"') == std::string::npos) ? '"' : '\'';
  std::string out(1, quote);
  for (size_t i = 0; i < s.size(); i++) {
    unsigned char c = s[i];
    if (c >= 0x80) {  // keep printable non-ASCII; escape the invisible code points Python escapes
      size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      uint32_t cp = n == 1 ? c : c & (0x7F >> n);
      for (size_t k = 1; k < n && i + k < s.size(); k++) cp = cp << 6 | (s[i + k] & 0x3F);
      if (unprintable(cp)) {
        char b[16];
        snprintf(b, sizeof b, cp < 0x100 ? "\\x%02x" : cp < 0x10000 ? "\\u%04x" : "\\U%08x", cp);
        out += b;
      } else {
        out.append(s, i, n);
      }
      i += n - 1;
      continue;
    }
    if (c == quote || c == '\\') out += '\\', out += (char)c;
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7f) {
      char b[8];
      snprintf(b, sizeof b, "\\x%02x", c);
      out += b;
    } else {
      out += (char)c;
    }
  }
  return out + quote;
}

std::string un(const Expr* e, int ctx);

std::string join(const ExprList& xs, int ctx) {
  std::string out;
  for (size_t i = 0; i < xs.size(); i++) out += (i ? ", " : "") + un(xs[i], ctx);
  return out;
}

std::string args_str(const Arguments& a) {
  std::vector<std::string> parts;
  auto one = [](const Arg* x) { return x->annotation ? x->name + ": " + un(x->annotation, TEST) : x->name; };
  size_t first_default = a.args.size() - a.defaults.size();
  for (size_t i = 0; i < a.args.size(); i++) {
    std::string p = one(a.args[i]);
    if (i >= first_default) p += "=" + un(a.defaults[i - first_default], TEST);
    parts.push_back(p);
  }
  if (a.vararg) parts.push_back("*" + one(a.vararg));
  else if (!a.kwonlyargs.empty()) parts.push_back("*");
  for (size_t i = 0; i < a.kwonlyargs.size(); i++) {
    std::string p = one(a.kwonlyargs[i]);
    if (a.kw_defaults[i]) p += "=" + un(a.kw_defaults[i], TEST);
    parts.push_back(p);
  }
  if (a.kwarg) parts.push_back("**" + one(a.kwarg));
  std::string out;
  for (size_t i = 0; i < parts.size(); i++) out += (i ? ", " : "") + parts[i];
  return out;
}

std::string comps(const std::vector<Comprehension>& gens) {
  std::string out;
  for (auto& g : gens) {
    out += " for " + un(g.target, TUPLE) + " in " + un(g.iter, TEST + 1);
    for (auto* c : g.ifs) out += " if " + un(c, TEST + 1);
  }
  return out;
}

std::string fstring_body(const ExprList& values) {
  std::string out;
  for (auto* v : values) {
    if (v->kind == ExprKind::Constant) {
      for (char c : v->as<Constant>()->s) {
        if (c == '{' || c == '}') out += c;
        out += c;
      }
      continue;
    }
    auto* fv = v->as<FormattedValue>();
    std::string inner = un(fv->value, TEST + 1);
    out += inner[0] == '{' ? "{ " : "{";
    out += inner;
    if (fv->conversion) out += std::string("!") + fv->conversion;
    if (fv->format_spec) out += ":" + fstring_body(fv->format_spec->as<JoinedStr>()->values);
    out += "}";
  }
  return out;
}

std::string fstring(const ExprList& values) {
  std::string body = fstring_body(values);
  // Escape only what the chosen quote and control characters need.
  std::string r = str_repr(body);
  return "f" + r;
}

std::string paren_if(bool c, std::string s) { return c ? "(" + s + ")" : s; }

std::string un(const Expr* e, int ctx) {
  switch (e->kind) {
    case ExprKind::Name: return e->as<Name>()->id;
    case ExprKind::Constant: {
      auto* c = e->as<Constant>();
      switch (c->tag) {
        case Constant::Tag::None: return "None";
        case Constant::Tag::Bool: return c->b ? "True" : "False";
        case Constant::Tag::Int: return std::to_string(c->i);
        case Constant::Tag::Float: return float_repr(c->f);
        case Constant::Tag::Str: return str_repr(c->s);
        case Constant::Tag::Ellipsis: return "...";
      }
      return "?";
    }
    case ExprKind::JoinedStr: return fstring(e->as<JoinedStr>()->values);
    case ExprKind::FormattedValue: return fstring({const_cast<Expr*>(e)});
    case ExprKind::BinOp: {
      auto* b = e->as<BinOp>();
      int p = binop_prec(b->op);
      bool right_assoc = b->op == BinOpKind::Pow;
      std::string s = un(b->left, right_assoc ? p + 1 : p) + " " + op_symbol(b->op) + " " +
                      un(b->right, right_assoc ? p : p + 1);
      return paren_if(p < ctx, s);
    }
    case ExprKind::UnaryOp: {
      auto* u = e->as<UnaryOp>();
      int p = u->op == UnaryOpKind::Not ? NOT : FACTOR;
      std::string s = u->op == UnaryOpKind::Not ? "not " + un(u->operand, p) : op_symbol(u->op) + un(u->operand, p);
      return paren_if(p < ctx, s);
    }
    case ExprKind::BoolOp: {
      auto* b = e->as<BoolOp>();
      int p = b->op == BoolOpKind::And ? AND : OR;
      // Each operand one level tighter than the last, as ast.unparse does:
      // `a or b and c` renders as `a or (b and c)`.
      std::string s;
      for (size_t i = 0; i < b->values.size(); i++)
        s += (i ? std::string(" ") + op_symbol(b->op) + " " : "") + un(b->values[i], std::min(p + 1 + (int)i, (int)ATOM));
      return paren_if(p < ctx, s);
    }
    case ExprKind::Compare: {
      auto* c = e->as<Compare>();
      std::string s = un(c->left, CMP + 1);
      for (size_t i = 0; i < c->ops.size(); i++)
        s += std::string(" ") + op_symbol(c->ops[i]) + " " + un(c->comparators[i], CMP + 1);
      return paren_if(CMP < ctx, s);
    }
    case ExprKind::Call: {
      auto* c = e->as<Call>();
      std::string s = un(c->func, ATOM) + "(";
      bool first = true;
      for (auto* a : c->args) {
        s += (first ? "" : ", ") + un(a, TEST);
        first = false;
      }
      for (auto* k : c->keywords) {
        s += (first ? "" : ", ") + (k->arg.empty() ? "**" : k->arg + "=") + un(k->value, TEST);
        first = false;
      }
      return s + ")";
    }
    case ExprKind::Attribute: {
      auto* a = e->as<Attribute>();
      std::string v = un(a->value, ATOM);
      // 1 .real: an int literal would swallow the dot
      if (a->value->kind == ExprKind::Constant && a->value->as<Constant>()->tag == Constant::Tag::Int) v += " ";
      return v + "." + a->attr;
    }
    case ExprKind::Subscript: {
      auto* s = e->as<Subscript>();
      std::string idx;
      if (s->slice->kind == ExprKind::Tuple && !s->slice->as<Tuple>()->elts.empty()) {
        auto& elts = s->slice->as<Tuple>()->elts;
        idx = join(elts, TEST);
        if (elts.size() == 1) idx += ",";
      } else {
        idx = un(s->slice, TUPLE);
      }
      return un(s->value, ATOM) + "[" + idx + "]";
    }
    case ExprKind::Slice: {
      auto* s = e->as<Slice>();
      std::string out = (s->lower ? un(s->lower, TEST) : "") + ":" + (s->upper ? un(s->upper, TEST) : "");
      if (s->step) out += ":" + un(s->step, TEST);
      return out;
    }
    case ExprKind::Starred: return "*" + un(e->as<Starred>()->value, BOR);
    case ExprKind::Tuple: {
      auto& elts = e->as<Tuple>()->elts;
      std::string s = join(elts, TEST);
      if (elts.size() == 1) s += ",";
      return paren_if(elts.empty() || ctx > TUPLE, s);
    }
    case ExprKind::List: return "[" + join(e->as<List>()->elts, TEST) + "]";
    case ExprKind::Dict: {
      auto* d = e->as<Dict>();
      std::string s = "{";
      for (size_t i = 0; i < d->keys.size(); i++) {
        if (i) s += ", ";
        s += d->keys[i] ? un(d->keys[i], TEST) + ": " + un(d->values[i], TEST) : "**" + un(d->values[i], BOR);
      }
      return s + "}";
    }
    case ExprKind::NamedExpr: {
      auto* n = e->as<NamedExpr>();
      return paren_if(NAMED < ctx, n->target->id + " := " + un(n->value, ATOM));
    }
    case ExprKind::IfExp: {
      auto* i = e->as<IfExp>();
      return paren_if(TEST < ctx, un(i->body, TEST + 1) + " if " + un(i->test, TEST + 1) + " else " + un(i->orelse, TEST));
    }
    case ExprKind::Lambda: {
      auto* l = e->as<Lambda>();
      std::string a = args_str(l->args);
      return paren_if(TEST < ctx, "lambda" + (a.empty() ? "" : " " + a) + ": " + un(l->body, TEST));
    }
    case ExprKind::ListComp: {
      auto* c = e->as<ListComp>();
      return "[" + un(c->elt, TEST) + comps(c->generators) + "]";
    }
    case ExprKind::GeneratorExp: {
      auto* c = e->as<GeneratorExp>();
      return "(" + un(c->elt, TEST) + comps(c->generators) + ")";
    }
    case ExprKind::DictComp: {
      auto* c = e->as<DictComp>();
      return "{" + un(c->key, TEST) + ": " + un(c->value, TEST) + comps(c->generators) + "}";
    }
  }
  return "?";
}

}  // namespace

std::string unparse(const Expr* e) { return e ? un(e, TEST) : std::string(); }

}  // namespace kiln::ast

namespace kiln::ast {

namespace {
// Calls fn on the sub-expressions that are present (an absent one is null).
struct Each {
  const std::function<void(const Expr*)>& fn;
  void operator()(const Expr* x) const {
    if (x) fn(x);
  }
  void operator()(const ExprList& xs) const {
    for (auto* x : xs) (*this)(x);
  }
};
}  // namespace

void each_child(const Expr* e, const std::function<void(const Expr*)>& fn) {
  Each one{fn}, all{fn};
  auto gens = [&](const std::vector<Comprehension>& gs) {
    for (auto& g : gs) {
      one(g.target);
      one(g.iter);
      all(g.ifs);
    }
  };
  switch (e->kind) {
    case ExprKind::Name: case ExprKind::Constant: break;
    case ExprKind::JoinedStr: all(e->as<JoinedStr>()->values); break;
    case ExprKind::FormattedValue: one(e->as<FormattedValue>()->value); one(e->as<FormattedValue>()->format_spec); break;
    case ExprKind::BinOp: one(e->as<BinOp>()->left); one(e->as<BinOp>()->right); break;
    case ExprKind::UnaryOp: one(e->as<UnaryOp>()->operand); break;
    case ExprKind::BoolOp: all(e->as<BoolOp>()->values); break;
    case ExprKind::Compare: one(e->as<Compare>()->left); all(e->as<Compare>()->comparators); break;
    case ExprKind::Call: {
      auto* c = e->as<Call>();
      one(c->func);
      all(c->args);
      for (auto* k : c->keywords) one(k->value);
      break;
    }
    case ExprKind::Attribute: one(e->as<Attribute>()->value); break;
    case ExprKind::Subscript: one(e->as<Subscript>()->value); one(e->as<Subscript>()->slice); break;
    case ExprKind::Slice: one(e->as<Slice>()->lower); one(e->as<Slice>()->upper); one(e->as<Slice>()->step); break;
    case ExprKind::Starred: one(e->as<Starred>()->value); break;
    case ExprKind::Tuple: all(e->as<Tuple>()->elts); break;
    case ExprKind::List: all(e->as<List>()->elts); break;
    case ExprKind::Dict: all(e->as<Dict>()->keys); all(e->as<Dict>()->values); break;
    case ExprKind::IfExp: one(e->as<IfExp>()->test); one(e->as<IfExp>()->body); one(e->as<IfExp>()->orelse); break;
    case ExprKind::NamedExpr: one(e->as<NamedExpr>()->target); one(e->as<NamedExpr>()->value); break;
    case ExprKind::Lambda: {
      auto* l = e->as<Lambda>();
      all(l->args.defaults);
      all(l->args.kw_defaults);
      one(l->body);
      break;
    }
    case ExprKind::ListComp: one(e->as<ListComp>()->elt); gens(e->as<ListComp>()->generators); break;
    case ExprKind::GeneratorExp: one(e->as<GeneratorExp>()->elt); gens(e->as<GeneratorExp>()->generators); break;
    case ExprKind::DictComp:
      one(e->as<DictComp>()->key);
      one(e->as<DictComp>()->value);
      gens(e->as<DictComp>()->generators);
      break;
  }
}

void each_expr(const Stmt* s, const std::function<void(const Expr*)>& fn) {
  Each one{fn}, all{fn};
  switch (s->kind) {
    case StmtKind::ExprStmt: one(s->as<ExprStmt>()->value); break;
    case StmtKind::Assign: all(s->as<Assign>()->targets); one(s->as<Assign>()->value); break;
    case StmtKind::AugAssign: one(s->as<AugAssign>()->target); one(s->as<AugAssign>()->value); break;
    case StmtKind::AnnAssign: one(s->as<AnnAssign>()->target); one(s->as<AnnAssign>()->value); break;
    case StmtKind::If: one(s->as<If>()->test); break;
    case StmtKind::For: one(s->as<For>()->target); one(s->as<For>()->iter); break;
    case StmtKind::While: one(s->as<While>()->test); break;
    case StmtKind::Return: one(s->as<Return>()->value); break;
    case StmtKind::FunctionDef: {
      auto* f = s->as<FunctionDef>();
      all(f->decorators);
      all(f->args.defaults);
      all(f->args.kw_defaults);
      break;
    }
    case StmtKind::ClassDef: all(s->as<ClassDef>()->decorators); all(s->as<ClassDef>()->bases); break;
    case StmtKind::Raise: one(s->as<Raise>()->exc); one(s->as<Raise>()->cause); break;
    case StmtKind::Assert: one(s->as<Assert>()->test); one(s->as<Assert>()->msg); break;
    case StmtKind::Delete: all(s->as<Delete>()->targets); break;
    case StmtKind::Try:
      for (auto* h : s->as<Try>()->handlers) one(h->type);
      break;
    case StmtKind::Break: case StmtKind::Continue: case StmtKind::Pass: case StmtKind::Import:
    case StmtKind::ImportFrom: case StmtKind::Global: case StmtKind::Nonlocal:
      break;
  }
}

}  // namespace kiln::ast
