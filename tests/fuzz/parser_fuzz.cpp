// libFuzzer target for the parser (vm/lang): any input either parses or
// raises a kiln::Error whose rendering (kind, file:line:col, caret) works;
// never a crash, a hang or a sanitizer report. Parsed modules are unparsed
// expression by expression (ast::unparse) to exercise the printer too.
// Built and run by tests/fuzz/run_parser_fuzz.sh (clang, -fsanitize=fuzzer,address,undefined).
#include <cstddef>
#include <cstdint>
#include <string>

#include "vm/lang/ast.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kiln::SourceFile file("fuzz.py", std::string(reinterpret_cast<const char*>(data), size));
  try {
    auto m = kiln::ast::parse(&file);
    for (auto* s : m->body)
      if (s->kind == kiln::ast::StmtKind::ExprStmt) (void)kiln::ast::unparse(s->as<kiln::ast::ExprStmt>()->value);
  } catch (const kiln::Error& e) {
    (void)kiln::format_error(e);
  }
  return 0;
}
