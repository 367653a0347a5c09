// The AST of Kiln's Python subset (LANGUAGE.md), shared by host and kernel scope.
//
// Shaped after CPython's `ast` module so that anyone who knows Python's AST can
// read it: the same node names, the same fields. Nodes are plain structs with a
// kind tag; downcast with `as<T>()` after checking `kind`. Every node is owned
// by the Module that the parser returns (nodes live as long as the Module, and
// the host keeps Modules alive for the whole session because kernels compile
// lazily from their AST).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "vm/support/diag.h"

namespace kiln::ast {

#define KILN_EXPR_KINDS(_) \
  _(Name)        /* id */                                         \
  _(Constant)    /* None, True/False, int, float, str */          \
  _(JoinedStr)   /* f-string: values are Constant(str) and FormattedValue */ \
  _(FormattedValue) /* value, conversion ('r','s','a' or 0), format_spec (JoinedStr or null) */ \
  _(BinOp)       /* left op right */                              \
  _(UnaryOp)     /* op operand */                                 \
  _(BoolOp)      /* and/or over values (>= 2) */                  \
  _(Compare)     /* left ops[i] comparators[i], chained */        \
  _(Call)        /* func(args..., keywords...) */                 \
  _(Attribute)   /* value.attr */                                 \
  _(Subscript)   /* value[slice]; x[i, j] has a Tuple slice */    \
  _(Slice)       /* lower:upper:step, any may be null */          \
  _(Starred)     /* *value, in calls and assignment targets */    \
  _(Tuple)                                                        \
  _(List)                                                         \
  _(Dict)        /* keys[i]: values[i] */                          \
  _(IfExp)       /* body if test else orelse */                    \
  _(NamedExpr)   /* (target := value) */                           \
  _(Lambda)                                                         \
  _(ListComp)    /* elt for ... in ... if ... */                   \
  _(DictComp)                                                       \
  _(GeneratorExp) /* as ListComp; host evaluates it eagerly */

#define KILN_STMT_KINDS(_) \
  _(ExprStmt) _(Assign) _(AugAssign) _(AnnAssign) _(If) _(For) _(While) \
  _(Break) _(Continue) _(Pass) _(Return) _(FunctionDef) _(ClassDef)     \
  _(Import) _(ImportFrom) _(Try) _(Raise) _(Assert) _(Global) _(Nonlocal) _(Delete)

enum class ExprKind : uint8_t {
#define KILN_AST_ENUM(k) k,
  KILN_EXPR_KINDS(KILN_AST_ENUM)
};
enum class StmtKind : uint8_t { KILN_STMT_KINDS(KILN_AST_ENUM) };
#undef KILN_AST_ENUM

const char* expr_kind_name(ExprKind k);
const char* stmt_kind_name(StmtKind k);

// Operators. Python's spelling is in op_symbol().
enum class BinOpKind : uint8_t { Add, Sub, Mult, MatMult, Div, FloorDiv, Mod, Pow, LShift, RShift, BitOr, BitXor, BitAnd };
enum class UnaryOpKind : uint8_t { UAdd, USub, Not, Invert };
enum class BoolOpKind : uint8_t { And, Or };
enum class CmpOpKind : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };
const char* op_symbol(BinOpKind k);    // "+", "@", "//", "**", ...
const char* op_symbol(UnaryOpKind k);  // "+", "-", "not", "~"
const char* op_symbol(BoolOpKind k);   // "and", "or"
const char* op_symbol(CmpOpKind k);    // "==", "is not", "not in", ...

// Expression and statement context for Name/Attribute/Subscript/Tuple/List/Starred.
enum class Ctx : uint8_t { Load, Store, Del };

struct Node {
  SourceLoc loc;       // line:col of the node's first token (col 1-based)
  SourceLoc end;       // position just past the node's last token
  virtual ~Node() = default;
};

struct Expr : Node {
  ExprKind kind;
  explicit Expr(ExprKind k) : kind(k) {}
  template <class T> T* as() { return static_cast<T*>(this); }
  template <class T> const T* as() const { return static_cast<const T*>(this); }
};
struct Stmt : Node {
  StmtKind kind;
  explicit Stmt(StmtKind k) : kind(k) {}
  template <class T> T* as() { return static_cast<T*>(this); }
  template <class T> const T* as() const { return static_cast<const T*>(this); }
};
using ExprList = std::vector<Expr*>;
using Body = std::vector<Stmt*>;

// ---- expressions --------------------------------------------------------
struct Name : Expr { std::string id; Ctx ctx = Ctx::Load; Name() : Expr(ExprKind::Name) {} };

