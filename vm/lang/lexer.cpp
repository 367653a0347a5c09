#include "vm/lang/lexer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace kiln::lang {

namespace {

[[noreturn]] void syntax(const std::string& msg, SourceLoc loc) { raise("SyntaxError", msg, loc); }

bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (unsigned char)c >= 0x80;
}
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

// Decodes the UTF-8 sequence at s[i]; n gets its length.
uint32_t decode_utf8(std::string_view s, uint32_t i, uint32_t& n) {
  unsigned char c = s[i];
  n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  uint32_t cp = n == 1 ? c : c & (0x7F >> n);
  for (uint32_t k = 1; k < n; k++) {
    if (i + k >= s.size() || ((unsigned char)s[i + k] & 0xC0) != 0x80) return n = 1, 0xFFFD;
    cp = cp << 6 | (s[i + k] & 0x3F);
  }
  return cp;
}

// Non-ASCII code points that cannot be part of an identifier. Python uses the
// Unicode XID tables; this rejects the symbol and punctuation blocks people
// actually paste into code (currency, smart quotes, arrows, math, emoji), so
// that they get CPython's "invalid character" message.
bool non_identifier(uint32_t cp) {
  if (cp >= 0x80 && cp <= 0xBF) return cp != 0xAA && cp != 0xB5 && cp != 0xBA;
  if (cp == 0xD7 || cp == 0xF7 || cp == 0xFFFD) return true;
  if (cp >= 0x2000 && cp <= 0x2BFF)  // punctuation .. misc symbols, minus letter-like blocks
    return !(cp >= 0x2070 && cp <= 0x209F) && !(cp >= 0x2100 && cp <= 0x218F) && cp != 0x203F && cp != 0x2040;
  if (cp >= 0x3000 && cp <= 0x3004) return true;
  if (cp >= 0x3008 && cp <= 0x3020) return true;
  if (cp >= 0xFF01 && cp <= 0xFF0F) return true;
  if (cp >= 0xFF1A && cp <= 0xFF20) return true;
  return cp >= 0x1F000 && cp <= 0x1FAFF;
}
bool is_digit(char c, int base) {
  switch (base) {
    case 2: return c == '0' || c == '1';
    case 8: return c >= '0' && c <= '7';
    case 16: return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    default: return c >= '0' && c <= '9';
  }
}
int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

// Longest match first within each length class.
constexpr uint64_t kOps3[] = {pack_key("**="), pack_key("//="), pack_key(">>="), pack_key("<<="), pack_key("...")};
constexpr uint64_t kOps2[] = {pack_key("**"), pack_key("//"), pack_key(">>"), pack_key("<<"), pack_key("<="),
                              pack_key(">="), pack_key("=="), pack_key("!="), pack_key("->"), pack_key("+="),
                              pack_key("-="), pack_key("*="), pack_key("/="), pack_key("%="), pack_key("&="),
                              pack_key("|="), pack_key("^="), pack_key("@="), pack_key(":=")};
const char kOps1[] = "+-*/%@&|^~<>()[]{},:.;=";

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += (char)cp;
  } else if (cp < 0x800) {
    out += (char)(0xC0 | (cp >> 6));
    out += (char)(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += (char)(0xE0 | (cp >> 12));
    out += (char)(0x80 | ((cp >> 6) & 0x3F));
    out += (char)(0x80 | (cp & 0x3F));
  } else {
    out += (char)(0xF0 | (cp >> 18));
    out += (char)(0x80 | ((cp >> 12) & 0x3F));
    out += (char)(0x80 | ((cp >> 6) & 0x3F));
    out += (char)(0x80 | (cp & 0x3F));
  }
}

}  // namespace

const char* tok_name(Tok k) {
  switch (k) {
    case Tok::End: return "ENDMARKER";
    case Tok::Newline: return "NEWLINE";
    case Tok::Indent: return "INDENT";
    case Tok::Dedent: return "DEDENT";
    case Tok::Name: return "NAME";
    case Tok::Int: return "INT";
    case Tok::Float: return "FLOAT";
    case Tok::String: return "STRING";
    case Tok::Op: return "OP";
  }
  return "?";
}

