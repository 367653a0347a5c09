// The recursive-descent parser (private to vm/lang).
//
// One method per rule of Python's grammar, named after the rule in the
// language reference (disjunction, conjunction, inversion, comparison, ...),
// so that precedence reads straight off the call chain. Expressions live in
// parse_expr.cpp, f-strings in parse_fstring.cpp, statements in parse_stmt.cpp.
#pragma once
#include <optional>
#include <string>

#include "vm/lang/ast.h"
#include "vm/lang/lexer.h"

namespace kiln::lang {

using namespace kiln::ast;

// How an expression is being bound, for the wording of invalid-target errors.
enum class TargetUse { Assign, For, Del, Comp };

class Parser {
 public:
  Parser(Module* mod, Lexer lexer) : mod_(mod), file_(mod->file), lex_(std::move(lexer)) {}

  Body file_input();
  // The expression inside an f-string's braces: star_expressions, then the end.
  Expr* fstring_replacement();

  // ---- tokens (parse_stmt.cpp) ----
  // The k-th token ahead (k < kLookahead), lexed on demand into a ring.
  const Token& peek(size_t k = 0) { return k < count_ ? buf_[(head_ + k) % kLookahead] : fill(k); }
  const Token& fill(size_t k);
  Token take();  // the next token, consumed
  void drop();   // consumes the next token
  bool at_op(std::string_view o) { return peek().op(o); }
  bool at_kw(std::string_view k) { return peek().kw(k); }
  bool accept_op(std::string_view o) { return at_op(o) ? (drop(), true) : false; }
  bool accept_kw(std::string_view k) { return at_kw(k) ? (drop(), true) : false; }
  void expect_op(std::string_view o);  // "expected 'o'" for ':' and closers, else "invalid syntax"
  void expect_kw(std::string_view k);
  std::string expect_name();      // an identifier (not a keyword)
  [[noreturn]] void error(const std::string& msg, SourceLoc loc);
  [[noreturn]] void invalid_syntax();  // at the next token
  [[noreturn]] void error_kind(const char* kind, const std::string& msg, SourceLoc loc);
  void comma_check(const Expr* elem);
  // A Python construct Kiln's AST can't hold: parsed and dropped, and the
  // first one reported once the whole file has parsed, so that real syntax
  // errors (which CPython would report) take precedence.
  void unsupported(const std::string& msg, SourceLoc loc);
  void prefer_tokenizer_error(const Error& parser_error);

  template <class T> T* node(SourceLoc loc) { return mod_->make<T>(loc); }
  template <class T> T* fin(T* n) { n->end = prev_end_; return n; }

  // ---- expressions (parse_expr.cpp) ----
  bool starts_expr(const Token& t) const;
  Expr* expression();
  Expr* star_expressions();  // a, *b, c -> Tuple
  Expr* star_expression();
  Expr* disjunction();
  Expr* conjunction();
  Expr* inversion();
  Expr* comparison();
  Expr* binary(int level);   // | ^ & << >> + - * / // % @, by level
  Expr* factor();
  Expr* power();
  Expr* primary();
  Expr* atom();
  Expr* lambda();
  Expr* paren();
  Expr* list_display();
  Expr* brace_display();
  Expr* slices();
  Expr* slice_item();
  void call_args(Call* call);
  std::vector<Comprehension> comp_for();
  Expr* target_list(TargetUse use);   // for-loop and comprehension targets
  void parameters(Arguments& a, bool is_lambda, const char* closer);
  Expr* int_constant(const Token& t, bool negate);

  // ---- f-strings and string concatenation (parse_fstring.cpp) ----
  Expr* strings();
  void fstring_body(uint32_t& p, uint32_t end, bool raw, ExprList& out, bool in_spec, int depth);
  void replacement_field(uint32_t& p, uint32_t end, bool raw, ExprList& out, int depth);

  // ---- statements (parse_stmt.cpp) ----
  void statement(Body& out);
  void simple_stmts(Body& out);
  Stmt* simple_stmt();
  Stmt* expr_or_assign();
  Stmt* import_stmt();
  Stmt* from_stmt();
  // ':' and the suite; `after` names the header for errors.
  Body block(const std::string& after, bool forced_colon = false);
  Stmt* if_stmt(bool is_elif);
  Stmt* for_stmt();
  Stmt* while_stmt();
  Stmt* try_stmt();
  Stmt* decorated();
  void with_stmt();
  Stmt* funcdef(SourceLoc loc, ExprList decorators);
  Stmt* classdef(SourceLoc loc, ExprList decorators);
  void set_ctx(Expr* e, Ctx ctx, TargetUse use, bool last_target = false);

  Module* mod_;
  const SourceFile* file_;
  Lexer lex_;
  static constexpr size_t kLookahead = 4;
  Token buf_[kLookahead];
  size_t head_ = 0, count_ = 0;
  SourceLoc prev_end_;  // end of the last consumed token that has text
  bool failed_ = false;             // the parser (not the lexer) raised
  std::optional<Error> unsupported_;
};

// The noun Python uses for an expression in "cannot assign to <noun>".
const char* expr_noun(const Expr* e);

}  // namespace kiln::lang
