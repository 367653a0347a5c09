// Statement rendering in Python's ast.unparse style, checked against strings
// produced by CPython 3.11, and operator precedence via ast::unparse.
#include <doctest/doctest.h>

#include "tests/unit/lang_helpers.h"

using namespace kiln;
using namespace kiln::ast;

namespace {

using test::ex;
using test::parse_src;

// Renders statements the way Python's ast.unparse does (without its blank
// lines), so expected strings can come straight from CPython.
std::string target(const Expr* e) {  // targets sit at tuple precedence: no parens
  if (e->kind != ExprKind::Tuple || e->as<Tuple>()->elts.empty()) return unparse(e);
  auto& elts = e->as<Tuple>()->elts;
  std::string s;
  for (size_t i = 0; i < elts.size(); i++) s += (i ? ", " : "") + unparse(elts[i]);
  return elts.size() == 1 ? s + "," : s;
}

std::string join_names(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); i++) s += (i ? ", " : "") + v[i];
  return s;
}

void render(const Body& body, int ind, std::string& out);

void line(std::string& out, int ind, const std::string& s) {
  if (!out.empty()) out += "\n";
  out += std::string(ind * 4, ' ') + s;
}

std::string args_of(const Arguments& a) {  // via a lambda's unparse, minus "lambda "
  Lambda l;
  l.args = a;
  Constant c;
  l.body = &c;
  std::string s = unparse(&l);
  s = s.substr(6, s.size() - 6 - 6);  // strip "lambda" and ": None"
  return s.empty() ? s : s.substr(1);
}

void render_if(const If* s, int ind, std::string& out, bool elif) {
  line(out, ind, std::string(elif ? "elif " : "if ") + unparse(s->test) + ":");
  render(s->body, ind + 1, out);
  if (s->orelse.size() == 1 && s->orelse[0]->kind == StmtKind::If) {
    render_if(s->orelse[0]->as<If>(), ind, out, true);
  } else if (!s->orelse.empty()) {
    line(out, ind, "else:");
    render(s->orelse, ind + 1, out);
  }
}