bool is_keyword(std::string_view s) {
  // Sorted at compile time, searched by key.
  static constexpr auto kw = [] {
    std::array<uint64_t, 35> a{
      pack_key("False"), pack_key("None"), pack_key("True"), pack_key("and"), pack_key("as"),
      pack_key("assert"), pack_key("async"), pack_key("await"), pack_key("break"), pack_key("class"),
      pack_key("continue"), pack_key("def"), pack_key("del"), pack_key("elif"), pack_key("else"),
      pack_key("except"), pack_key("finally"), pack_key("for"), pack_key("from"), pack_key("global"),
      pack_key("if"), pack_key("import"), pack_key("in"), pack_key("is"), pack_key("lambda"),
      pack_key("nonlocal"), pack_key("not"), pack_key("or"), pack_key("pass"), pack_key("raise"),
      pack_key("return"), pack_key("try"), pack_key("while"), pack_key("with"), pack_key("yield")};
    std::sort(a.begin(), a.end());
    return a;
  }();
  uint64_t k = pack_key(s);  // every keyword has 8 bytes or fewer
  return k && std::binary_search(kw.begin(), kw.end(), k);
}

SourceLoc loc_at(const SourceFile* file, uint32_t offset) {
  auto& ls = file->line_starts;
  auto it = std::upper_bound(ls.begin(), ls.end(), offset);
  uint32_t line = (uint32_t)(it - ls.begin());  // >= 1 since ls[0] == 0
  return {file, line, offset - ls[line - 1] + 1};
}

std::string decode_escapes(std::string_view b, SourceLoc loc) {
  std::string out;
  out.reserve(b.size());
  for (size_t i = 0; i < b.size(); i++) {
    char c = b[i];
    if (c != '\\' || i + 1 >= b.size()) {
      out += c;
      continue;
    }
    char e = b[++i];
    switch (e) {
      case '\n': break;  // backslash-newline continues the literal
      case '\r': if (i + 1 < b.size() && b[i + 1] == '\n') i++; break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case 'x': case 'u': case 'U': {
        size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        uint32_t cp = 0;
        for (size_t k = 0; k < n; k++) {
          if (i + 1 + k >= b.size() || !is_digit(b[i + 1 + k], 16))
            syntax(std::string("(unicode error) truncated \\") + e + " escape", loc);
          cp = cp * 16 + digit_value(b[i + 1 + k]);
        }
        i += n;
        if (cp > 0x10FFFF) syntax("(unicode error) illegal Unicode character", loc);
        append_utf8(out, cp);
        break;
      }
      case 'N': syntax("(unicode error) \\N{...} escapes are not supported", loc);
      default:
        if (e >= '0' && e <= '7') {  // up to three octal digits
          uint32_t v = e - '0';
          for (int k = 0; k < 2 && i + 1 < b.size() && b[i + 1] >= '0' && b[i + 1] <= '7'; k++)
            v = v * 8 + (b[++i] - '0');
          append_utf8(out, v);
        } else {
          out += '\\';  // unknown escape: kept, as Python does (with a warning)
          out += e;
        }
    }
  }
  return out;
}

Lexer::Lexer(const SourceFile* file) : file_(file), src_(file->text), end_((uint32_t)file->text.size()) {}

Lexer::Lexer(const SourceFile* file, uint32_t begin, uint32_t end)
    : file_(file), src_(file->text), pos_(begin), end_(end), bracket_mode_(true), at_line_start_(false) {
  SourceLoc l = loc_at(file, begin);
  line_ = l.line;
  line_start_ = file->line_starts[l.line - 1];
}

std::vector<Token> Lexer::tokenize(const SourceFile* file) {
  Lexer lx(file);
  std::vector<Token> out;
  do out.push_back(lx.next());
  while (out.back().kind != Tok::End);
  return out;
}

