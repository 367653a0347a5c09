// Parsing helpers shared by the lang_*.cpp unit tests.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "vm/lang/ast.h"

namespace kiln::test {

// Parses `src`; the SourceFile is kept for the whole test run (nodes point at it).
inline std::unique_ptr<ast::Module> parse_src(const std::string& src) {
  static std::vector<std::unique_ptr<SourceFile>> files;
  files.push_back(std::make_unique<SourceFile>("t.py", src));
  return ast::parse(files.back().get());
}

// The first statement's expression, unparsed.
inline std::string ex(const std::string& src) {
  static std::vector<std::unique_ptr<ast::Module>> keep;
  keep.push_back(parse_src(src + "\n"));
  auto* s = keep.back()->body.at(0);
  REQUIRE(s->kind == ast::StmtKind::ExprStmt);
  return ast::unparse(s->as<ast::ExprStmt>()->value);
}

// "Kind: message @line:col" of parsing `src`, or "ok".
inline std::string parse_error(const std::string& src) {
  try {
    parse_src(src);
  } catch (const Error& e) {
    return e.kind + ": " + e.message + " @" + std::to_string(e.loc.line) + ":" + std::to_string(e.loc.col);
  }
  return "ok";
}

}  // namespace kiln::test
