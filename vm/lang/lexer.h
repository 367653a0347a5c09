// The tokenizer of Kiln's Python subset.
//
// Produces tokens the way CPython's tokenizer does: NEWLINE ends a logical
// line, INDENT/DEDENT bracket blocks, and newlines inside () [] {} or after a
// backslash are not tokens. Comments and blank lines produce nothing. The
// lexer is pull-based (next()) so that, as in CPython, a syntax error early in
// the file is reported before a tokenizer error later in it.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vm/support/diag.h"

namespace kiln::lang {

enum class Tok : uint8_t { End, Newline, Indent, Dedent, Name, Int, Float, String, Op };
const char* tok_name(Tok k);

// A word of up to 8 bytes packed into an integer, 0 for longer (or empty)
// ones. Names and operators carry theirs (Token::key), so the parser's tests
// for an operator or a keyword compare one integer with a constant folded
// at compile time, not two strings (string compares were a third of the
// parse of a 10^4-line kernel, issue 16).
constexpr uint64_t pack_key(std::string_view s) {
  if (s.empty() || s.size() > 8) return 0;
  uint64_t k = 0;
  for (size_t i = 0; i < s.size(); i++) k |= (uint64_t)(unsigned char)s[i] << (8 * i);
  return k;
}

struct Token {
  Tok kind = Tok::End;
  // Name: the identifier (keywords too); Op: the operator ("**=", "(", "...");
  // Int/Float/String: the source spelling (strings with prefix and quotes).
  std::string text;
  SourceLoc loc;  // first character
  SourceLoc end;  // just past the last character
  uint64_t ival = 0;  // Int: value up to 2^64-1 (the parser range-checks for i64)
  double fval = 0;    // Float
  // String literals. A plain string is decoded here; an f-string keeps its raw
  // body (body_begin..body_end in the file text) for the parser to split.
  std::string str;
  bool is_f = false, is_raw = false, is_bytes = false;
  uint32_t body_begin = 0, body_end = 0;

  uint64_t key = 0;  // Name and Op: pack_key(text)

  bool op(std::string_view t) const { return kind == Tok::Op && key == pack_key(t); }  // operators have <= 3 bytes
  bool kw(std::string_view t) const { return kind == Tok::Name && (t.size() <= 8 ? key == pack_key(t) : text == t); }
};

class Lexer {
 public:
  explicit Lexer(const SourceFile* file);
  // Lexes file->text[begin, end) as if it were inside brackets: no NEWLINE,
  // INDENT or DEDENT. Used for the expressions inside f-string braces, so their
  // tokens carry their true line:col in the file.
  Lexer(const SourceFile* file, uint32_t begin, uint32_t end);

  Token next();
  // The whole file's tokens, ending with End (convenience for tests).
  static std::vector<Token> tokenize(const SourceFile* file);

 private:
  const SourceFile* file_;
  std::string_view src_;
  uint32_t pos_ = 0, end_ = 0;
  uint32_t line_ = 1, line_start_ = 0;
  bool bracket_mode_ = false;
  bool at_line_start_ = true;
  bool line_has_tokens_ = false;  // a NEWLINE is owed at EOF
  int pending_dedents_ = 0;
  // Indentation columns with tabs to multiples of 8, and with tabs counted as
  // 1: if the two orders disagree the indentation is ambiguous (TabError).
  std::vector<std::pair<int, int>> indents_{{0, 0}};
  std::vector<std::pair<char, SourceLoc>> parens_;

  SourceLoc here() const { return {file_, line_, pos_ - line_start_ + 1}; }
  char peekc(uint32_t k = 0) const { return pos_ + k < end_ ? src_[pos_ + k] : '\0'; }
  void newline_at(uint32_t nl_pos) { line_++; line_start_ = nl_pos + 1; }
  Token make(Tok k, SourceLoc loc, uint32_t start);
  bool indentation(Token& out);
  void skip_space();
  uint32_t check_non_ascii();
  Token number();
  Token string(SourceLoc loc, uint32_t start, std::string_view prefix);
  Token op();
};

bool is_keyword(std::string_view s);
// How many lines the definition at the start of `file` spans: its decorators,
// its `def` line and its body, up to the last logical line before the
// indentation returns to the def's own (what CPython's inspect.getblock finds,
// without its pure-Python tokenizer: hosts read a kernel's source with this).
// The def may be indented. Throws kiln::Error where the lexer finds an error
// inside the definition; the text after it is never read.
uint32_t def_block_lines(const SourceFile* file);

// The line:col of a byte offset in file->text.
SourceLoc loc_at(const SourceFile* file, uint32_t offset);
// Decodes Python escape sequences (\n, \x41, \u00e9, \N not supported, ...) in a
// non-raw literal body; unknown escapes stay as written, as Python does.
// `loc` is where errors point.
std::string decode_escapes(std::string_view body, SourceLoc loc);

}  // namespace kiln::lang