Token Lexer::make(Tok k, SourceLoc loc, uint32_t start) {
  Token t;
  t.kind = k;
  t.loc = loc;
  t.text = std::string(src_.substr(start, pos_ - start));
  if (k == Tok::Name || k == Tok::Op) t.key = pack_key(t.text);
  t.end = here();
  return t;
}

// At the start of a logical line: skips blank and comment-only lines, then
// compares the indentation with the stack. Returns true with an INDENT/DEDENT.
bool Lexer::indentation(Token& out) {
  for (;;) {
    int col = 0, alt = 0;
    while (pos_ < end_) {
      char c = src_[pos_];
      if (c == ' ') col++, alt++;
      else if (c == '\t') col = (col / 8 + 1) * 8, alt++;
      else if (c == '\f') col = alt = 0;
      else break;
      pos_++;
    }
    char c = peekc();
    if (c == '#') {
      while (pos_ < end_ && src_[pos_] != '\n') pos_++;
      c = peekc();
    }
    if (c == '\r' && peekc(1) == '\n') c = src_[++pos_];
    if (c == '\n') {  // blank line: no tokens at all
      newline_at(pos_++);
      continue;
    }
    if (pos_ >= end_) return false;  // EOF: next() emits the closing tokens
    at_line_start_ = false;
    SourceLoc loc = here();
    auto [top, top_alt] = indents_.back();
    if (col == top) {
      if (alt != top_alt) raise("TabError", "inconsistent use of tabs and spaces in indentation", loc);
      return false;
    }
    if (col > top) {
      if (alt <= top_alt) raise("TabError", "inconsistent use of tabs and spaces in indentation", loc);
      indents_.push_back({col, alt});
      out = Token{};
      out.kind = Tok::Indent;
      out.loc = out.end = loc;
      return true;
    }
    int n = 0;
    while (indents_.back().first > col) indents_.pop_back(), n++;
    if (indents_.back().first != col)
      raise("IndentationError", "unindent does not match any outer indentation level", loc);
    if (indents_.back().second != alt)
      raise("TabError", "inconsistent use of tabs and spaces in indentation", loc);
    pending_dedents_ = n - 1;
    out = Token{};
    out.kind = Tok::Dedent;
    out.loc = out.end = loc;
    return true;
  }
}

// Spaces, comments and line continuations between tokens; newlines too while
// inside brackets (implicit line joining).
void Lexer::skip_space() {
  for (;;) {
    char c = peekc();
    if (c == ' ' || c == '\t' || c == '\f' || (c == '\r' && peekc(1) == '\n')) {
      pos_++;
    } else if (c == '#') {
      while (pos_ < end_ && src_[pos_] != '\n') pos_++;
    } else if (c == '\\') {
      uint32_t k = (peekc(1) == '\r' && peekc(2) == '\n') ? 2 : 1;
      if (pos_ + k >= end_) syntax("unexpected EOF while parsing", here());
      if (peekc(k) != '\n')
        syntax("unexpected character after line continuation character", {file_, line_, pos_ - line_start_ + 2});
      newline_at(pos_ + k);
      pos_ += k + 1;
    } else if (c == '\n' && (bracket_mode_ || !parens_.empty())) {
      newline_at(pos_++);
    } else {
      return;
    }
  }
}