struct Constant : Expr {
  enum class Tag : uint8_t { None, Bool, Int, Float, Str, Ellipsis } tag = Tag::None;
  bool b = false;
  int64_t i = 0;       // integer literal (decimal, 0x, 0o, 0b, with _); overflow of i64 is a SyntaxError
  double f = 0;        // float literal (1.5, 1e-3, 1.)
  std::string s;       // string literal after escapes; adjacent literals concatenated
  Constant() : Expr(ExprKind::Constant) {}
};

// f"a{x:.2f}b{y!r}" -> JoinedStr{ Constant("a"), FormattedValue{x, 0, JoinedStr{Constant(".2f")}},
//                                 Constant("b"), FormattedValue{y, 'r', null} }
struct JoinedStr : Expr { ExprList values; JoinedStr() : Expr(ExprKind::JoinedStr) {} };
struct FormattedValue : Expr {
  Expr* value = nullptr;
  char conversion = 0;            // 0, 'r', 's', 'a'
  Expr* format_spec = nullptr;    // JoinedStr or null (specs may nest {..})
  FormattedValue() : Expr(ExprKind::FormattedValue) {}
};

struct BinOp : Expr { Expr* left = nullptr; BinOpKind op{}; Expr* right = nullptr; BinOp() : Expr(ExprKind::BinOp) {} };
struct UnaryOp : Expr { UnaryOpKind op{}; Expr* operand = nullptr; UnaryOp() : Expr(ExprKind::UnaryOp) {} };
struct BoolOp : Expr { BoolOpKind op{}; ExprList values; BoolOp() : Expr(ExprKind::BoolOp) {} };
struct Compare : Expr {
  Expr* left = nullptr;
  std::vector<CmpOpKind> ops;
  ExprList comparators;  // same length as ops
  Compare() : Expr(ExprKind::Compare) {}
};

struct Keyword : Node {   // name=value in a call; name empty for **value
  std::string arg;
  Expr* value = nullptr;
};
struct Call : Expr {
  Expr* func = nullptr;
  ExprList args;                 // may contain Starred
  std::vector<Keyword*> keywords;
  Call() : Expr(ExprKind::Call) {}
};
struct Attribute : Expr { Expr* value = nullptr; std::string attr; Ctx ctx = Ctx::Load; Attribute() : Expr(ExprKind::Attribute) {} };
// x[i] -> slice = i; x[i, j] -> slice = Tuple(i, j); x[1:2] -> slice = Slice; x[None] -> Constant None
struct Subscript : Expr { Expr* value = nullptr; Expr* slice = nullptr; Ctx ctx = Ctx::Load; Subscript() : Expr(ExprKind::Subscript) {} };
struct Slice : Expr { Expr* lower = nullptr; Expr* upper = nullptr; Expr* step = nullptr; Slice() : Expr(ExprKind::Slice) {} };
struct Starred : Expr { Expr* value = nullptr; Ctx ctx = Ctx::Load; Starred() : Expr(ExprKind::Starred) {} };
struct Tuple : Expr { ExprList elts; Ctx ctx = Ctx::Load; Tuple() : Expr(ExprKind::Tuple) {} };
struct List : Expr { ExprList elts; Ctx ctx = Ctx::Load; List() : Expr(ExprKind::List) {} };
struct Dict : Expr { ExprList keys; ExprList values; Dict() : Expr(ExprKind::Dict) {} };  // key null for **value
struct NamedExpr : Expr { Name* target = nullptr; Expr* value = nullptr; NamedExpr() : Expr(ExprKind::NamedExpr) {} };
struct IfExp : Expr { Expr* test = nullptr; Expr* body = nullptr; Expr* orelse = nullptr; IfExp() : Expr(ExprKind::IfExp) {} };

struct Arg : Node {
  std::string name;
  Expr* annotation = nullptr;  // null when absent
};
struct Arguments {
  std::vector<Arg*> args;          // positional-or-keyword
  ExprList defaults;               // for the last defaults.size() of args
  Arg* vararg = nullptr;           // *args
  std::vector<Arg*> kwonlyargs;    // after * or *args
  ExprList kw_defaults;            // same length as kwonlyargs; null = required
  Arg* kwarg = nullptr;            // **kwargs
};
struct Lambda : Expr { Arguments args; Expr* body = nullptr; Lambda() : Expr(ExprKind::Lambda) {} };

struct Comprehension {          // for target in iter if ifs...
  Expr* target = nullptr;
  Expr* iter = nullptr;
  ExprList ifs;
};
struct ListComp : Expr { Expr* elt = nullptr; std::vector<Comprehension> generators; ListComp() : Expr(ExprKind::ListComp) {} };
struct GeneratorExp : Expr { Expr* elt = nullptr; std::vector<Comprehension> generators; GeneratorExp() : Expr(ExprKind::GeneratorExp) {} };
struct DictComp : Expr { Expr* key = nullptr; Expr* value = nullptr; std::vector<Comprehension> generators; DictComp() : Expr(ExprKind::DictComp) {} };

