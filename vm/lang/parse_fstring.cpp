// String literals: adjacent-literal concatenation and f-strings.
//
// The lexer hands over an f-string's raw body. Here it is split into literal
// pieces and {expr!conv:spec} fields; each expr is re-lexed straight from the
// file text (Lexer's range mode), so its nodes carry true line:col positions
// even inside a triple-quoted multi-line f-string.
#include "vm/lang/parser_impl.h"

namespace kiln::lang {

namespace {

Constant* make_str(Module* m, SourceLoc loc, std::string s) {
  auto* c = m->make<Constant>(loc);
  c->tag = Constant::Tag::Str;
  c->s = std::move(s);
  return c;
}

// Appends a literal piece, merging with a preceding literal as CPython does.
void push_literal(Module* m, ExprList& out, SourceLoc loc, SourceLoc end, std::string s) {
  if (s.empty()) return;
  if (!out.empty() && out.back()->kind == ExprKind::Constant) {
    auto* c = out.back()->as<Constant>();
    c->s += s;
    c->end = end;
    return;
  }
  auto* c = make_str(m, loc, std::move(s));
  c->end = end;
  out.push_back(c);
}

}  // namespace

// One or more adjacent literals: "a" 'b' f"{c}" -> Constant or JoinedStr.
Expr* Parser::strings() {
  SourceLoc s = peek().loc;
  bool any_f = false;
  ExprList parts;
  std::string plain;
  while (peek().kind == Tok::String) {
    Token t = take();
    // The AST has no bytes constant; Kiln programs have no use for one.
    if (t.is_bytes) unsupported("bytes literals are not supported by Kiln", t.loc);
    if (!t.is_f) {
      push_literal(mod_, parts, t.loc, t.end, t.str);
      continue;
    }
    any_f = true;
    uint32_t p = t.body_begin;
    fstring_body(p, t.body_end, t.is_raw, parts, false, 0);
  }
  if (!any_f) {
    auto* c = make_str(mod_, s, parts.empty() ? std::string() : parts[0]->as<Constant>()->s);
    return fin(c);
  }
  auto* j = node<JoinedStr>(s);
  j->values = std::move(parts);
  return fin(j);
}

// Splits text[p, end) into literal pieces and replacement fields. In a format
// spec (in_spec) it stops at the '}' that closes the enclosing field.
void Parser::fstring_body(uint32_t& p, uint32_t end, bool raw, ExprList& out, bool in_spec, int depth) {
  const std::string& text = file_->text;
  std::string lit;  // raw text of the current literal piece, escapes undecoded
  uint32_t lit_start = p;
  auto flush = [&] {
    if (lit.empty()) return;
    SourceLoc loc = loc_at(file_, lit_start);
    push_literal(mod_, out, loc, loc_at(file_, p), raw ? lit : decode_escapes(lit, loc));
    lit.clear();
  };
  while (p < end) {
    char c = text[p];
    if (lit.empty()) lit_start = p;
    if (c == '\\' && !raw && p + 1 < end && text[p + 1] != '{' && text[p + 1] != '}') {
      lit += c;
      lit += text[p + 1];
      p += 2;
    } else if (c == '{') {
      if (p + 1 < end && text[p + 1] == '{') {
        lit += '{';
        p += 2;
        continue;
      }
      flush();
      replacement_field(p, end, raw, out, depth);
      lit_start = p;
    } else if (c == '}') {
      if (in_spec) break;
      if (p + 1 < end && text[p + 1] == '}') {
        lit += '}';
        p += 2;
        continue;
      }
      error("f-string: single '}' is not allowed", loc_at(file_, p));
    } else {
      lit += c;
      p++;
    }
  }
  flush();
}

// text[p] is '{'. Parses {expr[=][!conv][:spec]} and appends its nodes.
void Parser::replacement_field(uint32_t& p, uint32_t end, bool raw, ExprList& out, int depth) {
  const std::string& text = file_->text;
  SourceLoc open = loc_at(file_, p);
  if (depth >= 2) error("f-string: expressions nested too deeply", open);
  uint32_t ex_begin = ++p;
  // Find where the expression ends: a top-level '}', '!', ':' or '=' (the
  // last only when it is not part of ==, !=, <=, >=). Strings and brackets
  // inside the expression are skipped over.
  int nest = 0;
  bool self_doc = false;
  while (p < end) {
    char c = text[p];
    char n = p + 1 < end ? text[p + 1] : '\0';
    if (c == '\'' || c == '"') {
      bool triple = n == c && p + 2 < end && text[p + 2] == c;
      uint32_t q = p + (triple ? 3 : 1);
      for (;;) {
        if (q >= end) error("f-string: unterminated string", loc_at(file_, p));
        if (text[q] == '\\') { q += 2; continue; }
        if (text[q] == c && (!triple || (q + 2 < end && text[q + 1] == c && text[q + 2] == c))) break;
        q++;
      }
      p = q + (triple ? 3 : 1);
      continue;
    }
    if (c == '\\') error("f-string expression part cannot include a backslash", loc_at(file_, p));
    if (c == '#') error("f-string expression part cannot include '#'", loc_at(file_, p));
    if (c == '(' || c == '[' || c == '{') nest++;
    if (c == ')' || c == ']') {
      if (nest == 0) error(std::string("f-string: unmatched '") + c + "'", loc_at(file_, p));
      nest--;
    }
    if (c == '}') {
      if (nest == 0) break;
      nest--;
    }
    if ((c == '=' || c == '!' || c == '<' || c == '>') && n == '=') {
      p += 2;
      continue;
    }
    if (nest == 0 && (c == '!' || c == ':')) break;
    if (nest == 0 && c == '=') {
      self_doc = true;
      break;
    }
    p++;
  }
  if (p >= end) error("f-string: expecting '}'", open);
  uint32_t ex_end = p;
  if (text.find_first_not_of(" \t\r\n", ex_begin) >= ex_end)
    error("f-string: empty expression not allowed", loc_at(file_, ex_begin));

  Parser sub(mod_, Lexer(file_, ex_begin, ex_end));
  Expr* value;
  try {
    value = sub.fstring_replacement();
    if (sub.unsupported_ && !unsupported_) unsupported_ = sub.unsupported_;
  } catch (Error& e) {
    error_kind(e.kind.c_str(), e.message.rfind("f-string", 0) == 0 ? e.message : "f-string: " + e.message, e.loc);
  }

  auto* fv = node<FormattedValue>(open);
  fv->value = value;
  if (self_doc) {  // f"{x=}" prints "x=" and then repr(x)
    p++;
    while (p < end && text[p] == ' ') p++;  // CPython keeps the spaces around '='
    push_literal(mod_, out, loc_at(file_, ex_begin), loc_at(file_, p),
                 text.substr(ex_begin, p - ex_begin));
  }
  if (p < end && text[p] == '!') {
    char conv = p + 1 < end ? text[p + 1] : '\0';
    if (conv != 'r' && conv != 's' && conv != 'a')
      error("f-string: invalid conversion character: expected 's', 'r', or 'a'", loc_at(file_, p + 1));
    fv->conversion = conv;
    p += 2;
  }
  if (p < end && text[p] == ':') {
    auto* spec = node<JoinedStr>(loc_at(file_, p + 1));
    p++;
    fstring_body(p, end, raw, spec->values, true, depth + 1);
    spec->end = loc_at(file_, p);
    fv->format_spec = spec;
  }
  if (p >= end || text[p] != '}') error("f-string: expecting '}'", open);
  p++;
  if (self_doc && !fv->conversion && !fv->format_spec) fv->conversion = 'r';
  fv->end = loc_at(file_, p);
  out.push_back(fv);
}

Expr* Parser::fstring_replacement() {
  Expr* e = star_expressions();
  if (peek().kind != Tok::End) invalid_syntax();
  return e;
}

}  // namespace kiln::lang