Token Lexer::next() {
  if (pending_dedents_ > 0) {
    pending_dedents_--;
    Token t;
    t.kind = Tok::Dedent;
    t.loc = t.end = here();
    return t;
  }
  if (at_line_start_ && !bracket_mode_) {
    Token t;
    if (indentation(t)) return t;
  }
  skip_space();
  SourceLoc loc = here();
  uint32_t start = pos_;
  if (pos_ >= end_) {
    Token t;
    t.loc = t.end = loc;
    if (bracket_mode_) return t;
    if (!parens_.empty())
      syntax(std::string("'") + parens_.back().first + "' was never closed", parens_.back().second);
    if (line_has_tokens_) {  // the last line had no newline character
      line_has_tokens_ = false;
      t.kind = Tok::Newline;
      return t;
    }
    if (indents_.size() > 1) {
      indents_.pop_back();
      t.kind = Tok::Dedent;
      return t;
    }
    return t;
  }
  char c = src_[pos_];
  if (c == '\n') {  // only outside brackets (skip_space ate the others)
    pos_++;
    Token t = make(Tok::Newline, loc, start);
    t.text = "";
    newline_at(start);
    at_line_start_ = true;
    line_has_tokens_ = false;
    return t;
  }
  line_has_tokens_ = true;
  if (ident_start(c)) {
    while (pos_ < end_ && ident_char(src_[pos_])) {
      if ((unsigned char)src_[pos_] < 0x80) {
        pos_++;
        continue;
      }
      pos_ += check_non_ascii();
    }
    std::string_view word = src_.substr(start, pos_ - start);
    char q = peekc();
    if ((q == '\'' || q == '"') && word.size() <= 2) {
      bool ok = true;
      for (char p : word) ok &= std::string_view("rRbBfFuU").find(p) != std::string_view::npos;
      if (ok) return string(loc, start, word);
    }
    return make(Tok::Name, loc, start);
  }
  if ((c >= '0' && c <= '9') || (c == '.' && is_digit(peekc(1), 10))) return number();
  if (c == '\'' || c == '"') return string(loc, start, {});
  return op();
}

// At a non-ASCII byte: its length, or CPython's "invalid character" error.
uint32_t Lexer::check_non_ascii() {
  uint32_t n;
  uint32_t cp = decode_utf8(src_, pos_, n);
  if (non_identifier(cp)) {
    char u[16];
    snprintf(u, sizeof u, "%04X", cp);
    syntax("invalid character '" + std::string(src_.substr(pos_, n)) + "' (U+" + u + ")", here());
  }
  return n;
}

Token Lexer::number() {
  SourceLoc loc = here();
  uint32_t start = pos_;
  auto bad = [&](const std::string& what) { syntax("invalid " + what + " literal", loc); };
  // Digits of `base` with single underscores between them; returns false if none.
  auto digits = [&](int base, const char* what, bool after_prefix) {
    uint32_t s = pos_;
    bool any = false;
    while (pos_ < end_) {
      char c = src_[pos_];
      if (c == '_') {
        if ((!any && !after_prefix) || !is_digit(peekc(1), base)) bad(what);
        pos_++;
      } else if (is_digit(c, base)) {
        pos_++, any = true;
      } else {
        break;
      }
    }
    return pos_ > s && any;
  };
  char c = src_[pos_];
  char x = (char)(peekc(1) | 0x20);
  if (c == '0' && (x == 'x' || x == 'o' || x == 'b')) {
    int base = x == 'x' ? 16 : x == 'o' ? 8 : 2;
    const char* what = x == 'x' ? "hexadecimal" : x == 'o' ? "octal" : "binary";
    pos_ += 2;
    if (!digits(base, what, true)) bad(what);
    if (pos_ < end_ && (is_digit(src_[pos_], 10) || ident_char(src_[pos_]))) {
      if (is_digit(src_[pos_], 10))
        syntax(std::string("invalid digit '") + src_[pos_] + "' in " + what + " literal", here());
      bad(what);
    }
    Token t = make(Tok::Int, loc, start);
    unsigned __int128 v = 0;
    for (size_t i = 2; i < t.text.size(); i++) {
      if (t.text[i] == '_') continue;
      v = v * base + digit_value(t.text[i]);
      if (v > UINT64_MAX) syntax("integer literal too large for 64 bits", loc);
    }
    t.ival = (uint64_t)v;
    return t;
  }
  bool is_float = false;
  if (c != '.') digits(10, "decimal", false);
  if (peekc() == '.') {
    is_float = true;
    pos_++;
    if (is_digit(peekc(), 10)) digits(10, "decimal", false);
  }
  if ((peekc() | 0x20) == 'e') {
    uint32_t save = pos_;
    pos_++;
    if (peekc() == '+' || peekc() == '-') pos_++;
    if (is_digit(peekc(), 10)) {
      digits(10, "decimal", false);
      is_float = true;
    } else {
      pos_ = save;
      bad("decimal");
    }
  }
  if ((peekc() | 0x20) == 'j') syntax("imaginary numbers are not supported", loc);
  if ((unsigned char)peekc() >= 0x80) check_non_ascii();
  if (ident_char(peekc())) bad("decimal");
  Token t = make(is_float ? Tok::Float : Tok::Int, loc, start);
  std::string clean;
  for (char d : t.text)
    if (d != '_') clean += d;
  if (is_float) {
    auto r = std::from_chars(clean.data(), clean.data() + clean.size(), t.fval);
    if (r.ec == std::errc::result_out_of_range) {
      // Python gives inf for huge literals and 0.0 for tiny ones.
      bool tiny = clean.find("e-") != std::string::npos || clean.find("E-") != std::string::npos;
      t.fval = tiny ? 0.0 : HUGE_VAL;
    }
    return t;
  }
  if (clean.size() > 1 && clean[0] == '0' && clean.find_first_not_of('0') != std::string::npos)
    syntax("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers", loc);
  unsigned __int128 v = 0;
  for (char d : clean) {
    v = v * 10 + (d - '0');
    if (v > UINT64_MAX) syntax("integer literal too large for 64 bits", loc);
  }
  t.ival = (uint64_t)v;
  return t;
}

