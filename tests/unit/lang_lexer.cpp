// Lexer: token kinds and spellings, line:col, INDENT/DEDENT/NEWLINE, literals, errors.
#include <doctest/doctest.h>

#include <cmath>

#include "vm/lang/lexer.h"

using namespace kiln;
using kiln::lang::Lexer;
using kiln::lang::Tok;
using kiln::lang::Token;

namespace {

std::vector<Token> lex(const std::string& src) {
  static std::vector<std::unique_ptr<SourceFile>> keep;  // tokens point at their file
  keep.push_back(std::make_unique<SourceFile>("t.py", src));
  return Lexer::tokenize(keep.back().get());
}

// "NAME:x OP:= INT:1 NEWLINE END" -- a compact picture of the token stream.
std::string kinds(const std::string& src) {
  std::string out;
  for (auto& t : lex(src)) {
    if (!out.empty()) out += ' ';
    switch (t.kind) {
      case Tok::Name: out += "N:" + t.text; break;
      case Tok::Op: out += t.text; break;
      case Tok::Int: out += "I:" + std::to_string(t.ival); break;
      case Tok::Float: out += "F:" + t.text; break;
      case Tok::String: out += (t.is_f ? "FS:" : "S:") + (t.is_f ? t.text : t.str); break;
      case Tok::Newline: out += "NL"; break;
      case Tok::Indent: out += "IN"; break;
      case Tok::Dedent: out += "DE"; break;
      case Tok::End: out += "END"; break;
    }
  }
  return out;
}

std::string pos(const Token& t) { return std::to_string(t.loc.line) + ":" + std::to_string(t.loc.col); }

// "Kind: message @line:col", or "ok".
std::string err(const std::string& src) {
  try {
    lex(src);
  } catch (const Error& e) {
    return e.kind + ": " + e.message + " @" + std::to_string(e.loc.line) + ":" + std::to_string(e.loc.col);
  }
  return "ok";
}

}  // namespace

TEST_CASE("simple line") {
  CHECK(kinds("x = 1\n") == "N:x = I:1 NL END");
  CHECK(kinds("x = 1") == "N:x = I:1 NL END");  // NEWLINE is synthesized at EOF
  CHECK(kinds("") == "END");
  CHECK(kinds("\n\n# only a comment\n   \n") == "END");
}

TEST_CASE("positions are 1-based line:col, end is just past") {
  auto t = lex("ab = cd\n  # c\nxy\n");
  CHECK(pos(t[0]) == "1:1");
  CHECK(t[0].end.col == 3);
  CHECK(pos(t[1]) == "1:4");
  CHECK(pos(t[2]) == "1:6");
  CHECK(pos(t[3]) == "1:8");  // NEWLINE at the newline character
  CHECK(pos(t[4]) == "3:1");
}

TEST_CASE("indent and dedent") {
  CHECK(kinds("if x:\n    y\n    z\nw\n") == "N:if N:x : NL IN N:y NL N:z NL DE N:w NL END");
  CHECK(kinds("if x:\n  if y:\n    z\n") == "N:if N:x : NL IN N:if N:y : NL IN N:z NL DE DE END");
  CHECK(kinds("if x:\n  if y:\n    z\nw") == "N:if N:x : NL IN N:if N:y : NL IN N:z NL DE DE N:w NL END");
  // blank lines and comment lines inside a block don't affect indentation
  CHECK(kinds("if x:\n  y\n\n# c\n      # d\n  z\n") == "N:if N:x : NL IN N:y NL N:z NL DE END");
  // a tab indents to the next multiple of 8: consistent with itself
  CHECK(kinds("if x:\n\ty\n\tz\n") == "N:if N:x : NL IN N:y NL N:z NL DE END");
  auto t = lex("if x:\n    y\n");
  CHECK(pos(t[4]) == "2:5");  // INDENT at the first character of the line
}