// ---- statements ---------------------------------------------------------
struct ExprStmt : Stmt { Expr* value = nullptr; ExprStmt() : Stmt(StmtKind::ExprStmt) {} };
// a = b = value -> targets {a, b}; a, b = t -> targets {Tuple(a, b)}
struct Assign : Stmt { ExprList targets; Expr* value = nullptr; Assign() : Stmt(StmtKind::Assign) {} };
struct AugAssign : Stmt { Expr* target = nullptr; BinOpKind op{}; Expr* value = nullptr; AugAssign() : Stmt(StmtKind::AugAssign) {} };
struct AnnAssign : Stmt { Expr* target = nullptr; Expr* annotation = nullptr; Expr* value = nullptr; AnnAssign() : Stmt(StmtKind::AnnAssign) {} };
struct If : Stmt { Expr* test = nullptr; Body body; Body orelse; If() : Stmt(StmtKind::If) {} };  // elif = If inside orelse
struct For : Stmt { Expr* target = nullptr; Expr* iter = nullptr; Body body; Body orelse; For() : Stmt(StmtKind::For) {} };
struct While : Stmt { Expr* test = nullptr; Body body; Body orelse; While() : Stmt(StmtKind::While) {} };
struct Break : Stmt { Break() : Stmt(StmtKind::Break) {} };
struct Continue : Stmt { Continue() : Stmt(StmtKind::Continue) {} };
struct Pass : Stmt { Pass() : Stmt(StmtKind::Pass) {} };
struct Return : Stmt { Expr* value = nullptr; Return() : Stmt(StmtKind::Return) {} };
struct FunctionDef : Stmt {
  std::string name;
  Arguments args;
  Body body;
  ExprList decorators;       // in source order
  Expr* returns = nullptr;   // return annotation or null
  SourceLoc def_loc;         // the `def` keyword (loc is the first decorator, as in CPython 3.8+: loc is `def`)
  FunctionDef() : Stmt(StmtKind::FunctionDef) {}
};
struct ClassDef : Stmt {
  std::string name;
  ExprList bases;
  Body body;
  ExprList decorators;
  ClassDef() : Stmt(StmtKind::ClassDef) {}
};
struct Alias { std::string name; std::string asname; SourceLoc loc; };  // asname empty when absent; name dotted "a.b"
struct Import : Stmt { std::vector<Alias> names; Import() : Stmt(StmtKind::Import) {} };
struct ImportFrom : Stmt { std::string module; std::vector<Alias> names; ImportFrom() : Stmt(StmtKind::ImportFrom) {} };  // name "*" for import *
struct ExceptHandler : Node { Expr* type = nullptr; std::string name; Body body; };  // type null = bare except
struct Try : Stmt { Body body; std::vector<ExceptHandler*> handlers; Body orelse; Body finalbody; Try() : Stmt(StmtKind::Try) {} };
struct Raise : Stmt { Expr* exc = nullptr; Expr* cause = nullptr; Raise() : Stmt(StmtKind::Raise) {} };
struct Assert : Stmt { Expr* test = nullptr; Expr* msg = nullptr; Assert() : Stmt(StmtKind::Assert) {} };
struct Global : Stmt { std::vector<std::string> names; Global() : Stmt(StmtKind::Global) {} };
struct Nonlocal : Stmt { std::vector<std::string> names; Nonlocal() : Stmt(StmtKind::Nonlocal) {} };
struct Delete : Stmt { ExprList targets; Delete() : Stmt(StmtKind::Delete) {} };

// A parsed source text: its statements, and ownership of every node in it.
struct Module {
  const SourceFile* file = nullptr;
  Body body;
  std::vector<std::unique_ptr<Node>> nodes;  // owns every node above, Arg/Keyword/ExceptHandler too

  template <class T> T* make(SourceLoc loc) {
    auto p = std::make_unique<T>();
    p->loc = loc;
    T* raw = p.get();
    nodes.push_back(std::move(p));
    return raw;
  }
};

// Parses a whole file (or REPL chunk). Throws kiln::Error{"SyntaxError"} with
// the exact line:col of the offending token (IndentationError is reported as
// kind "IndentationError", as Python does).
std::unique_ptr<Module> parse(const SourceFile* file);

// Calls fn on each direct sub-expression of e (operands, call arguments,
// comprehension parts, a lambda's body and defaults), in source order. Scans
// that look for one kind of node (the names `:=` binds) recurse with it.
void each_child(const Expr* e, const std::function<void(const Expr*)>& fn);
// Calls fn on each expression a statement holds directly (not those of the
// statements in its bodies).
void each_expr(const Stmt* s, const std::function<void(const Expr*)>& fn);

// Renders an expression back to Python source (for messages: "cannot assign to 'x[i]'").
std::string unparse(const Expr* e);

}  // namespace kiln::ast