Token Lexer::string(SourceLoc loc, uint32_t start, std::string_view prefix) {
  Token t;
  for (char p : prefix) {
    p = (char)(p | 0x20);
    if (p == 'r') t.is_raw = true;
    if (p == 'f') t.is_f = true;
    if (p == 'b') t.is_bytes = true;
  }
  if (prefix.size() == 2 && ((t.is_f && t.is_bytes) || (!t.is_raw) || (prefix[0] | 0x20) == 'u' ||
                             (prefix[1] | 0x20) == 'u' ||
                             (prefix[0] | 0x20) == (prefix[1] | 0x20)))
    syntax("invalid syntax", loc);  // e.g. fb'', uf'', bu''
  char q = src_[pos_];
  bool triple = peekc(1) == q && peekc(2) == q;
  pos_ += triple ? 3 : 1;
  t.body_begin = pos_;
  for (;;) {
    if (pos_ >= end_) {
      // CPython counts the last line read; a final newline starts no new one.
      uint32_t last = line_ - (end_ > 0 && src_[end_ - 1] == '\n' && line_ > 1 ? 1 : 0);
      if (triple)
        syntax("unterminated triple-quoted string literal (detected at line " + std::to_string(last) + ")", loc);
      syntax("unterminated string literal (detected at line " + std::to_string(last) + ")", loc);
    }
    char c = src_[pos_];
    if (c == '\\' && pos_ + 1 < end_) {
      pos_++;
      if (src_[pos_] == '\r' && peekc(1) == '\n') pos_++;
      if (src_[pos_] == '\n') newline_at(pos_);
      pos_++;
      continue;
    }
    if (c == '\n') {
      if (!triple) syntax("unterminated string literal (detected at line " + std::to_string(line_) + ")", loc);
      newline_at(pos_);
    }
    if (c == q && (!triple || (peekc(1) == q && peekc(2) == q))) break;
    pos_++;
  }
  t.body_end = pos_;
  pos_ += triple ? 3 : 1;
  Token m = make(Tok::String, loc, start);
  t.kind = Tok::String;
  t.loc = loc;
  t.end = m.end;
  t.text = std::move(m.text);
  if (!t.is_f) {
    std::string_view body = src_.substr(t.body_begin, t.body_end - t.body_begin);
    t.str = t.is_raw ? std::string(body) : decode_escapes(body, loc);
  }
  return t;
}

