// A generated Taichi-dialect program as a tree of text templates, so that the
// minimizer can delete statements and simplify expressions without knowing
// the language: every node renders itself, and an expression node can always
// be replaced by a literal of its type.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::fuzz {

// The value types the generator tracks. V3 is ti.math.vec3 (f32 lanes).
enum class Ty : uint8_t { i32, i64, f32, f64, v3 };
constexpr int kTyCount = 5;
const char* ti_name(Ty t);   // "ti.i32", ..., "ti.math.vec3"
std::string zero_of(Ty t);   // a literal of type t that Taichi accepts anywhere: "0", "ti.i64(0)", ...

// tmpl: for an expression, text with $0..$9 standing for kids (a kid may
// appear more than once). For a statement, lines separated by '\n'; "$Bk" on
// a line of its own places kid k (a Block) indented one level deeper.
struct Node {
  enum Kind : uint8_t { Expr, Stmt, Block } kind = Expr;
  std::string tmpl;
  Ty ty = Ty::i32;           // Expr only
  bool removable = true;     // Stmt: the minimizer may delete it
  std::vector<Node> kids;    // Block: its statements
};

Node expr(Ty t, std::string tmpl, std::vector<Node> kids = {});
Node stmt(std::string tmpl, std::vector<Node> kids = {}, bool removable = true);
Node block(std::vector<Node> stmts = {});

// The whole program is a Block of top-level statements (host code, defs).
std::string render(const Node& program);

// A random well-typed program, deterministic in `seed`.
Node generate(uint64_t seed);

}  // namespace kiln::fuzz