void render(const Body& body, int ind, std::string& out) {
  for (auto* st : body) {
    switch (st->kind) {
      case StmtKind::ExprStmt: line(out, ind, unparse(st->as<ExprStmt>()->value)); break;
      case StmtKind::Assign: {
        std::string s;
        for (auto* t : st->as<Assign>()->targets) s += target(t) + " = ";
        line(out, ind, s + unparse(st->as<Assign>()->value));
        break;
      }
      case StmtKind::AugAssign: {
        auto* a = st->as<AugAssign>();
        line(out, ind, unparse(a->target) + " " + op_symbol(a->op) + "= " + unparse(a->value));
        break;
      }
      case StmtKind::AnnAssign: {
        auto* a = st->as<AnnAssign>();
        line(out, ind, unparse(a->target) + ": " + unparse(a->annotation) + (a->value ? " = " + unparse(a->value) : ""));
        break;
      }
      case StmtKind::If: render_if(st->as<If>(), ind, out, false); break;
      case StmtKind::For: {
        auto* f = st->as<For>();
        line(out, ind, "for " + target(f->target) + " in " + unparse(f->iter) + ":");
        render(f->body, ind + 1, out);
        if (!f->orelse.empty()) line(out, ind, "else:"), render(f->orelse, ind + 1, out);
        break;
      }
      case StmtKind::While: {
        auto* w = st->as<While>();
        line(out, ind, "while " + unparse(w->test) + ":");
        render(w->body, ind + 1, out);
        if (!w->orelse.empty()) line(out, ind, "else:"), render(w->orelse, ind + 1, out);
        break;
      }
      case StmtKind::Break: line(out, ind, "break"); break;
      case StmtKind::Continue: line(out, ind, "continue"); break;
      case StmtKind::Pass: line(out, ind, "pass"); break;
      case StmtKind::Return: {
        auto* r = st->as<Return>();
        line(out, ind, r->value ? "return " + unparse(r->value) : "return");
        break;
      }
      case StmtKind::FunctionDef: {
        auto* f = st->as<FunctionDef>();
        for (auto* d : f->decorators) line(out, ind, "@" + unparse(d));
        line(out, ind, "def " + f->name + "(" + args_of(f->args) + ")" + (f->returns ? " -> " + unparse(f->returns) : "") + ":");
        render(f->body, ind + 1, out);
        break;
      }
      case StmtKind::ClassDef: {
        auto* c = st->as<ClassDef>();
        for (auto* d : c->decorators) line(out, ind, "@" + unparse(d));
        std::string bases;
        for (size_t i = 0; i < c->bases.size(); i++) bases += (i ? ", " : "") + unparse(c->bases[i]);
        line(out, ind, "class " + c->name + (bases.empty() ? "" : "(" + bases + ")") + ":");
        render(c->body, ind + 1, out);
        break;
      }
      case StmtKind::Import:
      case StmtKind::ImportFrom: {
        bool from = st->kind == StmtKind::ImportFrom;
        auto& names = from ? st->as<ImportFrom>()->names : st->as<Import>()->names;
        std::string s = from ? "from " + st->as<ImportFrom>()->module + " import " : "import ";
        for (size_t i = 0; i < names.size(); i++)
          s += (i ? ", " : "") + names[i].name + (names[i].asname.empty() ? "" : " as " + names[i].asname);
        line(out, ind, s);
        break;
      }
      case StmtKind::Try: {
        auto* t = st->as<Try>();
        line(out, ind, "try:");
        render(t->body, ind + 1, out);
        for (auto* h : t->handlers) {
          line(out, ind, "except" + (h->type ? " " + unparse(h->type) : "") + (h->name.empty() ? "" : " as " + h->name) + ":");
          render(h->body, ind + 1, out);
        }
        if (!t->orelse.empty()) line(out, ind, "else:"), render(t->orelse, ind + 1, out);
        if (!t->finalbody.empty()) line(out, ind, "finally:"), render(t->finalbody, ind + 1, out);
        break;
      }
      case StmtKind::Raise: {
        auto* r = st->as<Raise>();
        line(out, ind, "raise" + (r->exc ? " " + unparse(r->exc) : "") + (r->cause ? " from " + unparse(r->cause) : ""));
        break;
      }
      case StmtKind::Assert: {
        auto* a = st->as<Assert>();
        line(out, ind, "assert " + unparse(a->test) + (a->msg ? ", " + unparse(a->msg) : ""));
        break;
      }
      case StmtKind::Global: line(out, ind, "global " + join_names(st->as<Global>()->names)); break;
      case StmtKind::Nonlocal: line(out, ind, "nonlocal " + join_names(st->as<Nonlocal>()->names)); break;
      case StmtKind::Delete: {
        std::string s;
        for (auto* t : st->as<Delete>()->targets) s += (s.empty() ? "" : ", ") + unparse(t);
        line(out, ind, "del " + s);
        break;
      }
    }
  }
}

std::string roundtrip(const std::string& src) {
  auto m = parse_src(src);
  std::string out;
  render(m->body, 0, out);
  return out;
}

}  // namespace