Token Lexer::op() {
  SourceLoc loc = here();
  uint32_t start = pos_;
  std::string_view rest = src_.substr(pos_, end_ - pos_);
  size_t len = 0;
  if (uint64_t k3 = rest.size() >= 3 ? pack_key(rest.substr(0, 3)) : 0)
    for (uint64_t o : kOps3)
      if (k3 == o) len = 3;
  if (uint64_t k2 = !len && rest.size() >= 2 ? pack_key(rest.substr(0, 2)) : 0)
    for (uint64_t o : kOps2)
      if (k2 == o) len = 2;
  if (!len && std::string_view(kOps1).find(rest[0]) != std::string_view::npos) len = 1;
  if (!len) {
    unsigned char c = rest[0];
    if (c < 0x20 || c == 0x7f) syntax("invalid non-printable character U+" + [&] {
      char buf[8];
      snprintf(buf, sizeof buf, "%04X", c);
      return std::string(buf);
    }(), loc);
    // A stray '$', '?', '!' or '`' becomes a token no rule accepts, so the
    // parser reports it (as CPython does) rather than the tokenizer.
    len = 1;
  }
  pos_ += (uint32_t)len;
  Token t = make(Tok::Op, loc, start);
  char c = t.text[0];
  if (len == 1 && (c == '(' || c == '[' || c == '{')) {
    parens_.push_back({c, loc});
  } else if (len == 1 && (c == ')' || c == ']' || c == '}')) {
    if (parens_.empty()) {
      if (!bracket_mode_) syntax(std::string("unmatched '") + c + "'", loc);
    } else {
      auto [open, oloc] = parens_.back();
      char want = open == '(' ? ')' : open == '[' ? ']' : '}';
      if (c != want) {
        std::string msg = std::string("closing parenthesis '") + c + "' does not match opening parenthesis '" + open + "'";
        if (oloc.line != loc.line) msg += " on line " + std::to_string(oloc.line);
        syntax(msg, loc);
      }
      parens_.pop_back();
    }
  }
  return t;
}

namespace {

// After a block's last line, inspect also takes the comment lines that follow
// it at least as indented as the body's first statement (blank lines between
// them included), up to the next line of code.
uint32_t with_trailing_comments(const SourceFile* file, uint32_t last, uint32_t body_col) {
  if (!body_col) return last;
  for (uint32_t n = last + 1; n <= file->line_starts.size(); n++) {
    std::string_view l = file->line(n);
    size_t col = l.find_first_not_of(" \t\f");
    if (col == std::string_view::npos) continue;
    if (l[col] != '#') break;
    if (col + 1 >= body_col) last = n;
  }
  return last;
}

}  // namespace

uint32_t def_block_lines(const SourceFile* file) {
  Lexer lex(file);
  int depth = 0, base = -1;  // indentation depth; the def's own, once seen
  bool in_def = false, body_indented = false;
  uint32_t last = 0;      // line of the last NEWLINE inside the definition
  uint32_t body_col = 0;  // column of the body's first statement (1-based)
  for (;;) {
    Token t = lex.next();
    if (t.kind == Tok::End) return with_trailing_comments(file, last, body_col);
    if (t.kind == Tok::Indent) {  // before the def (it is indented) or in its body
      depth++;
      continue;
    }
    if (t.kind == Tok::Dedent) {
      if (--depth <= base && body_indented) return with_trailing_comments(file, last, body_col);
      continue;
    }
    if (base < 0) base = depth;  // the first line: decorator or def
    if (body_indented && !body_col) body_col = t.loc.col;
    if (t.kind == Tok::Name && depth == base && (t.kw("def") || t.kw("class"))) in_def = true;
    if (t.kind == Tok::Newline) {
      last = t.loc.line;
      // `def f(): return 1` ends with its own line when no block follows;
      // decorators (at the def's depth) go on to the def.
      if (in_def && !body_indented && depth == base) {
        Token n = lex.next();
        if (n.kind != Tok::Indent) return last;
        depth++;
        body_indented = true;
      }
    }
  }
}

}  // namespace kiln::lang