TEST_CASE("implicit and explicit line joining") {
  CHECK(kinds("x = (1,\n     2)\n") == "N:x = ( I:1 , I:2 ) NL END");
  CHECK(kinds("x = [1,\n\n  # c\n2]\n") == "N:x = [ I:1 , I:2 ] NL END");
  CHECK(kinds("d = {\n  1: 2,\n}\n") == "N:d = { I:1 : I:2 , } NL END");
  CHECK(kinds("x = 1 + \\\n    2\n") == "N:x = I:1 + I:2 NL END");
  auto t = lex("x = (1,\n     2)\n");
  CHECK(pos(t[5]) == "2:6");
}

TEST_CASE("operators, longest match") {
  CHECK(kinds("a**=b//=c>>=d<<=e") == "N:a **= N:b //= N:c >>= N:d <<= N:e NL END");
  CHECK(kinds("a**b//c@d->e") == "N:a ** N:b // N:c @ N:d -> N:e NL END");
  CHECK(kinds("+= -= *= /= %= &= |= ^= @=") == "+= -= *= /= %= &= |= ^= @= NL END");
  CHECK(kinds("a<=b>=c==d!=e<f>g") == "N:a <= N:b >= N:c == N:d != N:e < N:f > N:g NL END");
  CHECK(kinds("~a|b&c^d;x.y...") == "~ N:a | N:b & N:c ^ N:d ; N:x . N:y ... NL END");
}

TEST_CASE("integers") {
  CHECK(kinds("0 7 1_000 0x_ff 0XFF 0o17 0b1010 00") == "I:0 I:7 I:1000 I:255 I:255 I:15 I:10 I:0 NL END");
  CHECK(lex("18446744073709551615")[0].ival == UINT64_MAX);  // the parser range-checks i64
  CHECK(err("18446744073709551616") == "SyntaxError: integer literal too large for 64 bits @1:1");
  CHECK(err("x = 0123") ==
        "SyntaxError: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers @1:5");
  CHECK(err("x = 1abc") == "SyntaxError: invalid decimal literal @1:5");
  CHECK(err("x = 1__0") == "SyntaxError: invalid decimal literal @1:5");
  CHECK(err("x = 1_") == "SyntaxError: invalid decimal literal @1:5");
  CHECK(err("x = 0b102") == "SyntaxError: invalid digit '2' in binary literal @1:9");
  CHECK(err("x = 0x") == "SyntaxError: invalid hexadecimal literal @1:5");
  CHECK(err("x = 1j") == "SyntaxError: imaginary numbers are not supported @1:5");
}

TEST_CASE("floats") {
  auto t = lex("1.5 1. .5 1e-3 1_000.5 2E+2 1e400");
  CHECK(t[0].kind == Tok::Float);
  CHECK(t[0].fval == 1.5);
  CHECK(t[1].fval == 1.0);
  CHECK(t[2].fval == 0.5);
  CHECK(t[3].fval == 0.001);
  CHECK(t[4].fval == 1000.5);
  CHECK(t[5].fval == 200.0);
  CHECK(std::isinf(t[6].fval));
  CHECK(kinds("x.y 1 .real") == "N:x . N:y I:1 . N:real NL END");
}