TEST_CASE("statements round-trip like CPython's ast.unparse") {
  // Expected strings were produced by CPython 3.11's ast.unparse.
  static const std::pair<const char*, const char*> cases[] = {
    {"a, b = b, a",
     "a, b = (b, a)"},
    {"x = y = f(1, *a, k=2, **kw)",
     "x = y = f(1, *a, k=2, **kw)"},
    {"a, *rest = t\n[p, q] = 1, 2",
     "a, *rest = t\n[p, q] = (1, 2)"},
    {"x += 1\nx.y -= 2\nx[i] *= 3\nx //= 4\nx **= 2\nx %= 3\nx &= 1\nx |= 2\nx ^= 3\nx <<= 1\nx >>= 2\nx @= m\nx /= 2",
     "x += 1\nx.y -= 2\nx[i] *= 3\nx //= 4\nx **= 2\nx %= 3\nx &= 1\nx |= 2\nx ^= 3\nx <<= 1\nx >>= 2\nx @= m\nx /= 2"},
    {"n: int = 5\nm: ti.f32\nself.v: float = 1.0",
     "n: int = 5\nm: ti.f32\nself.v: float = 1.0"},
    {"if a:\n    pass\nelif b:\n    x = 1\nelse:\n    y = 2",
     "if a:\n    pass\nelif b:\n    x = 1\nelse:\n    y = 2"},
    {"for i, j in ti.ndrange(4, 5):\n    x[i, j] = i + j\nelse:\n    done()",
     "for i, j in ti.ndrange(4, 5):\n    x[i, j] = i + j\nelse:\n    done()"},
    {"while n > 0:\n    n -= 1\n    if n == 3: break\n    continue\nelse:\n    pass",
     "while n > 0:\n    n -= 1\n    if n == 3:\n        break\n    continue\nelse:\n    pass"},
    {"try:\n    f()\nexcept ValueError as e:\n    raise RuntimeError('x') from e\nexcept (A, B):\n    pass\nexcept:\n    raise\nelse:\n    g()\nfinally:\n    h()",
     "try:\n    f()\nexcept ValueError as e:\n    raise RuntimeError('x') from e\nexcept (A, B):\n    pass\nexcept:\n    raise\nelse:\n    g()\nfinally:\n    h()"},
    {"@ti.kernel\ndef k(x: ti.template(), n: int) -> ti.f32:\n    return x[n] * 2.0",
     "@ti.kernel\ndef k(x: ti.template(), n: int) -> ti.f32:\n    return x[n] * 2.0"},
    {"@a.b(c, d=1)\n@e\nclass C(Base):\n    z = 1\n    def m(self, *args, key=None, **kw):\n        return self.z",
     "@a.b(c, d=1)\n@e\nclass C(Base):\n    z = 1\n    def m(self, *args, key=None, **kw):\n        return self.z"},
    {"def f(a, b=1, *, c, d=2):\n    global g\n    g = lambda x, y=2: x + y\n    def inner():\n        nonlocal a\n        a = 1\n    return inner",
     "def f(a, b=1, *, c, d=2):\n    global g\n    g = lambda x, y=2: x + y\n    def inner():\n        nonlocal a\n        a = 1\n    return inner"},
    {"import taichi as ti\nimport a.b.c, os\nfrom x.y import z as w, v\nfrom . import q\nfrom ..r import *",
     "import taichi as ti\nimport a.b.c, os\nfrom x.y import z as w, v\nfrom . import q\nfrom ..r import *"},
    {"del a, b[0], c.d\nassert x > 0, 'msg'\nassert y\npass",
     "del a, b[0], c.d\nassert x > 0, 'msg'\nassert y\npass"},
    {"x = 1; y = 2; z = 3;",
     "x = 1\ny = 2\nz = 3"},
    {"if x: y = 1\nfor i in r: print(i)\nwhile c: c -= 1",
     "if x:\n    y = 1\nfor i in r:\n    print(i)\nwhile c:\n    c -= 1"},
    {"v = [x * y for x in range(3) if x for y in range(x) if y > 1 if y < 5]\nd = {k: v for k, v in items}\ng = sum(i for i in range(10))\ns = (x for x in y)",
     "v = [x * y for x in range(3) if x for y in range(x) if y > 1 if y < 5]\nd = {k: v for k, v in items}\ng = sum((i for i in range(10)))\ns = (x for x in y)"},
    {"print(f(a)(b)[c].d[e:f, ::2, g][None])",
     "print(f(a)(b)[c].d[e:f, ::2, g][None])"},
    {"t = (1,)\nu = ()\nw = [1, 2, [3, 4]]\nd = {'a': 1, **e}\ne = {}\nl = []",
     "t = (1,)\nu = ()\nw = [1, 2, [3, 4]]\nd = {'a': 1, **e}\ne = {}\nl = []"},
    {"x = a if b else c\ny = not a\nz = a is not b\nw = a not in b\nq = a in b and c is d or not e",
     "x = a if b else c\ny = not a\nz = a is not b\nw = a not in b\nq = a in b and c is d or not e"},
    {"r = -2 ** 2 + (-2) ** 2 - 2 ** -1 + 2 ** 3 ** 2\ns = ~a & b | c ^ d << 2 >> 1\nt = a @ b // c % d / e * f",
     "r = -2 ** 2 + (-2) ** 2 - 2 ** (-1) + 2 ** 3 ** 2\ns = ~a & b | c ^ d << 2 >> 1\nt = a @ b // c % d / e * f"},
    {"x = 1 < 2 <= 3 > 4 >= 5 == 6 != 7",
     "x = 1 < 2 <= 3 > 4 >= 5 == 6 != 7"},
    {"x = 'a' 'b' \"c\"\ny = 0x10 + 0o7 + 0b11 + 1_000 + 1.5 + 1. + .5 + 1e-3 + 1e16 + 1e15",
     "x = 'abc'\ny = 16 + 7 + 3 + 1000 + 1.5 + 1.0 + 0.5 + 0.001 + 1e+16 + 1000000000000000.0"},
    {"x = ...\ny = None\nz = True\nw = False",
     "x = ...\ny = None\nz = True\nw = False"},
    {"a[1:2]\na[:]\na[::2]\na[1:]\na[:3]\na[i, 1:3]\na[i,]\na[()]",
     "a[1:2]\na[:]\na[::2]\na[1:]\na[:3]\na[i, 1:3]\na[i,]\na[()]"},
    {"lambda: 0\nlambda *a, **k: (a, k)\nlambda x, *, y: y",
     "lambda: 0\nlambda *a, **k: (a, k)\nlambda x, *, y: y"},
    {"f(a)(b, c=1)\nf(*a, *b, c=1, **d, **e)",
     "f(a)(b, c=1)\nf(*a, *b, c=1, **d, **e)"},
  };
  for (auto& [src, want] : cases) {
    INFO(src);
    CHECK(roundtrip(src) == want);
  }
}