TEST_CASE("strings") {
  CHECK(kinds(R"('a' "b" '''c''' """d""")") == "S:a S:b S:c S:d NL END");
  CHECK(lex(R"('a\nb\t\\\'\x41\u00e9\101')")[0].str == "a\nb\t\\'A\xc3\xa9" "A");
  CHECK(lex(R"(r'a\nb')")[0].str == "a\\nb");
  CHECK(lex(R"('\q')")[0].str == "\\q");  // unknown escapes stay
  CHECK(lex("'''a\nb'''")[0].str == "a\nb");
  CHECK(lex("'a\\\nb'")[0].str == "ab");  // backslash-newline inside a literal
  auto f = lex("f'x{y}' rf'{z}\\n' Fr'' B'b'");
  CHECK(f[0].is_f);
  CHECK(!f[0].is_raw);
  CHECK(f[1].is_f);
  CHECK(f[1].is_raw);
  CHECK(f[2].is_f);
  CHECK(f[3].is_bytes);
  SourceFile sf("t.py", "f'x{y}'");
  auto g = Lexer::tokenize(&sf);
  CHECK(sf.text.substr(g[0].body_begin, g[0].body_end - g[0].body_begin) == "x{y}");
  // a string spanning lines keeps counting lines
  auto m = lex("'''a\nb''' x");
  CHECK(pos(m[1]) == "2:6");
}

TEST_CASE("string errors") {
  CHECK(err("s = 'abc\ny\n") == "SyntaxError: unterminated string literal (detected at line 1) @1:5");
  CHECK(err("s = 'abc") == "SyntaxError: unterminated string literal (detected at line 1) @1:5");
  CHECK(err("s = \"\"\"abc\n\nx") ==
        "SyntaxError: unterminated triple-quoted string literal (detected at line 3) @1:5");
  CHECK(err("s = \"\"\"abc\n\nx\n") ==  // a final newline starts no new line
        "SyntaxError: unterminated triple-quoted string literal (detected at line 3) @1:5");
  CHECK(err("s = '\\x4'") == "SyntaxError: (unicode error) truncated \\x escape @1:5");
}

TEST_CASE("brackets") {
  CHECK(err("x = (1,\n2") == "SyntaxError: '(' was never closed @1:5");
  CHECK(err("x = [1)") == "SyntaxError: closing parenthesis ')' does not match opening parenthesis '[' @1:7");
  CHECK(err("x = [1,\n2)") ==
        "SyntaxError: closing parenthesis ')' does not match opening parenthesis '[' on line 1 @2:2");
  CHECK(err("x = 1)") == "SyntaxError: unmatched ')' @1:6");
}

TEST_CASE("indentation errors") {
  CHECK(err("if 1:\n    x\n  y\n") == "IndentationError: unindent does not match any outer indentation level @3:3");
  CHECK(err("if 1:\n        x\n\ty\n") == "TabError: inconsistent use of tabs and spaces in indentation @3:2");
  CHECK(err("if 1:\n    x\n\ty\n") == "TabError: inconsistent use of tabs and spaces in indentation @3:2");
  CHECK(err("x = 1 \\ y") == "SyntaxError: unexpected character after line continuation character @1:8");
  CHECK(kinds("x = $?") == "N:x = $ ? NL END");  // the parser rejects these, as in CPython
  CHECK(err("x\x01") == "SyntaxError: invalid non-printable character U+0001 @1:2");
  CHECK(err("price = 5\xe2\x82\xac") == "SyntaxError: invalid character '\xe2\x82\xac' (U+20AC) @1:10");
  CHECK(err("s = \xe2\x80\x9chi\xe2\x80\x9d") == "SyntaxError: invalid character '\xe2\x80\x9c' (U+201C) @1:5");
  CHECK(kinds("\xc3\xa9t\xc3\xa9 = 1") == "N:\xc3\xa9t\xc3\xa9 = I:1 NL END");  // non-ASCII letters are fine
}

TEST_CASE("range mode lexes a slice of the file with true positions") {
  SourceFile f("t.py", "s = f'''\n  {a +\n b}'''\n");
  uint32_t b = (uint32_t)f.text.find('{') + 1, e = (uint32_t)f.text.find('}');
  Lexer lx(&f, b, e);
  std::vector<Token> t;
  do t.push_back(lx.next());
  while (t.back().kind != Tok::End);
  REQUIRE(t.size() == 4);  // a + b END: newlines inside are joined
  CHECK(pos(t[0]) == "2:4");
  CHECK(pos(t[2]) == "3:2");
}

TEST_CASE("dedents at EOF inside nested blocks, no trailing newline") {
  CHECK(kinds("def f():\n  if x:\n    return 1") ==
        "N:def N:f ( ) : NL IN N:if N:x : NL IN N:return I:1 NL DE DE END");
  CHECK(kinds("x  # trailing comment") == "N:x NL END");
  CHECK(kinds("x\r\ny\r\n") == "N:x NL N:y NL END");
}