TEST_CASE("operator precedence and associativity, via unparse") {
  // Expected strings from CPython 3.11's ast.unparse.
  static const std::pair<const char*, const char*> cases[] = {
      {"-2**2", "-2 ** 2"},
      {"(-2)**2", "(-2) ** 2"},
      {"2**-1", "2 ** (-1)"},
      {"2**3**2", "2 ** 3 ** 2"},
      {"(2**3)**2", "(2 ** 3) ** 2"},
      {"a+b*c", "a + b * c"},
      {"(a+b)*c", "(a + b) * c"},
      {"a-b-c", "a - b - c"},
      {"a-(b-c)", "a - (b - c)"},
      {"a*b/c//d%e@f", "a * b / c // d % e @ f"},
      {"a*(b/c)", "a * (b / c)"},
      {"a<<b+c", "a << b + c"},
      {"(a<<b)+c", "(a << b) + c"},
      {"a&b|c^d", "a & b | c ^ d"},
      {"a|(b&c)", "a | b & c"},
      {"(a|b)&c", "(a | b) & c"},
      {"a^b&c", "a ^ b & c"},
      {"~a**b", "~a ** b"},
      {"(~a)**b", "(~a) ** b"},
      {"-a.b[c](d)", "-a.b[c](d)"},
      {"not a or b and c", "not a or (b and c)"},
      {"not (a or b)", "not (a or b)"},
      {"(not a) == b", "(not a) == b"},
      {"a == (not b)", "a == (not b)"},
      {"a if b else c", "a if b else c"},
      {"(a if b else c).d", "(a if b else c).d"},
      {"lambda x: x if x else y", "lambda x: x if x else y"},
      {"(lambda: 1)()", "(lambda: 1)()"},
      {"a < b == c", "a < b == c"},
      {"(a < b) < c", "(a < b) < c"},
      {"a not in b", "a not in b"},
      {"a is not b", "a is not b"},
      {"not a in b", "not a in b"},
      {"a or b or c", "a or b or c"},
      {"(a or b) or c", "(a or b) or c"},
      {"a and (b or c)", "a and (b or c)"},
      {"a or (b and c)", "a or (b and c)"},
      {"-(-a)", "--a"},
      {"- -a", "--a"},
      {"+a", "+a"},
      {"f(a)(b)", "f(a)(b)"},
      {"x[i][j]", "x[i][j]"},
      {"x[i, j]", "x[i, j]"},
      {"x[(i, j)]", "x[i, j]"},
      {"x[i:j, ::k]", "x[i:j, ::k]"},
      {"x[None]", "x[None]"},
      {"x[...]", "x[...]"},
      {"x[-1]", "x[-1]"},
      {"[a, *b]", "[a, *b]"},
      {"(a, b)", "(a, b)"},
      {"((a, b), c)", "((a, b), c)"},
      {"()", "()"},
      {"(a,)", "(a,)"},
      {"{}", "{}"},
      {"{1: 2, **d}", "{1: 2, **d}"},
      {"[x for x in y]", "[x for x in y]"},
      {"[(x, y) for x, y in z]", "[(x, y) for x, y in z]"},
      {"{k: v for k in d}", "{k: v for k in d}"},
      {"(x for x in y)", "(x for x in y)"},
      {"f(x for x in y)", "f((x for x in y))"},
      {"f(*a, k=1, **kw)", "f(*a, k=1, **kw)"},
      {"a.b.c", "a.b.c"},
      {"1 .real", "1 .real"},
      {"1.5.real", "1.5.real"},
      {"'a' 'b'", "'ab'"},
      {"f(a)[b].c(d)", "f(a)[b].c(d)"},
      {"a // b * c", "a // b * c"},
      {"a ** (b * c)", "a ** (b * c)"},
      {"(a * b) ** c", "(a * b) ** c"},
      {"a - -b", "a - -b"},
      {"a + (-b)", "a + -b"},
      {"x if y else (lambda: z)", "x if y else lambda: z"},
      {"[lambda: 1, 2]", "[lambda: 1, 2]"},
      {"a @ b @ c", "a @ b @ c"},
      {"a @ (b @ c)", "a @ (b @ c)"},
      {"1e100", "1e+100"},
      {"0.1 + 0.2", "0.1 + 0.2"},
      {"1.0", "1.0"},
      {"1e-07", "1e-07"},
      {"123456789012345.0", "123456789012345.0"},
      {"3.14159", "3.14159"},
      {"x[::]", "x[:]"},
      {"x[:, 0]", "x[:, 0]"},
      {"1 < (2 if a else 3)", "1 < (2 if a else 3)"},
      {"not not a", "not not a"},
      {"a and not b", "a and (not b)"},
      {"(yield_) + 1", "yield_ + 1"},
      {"f(a=b == c)", "f(a=b == c)"},
      {"d[a:b:c]", "d[a:b:c]"},
      {"-2.5 ** 2", "-2.5 ** 2"},
      {"(x := 1) + 2", "(x := 1) + 2"},
      {"f(y := 2)", "f((y := 2))"},
      {"(x := a + b)", "(x := (a + b))"},
      {"[y for x in z if (y := x)]", "[y for x in z if (y := x)]"},
  };
  for (auto& [src, want] : cases) {
    INFO(src);
    CHECK(ex(src) == want);
  }
}

TEST_CASE("parameter lists and trailing semicolons render back") {
  CHECK(roundtrip("def g(*, a): pass") == "def g(*, a):\n    pass");
  CHECK(roundtrip("def h(a, /, b): pass") == "def h(a, b):\n    pass");  // '/' accepted, folded
  CHECK(roundtrip("def k(): return") == "def k():\n    return");
  CHECK(roundtrip("x = 1;") == "x = 1");
}
