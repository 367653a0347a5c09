// Parser: node shapes for every construct, Ctx::Store on targets, f-strings,
// locations (loc/end), and a realistic Taichi program. Errors are in
// lang_parse_errors.cpp, rendering and precedence in lang_unparse.cpp.
#include <doctest/doctest.h>

#include "tests/unit/lang_helpers.h"

using namespace kiln;
using namespace kiln::ast;

namespace {

using test::ex;
using test::parse_src;
std::string err(const std::string& src) { return test::parse_error(src); }

std::string pos(const Node* n) { return std::to_string(n->loc.line) + ":" + std::to_string(n->loc.col); }
std::string span(const Node* n) { return pos(n) + "-" + std::to_string(n->end.line) + ":" + std::to_string(n->end.col); }

}  // namespace

TEST_CASE("expression node shapes") {
  auto m = parse_src("-2**2\na < b <= c\nx[i, j]\nx[1:2]\nx[None]\na not in b\nf(1, *a, k=2, **kw)\n");
  auto val = [&](int i) { return m->body[i]->as<ExprStmt>()->value; };
  auto* neg = val(0)->as<UnaryOp>();
  CHECK(neg->op == UnaryOpKind::USub);
  CHECK(neg->operand->kind == ExprKind::BinOp);
  CHECK(neg->operand->as<BinOp>()->op == BinOpKind::Pow);
  auto* cmp = val(1)->as<Compare>();
  REQUIRE(cmp->ops.size() == 2);
  CHECK(cmp->ops[0] == CmpOpKind::Lt);
  CHECK(cmp->ops[1] == CmpOpKind::LtE);
  CHECK(cmp->comparators.size() == 2);
  auto* sub = val(2)->as<Subscript>();
  CHECK(sub->slice->kind == ExprKind::Tuple);
  CHECK(sub->slice->as<Tuple>()->elts.size() == 2);
  auto* sl = val(3)->as<Subscript>()->slice->as<Slice>();
  CHECK(sl->lower->as<Constant>()->i == 1);
  CHECK(sl->upper->as<Constant>()->i == 2);
  CHECK(sl->step == nullptr);
  auto* none = val(4)->as<Subscript>()->slice;
  CHECK(none->kind == ExprKind::Constant);
  CHECK(none->as<Constant>()->tag == Constant::Tag::None);
  CHECK(val(5)->as<Compare>()->ops[0] == CmpOpKind::NotIn);
  auto* call = val(6)->as<Call>();
  REQUIRE(call->args.size() == 2);
  CHECK(call->args[1]->kind == ExprKind::Starred);
  REQUIRE(call->keywords.size() == 2);
  CHECK(call->keywords[0]->arg == "k");
  CHECK(call->keywords[1]->arg == "");
  CHECK(pos(call->keywords[0]) == "7:10");
}

TEST_CASE("literals") {
  auto m = parse_src("0x7fffffffffffffff\n-9223372036854775808\n1_000\n1.5e3\n'a' 'b' \"c\"\n'''x\ny'''\n...\n");
  auto c = [&](int i) { return m->body[i]->as<ExprStmt>()->value->as<Constant>(); };
  CHECK(c(0)->i == INT64_MAX);
  CHECK(c(1)->tag == Constant::Tag::Int);
  CHECK(c(1)->i == INT64_MIN);
  CHECK(pos(c(1)) == "2:1");
  CHECK(c(2)->i == 1000);
  CHECK(c(3)->f == 1500.0);
  CHECK(c(4)->s == "abc");
  CHECK(c(5)->s == "x\ny");
  CHECK(c(6)->tag == Constant::Tag::Ellipsis);
  CHECK(err("x = 9223372036854775808") == "SyntaxError: integer literal too large for 64 bits @1:5");
  CHECK(err("x = 0xffffffffffffffff") == "SyntaxError: integer literal too large for 64 bits @1:5");
  CHECK(ex("-9223372036854775808") == "-9223372036854775808");
}

TEST_CASE("assignment targets get Ctx::Store") {
  auto m = parse_src("a, (b, *c), d[i], e.f = x\nfor i, j in y: pass\n[p for q, r in s]\ndel t[0], u\nv += 1\n");
  auto* as = m->body[0]->as<Assign>();
  auto* tup = as->targets[0]->as<Tuple>();
  CHECK(tup->ctx == Ctx::Store);
  CHECK(tup->elts[0]->as<Name>()->ctx == Ctx::Store);
  auto* inner = tup->elts[1]->as<Tuple>();
  CHECK(inner->ctx == Ctx::Store);
  CHECK(inner->elts[1]->as<Starred>()->ctx == Ctx::Store);
  CHECK(inner->elts[1]->as<Starred>()->value->as<Name>()->ctx == Ctx::Store);
  CHECK(tup->elts[2]->as<Subscript>()->ctx == Ctx::Store);
  CHECK(tup->elts[2]->as<Subscript>()->value->as<Name>()->ctx == Ctx::Load);
  CHECK(tup->elts[3]->as<Attribute>()->ctx == Ctx::Store);
  CHECK(as->value->as<Name>()->ctx == Ctx::Load);
  auto* f = m->body[1]->as<For>();
  CHECK(f->target->as<Tuple>()->elts[1]->as<Name>()->ctx == Ctx::Store);
  auto* lc = m->body[2]->as<ExprStmt>()->value->as<ListComp>();
  CHECK(lc->generators[0].target->as<Tuple>()->ctx == Ctx::Store);
  auto* d = m->body[3]->as<Delete>();
  CHECK(d->targets[0]->as<Subscript>()->ctx == Ctx::Del);
  CHECK(d->targets[1]->as<Name>()->ctx == Ctx::Del);
  CHECK(m->body[4]->as<AugAssign>()->target->as<Name>()->ctx == Ctx::Store);
}

TEST_CASE("comprehensions nest in order") {
  auto m = parse_src("[x for a in b if c if d for x in a]\n");
  auto* lc = m->body[0]->as<ExprStmt>()->value->as<ListComp>();
  REQUIRE(lc->generators.size() == 2);
  CHECK(unparse(lc->generators[0].iter) == "b");
  CHECK(lc->generators[0].ifs.size() == 2);
  CHECK(unparse(lc->generators[1].target) == "x");
  CHECK(lc->generators[1].ifs.empty());
  CHECK(ex("[(a if b else c) for d in e if f or g]") == "[a if b else c for d in e if f or g]");
  CHECK(ex("{k: [v for v in w] for k, w in x.items()}") == "{k: [v for v in w] for k, w in x.items()}");
}

TEST_CASE("function definitions") {
  auto m = parse_src("@ti.kernel\n@deco(1, k=2)\ndef f(a, b: int = 1, *args, c, d: float = 2.0, **kw) -> ti.f32:\n    return a\n");
  auto* f = m->body[0]->as<FunctionDef>();
  CHECK(f->name == "f");
  CHECK(pos(f) == "1:1");  // the first decorator
  CHECK(f->def_loc.line == 3);
  CHECK(f->def_loc.col == 1);
  REQUIRE(f->decorators.size() == 2);
  CHECK(unparse(f->decorators[0]) == "ti.kernel");
  CHECK(unparse(f->decorators[1]) == "deco(1, k=2)");
  auto& a = f->args;
  REQUIRE(a.args.size() == 2);
  CHECK(a.args[0]->annotation == nullptr);
  CHECK(unparse(a.args[1]->annotation) == "int");
  REQUIRE(a.defaults.size() == 1);
  CHECK(a.vararg->name == "args");
  REQUIRE(a.kwonlyargs.size() == 2);
  CHECK(a.kw_defaults[0] == nullptr);
  CHECK(unparse(a.kw_defaults[1]) == "2.0");
  CHECK(a.kwarg->name == "kw");
  CHECK(unparse(f->returns) == "ti.f32");
  CHECK(pos(a.args[1]) == "3:10");
  CHECK(ex("lambda a, b=2, *c, d, **e: a") == "lambda a, b=2, *c, d, **e: a");
}

TEST_CASE("class definitions") {
  auto m = parse_src("@ti.data_oriented\nclass S(Base, other.Mixin):\n    def __init__(self):\n        self.x = ti.field(ti.f32, shape=4)\n\nclass T: pass\n");
  auto* c = m->body[0]->as<ClassDef>();
  CHECK(c->name == "S");
  CHECK(c->bases.size() == 2);
  CHECK(c->decorators.size() == 1);
  CHECK(c->body[0]->kind == StmtKind::FunctionDef);
  CHECK(m->body[1]->as<ClassDef>()->bases.empty());
}

TEST_CASE("imports") {
  auto m = parse_src("import taichi as ti, a.b.c\nfrom x.y import (z as w,\n  v,)\nfrom .. import q\nfrom m import *\n");
  auto* im = m->body[0]->as<Import>();
  CHECK(im->names[0].name == "taichi");
  CHECK(im->names[0].asname == "ti");
  CHECK(im->names[1].name == "a.b.c");
  CHECK(im->names[1].loc.col == 22);
  auto* fr = m->body[1]->as<ImportFrom>();
  CHECK(fr->module == "x.y");
  CHECK(fr->names.size() == 2);
  CHECK(fr->names[0].asname == "w");
  CHECK(m->body[2]->as<ImportFrom>()->module == "..");
  CHECK(m->body[3]->as<ImportFrom>()->names[0].name == "*");
}

TEST_CASE("one-line compound statements and semicolons") {
  auto m = parse_src("if x: a = 1; b = 2\nelse: c = 3\nwhile y: y -= 1\n");
  auto* i = m->body[0]->as<If>();
  CHECK(i->body.size() == 2);
  CHECK(i->orelse.size() == 1);
  CHECK(m->body.size() == 2);
}

TEST_CASE("elif chains nest in orelse") {
  auto m = parse_src("if a:\n    pass\nelif b:\n    pass\nelif c:\n    pass\nelse:\n    x = 1\n");
  auto* i = m->body[0]->as<If>();
  REQUIRE(i->orelse.size() == 1);
  auto* e1 = i->orelse[0]->as<If>();
  CHECK(pos(e1) == "3:1");
  auto* e2 = e1->orelse[0]->as<If>();
  CHECK(unparse(e2->test) == "c");
  CHECK(e2->orelse[0]->kind == StmtKind::Assign);
}

TEST_CASE("node locations and ends") {
  auto m = parse_src("x = (a + b) * c\nif y:\n    z = f(1,\n          2)\n");
  auto* as = m->body[0]->as<Assign>();
  CHECK(span(as) == "1:1-1:16");
  CHECK(span(as->value) == "1:5-1:16");  // the BinOp starts at '('
  auto* left = as->value->as<BinOp>()->left;
  CHECK(span(left) == "1:6-1:11");       // a parenthesized expr keeps its own span
  auto* i = m->body[1]->as<If>();
  CHECK(span(i) == "2:1-4:13");
  auto* call = i->body[0]->as<Assign>()->value;
  CHECK(span(call) == "3:9-4:13");
  auto m2 = parse_src("t = (1, 2)\nu = 1, 2\nv = a.b[c]\n");
  CHECK(span(m2->body[0]->as<Assign>()->value) == "1:5-1:11");
  CHECK(span(m2->body[1]->as<Assign>()->value) == "2:5-2:9");
  auto* sub = m2->body[2]->as<Assign>()->value->as<Subscript>();
  CHECK(span(sub) == "3:5-3:11");
  CHECK(span(sub->value) == "3:5-3:8");
}

namespace {
// J[...] for JoinedStr, 'text' for literal pieces, {expr!c:spec} for fields.
std::string fdump(const Expr* e) {
  if (e->kind == ExprKind::Constant) return "'" + e->as<Constant>()->s + "'";
  if (e->kind == ExprKind::FormattedValue) {
    auto* f = e->as<FormattedValue>();
    std::string s = "{" + unparse(f->value);
    if (f->conversion) s += std::string("!") + f->conversion;
    if (f->format_spec) s += ":" + fdump(f->format_spec);
    return s + "}";
  }
  REQUIRE(e->kind == ExprKind::JoinedStr);
  std::string s = "J[";
  for (auto* v : e->as<JoinedStr>()->values) s += (s.size() > 2 ? " " : "") + fdump(v);
  return s + "]";
}
std::string fs(const std::string& src) {
  static std::vector<std::unique_ptr<Module>> keep;
  keep.push_back(parse_src(src + "\n"));
  return fdump(keep.back()->body.at(0)->as<ExprStmt>()->value);
}
}  // namespace

TEST_CASE("f-strings") {
  CHECK(fs("f'a{x}b'") == "J['a' {x} 'b']");
  CHECK(fs("f'{x:.2f}'") == "J[{x:J['.2f']}]");
  CHECK(fs("f'{x!r}'") == "J[{x!r}]");
  CHECK(fs("f'{x!r:>{w}.{p}f} {{}} a'") == "J[{x!r:J['>' {w} '.' {p} 'f']} ' {} a']");
  CHECK(fs("f''") == "J[]");
  CHECK(fs("f'a' 'b' f'{c}'") == "J['ab' {c}]");   // adjacent literals merge
  CHECK(fs("'a' f'{c}' 'd'") == "J['a' {c} 'd']");
  CHECK(fs("f'{x=}'") == "J['x=' {x!r}]");
  CHECK(fs("f'{x = :>10}'") == "J['x = ' {x:J['>10']}]");
  CHECK(fs("f'{a + b * 2}'") == "J[{a + b * 2}]");
  CHECK(fs("f'{d[\"k\"]!s}'") == "J[{d['k']!s}]");
  CHECK(fs("f'{x if y else z}'") == "J[{x if y else z}]");
  CHECK(fs("f'{a, b}'") == "J[{(a, b)}]");
  CHECK(fs("f'{ {1: 2}[1] }'") == "J[{{1: 2}[1]}]");
  CHECK(fs("f'{a != b}'") == "J[{a != b}]");
  CHECK(fs("f'{f(a=1)}'") == "J[{f(a=1)}]");
  CHECK(fs("f'\\n{x}\\t'") == "J['\n' {x} '\t']");
  CHECK(fs("rf'\\n{x}'") == "J['\\n' {x}]");
  CHECK(fs("f'{f\"{y}\"}'") == "J[{f'{y}'}]");
  CHECK(ex("f'a{x!r:>{w}}b'") == "f'a{x!r:>{w}}b'");
}

TEST_CASE("f-string expressions carry their true line:col") {
  auto m = parse_src("s = f'ab{x + y:>{w}}'\nt = f'''\n  {z}'''\n");
  auto* j = m->body[0]->as<Assign>()->value->as<JoinedStr>();
  CHECK(pos(j) == "1:5");
  auto* fv = j->values[1]->as<FormattedValue>();
  CHECK(pos(fv) == "1:9");
  CHECK(pos(fv->value) == "1:10");
  CHECK(pos(fv->value->as<BinOp>()->right) == "1:14");
  auto* spec = fv->format_spec->as<JoinedStr>();
  CHECK(pos(spec->values[1]->as<FormattedValue>()->value) == "1:18");
  auto* t = m->body[1]->as<Assign>()->value->as<JoinedStr>();
  CHECK(pos(t->values[1]->as<FormattedValue>()->value) == "3:4");
  // errors inside the braces point into the string
  CHECK(err("s = f'ab{x +}'") == "SyntaxError: f-string: invalid syntax @1:13");
}

TEST_CASE("statements carry their positions") {
  auto m = parse_src("x = 1\nif a:\n    for i in r:\n        y[i] += 1\n    while b: pass\n");
  CHECK(pos(m->body[1]) == "2:1");
  auto* f = m->body[1]->as<If>()->body[0]->as<For>();
  CHECK(pos(f) == "3:5");
  CHECK(pos(f->body[0]) == "4:9");
  CHECK(pos(f->body[0]->as<AugAssign>()->value) == "4:17");
  CHECK(pos(m->body[1]->as<If>()->body[1]) == "5:5");
}

TEST_CASE("a realistic Taichi program") {
  const char* src = R"PY(import taichi as ti
import math

ti.init(arch=ti.cpu, debug=True)

n = 320
pixels = ti.field(dtype=ti.f32, shape=(n * 2, n))
vel = ti.Vector.field(2, ti.f32, shape=(8,))


@ti.func
def complex_sqr(z: ti.math.vec2) -> ti.math.vec2:
    return ti.Vector([z[0] ** 2 - z[1] ** 2, z[1] * z[0] * 2])


@ti.kernel
def paint(t: float, iters: ti.i32) -> ti.i32:
    total = 0
    for i, j in pixels:  # parallelized over all pixels
        c = ti.Vector([-0.8, ti.cos(t) * 0.2])
        z = ti.Vector([i / n - 1, j / n - 0.5]) * 2
        iterations = 0
        while z.norm() < 20 and iterations < iters:
            z = complex_sqr(z) + c
            iterations += 1
        pixels[i, j] = 1 - iterations * 0.02
        total += iterations
    for k in range(8):
        if k % 2 == 0:
            vel[k] = ti.Vector([k, -k])
        elif k == 3:
            continue
        else:
            vel[k].x += 1.0
    return total


@ti.data_oriented
class Sim:
    def __init__(self, size=16, *, damping=0.99):
        self.x = ti.field(ti.f32, shape=size)
        self.damping = damping

    @ti.kernel
    def step(self, dt: ti.f32):
        for I in ti.grouped(self.x):
            self.x[I] *= self.damping
            self.x[I] += dt if I[0] > 0 else -dt


sim = Sim(damping=0.5)
for frame in range(3):
    total = paint(frame * 0.03, 50)
    sim.step(1e-3)
    print(f"frame {frame:03d}: total={total:>8,} mean={total / (n * n * 2):.4f} x0={sim.x[0]!r}")
assert math.isclose(pixels[0, 0], 1.0) or True, f"unexpected {pixels[0, 0]=}"
)PY";
  auto m = parse_src(src);
  REQUIRE(m->body.size() == 12);
  CHECK(m->body[0]->kind == StmtKind::Import);
  auto* cs = m->body[6]->as<FunctionDef>();
  CHECK(cs->name == "complex_sqr");
  CHECK(pos(cs) == "11:1");
  CHECK(cs->def_loc.line == 12);
  CHECK(unparse(cs->args.args[0]->annotation) == "ti.math.vec2");
  auto* paint = m->body[7]->as<FunctionDef>();
  CHECK(unparse(paint->decorators[0]) == "ti.kernel");
  REQUIRE(paint->body.size() == 4);
  auto* outer = paint->body[1]->as<For>();
  CHECK(unparse(outer->target) == "(i, j)");
  auto* wh = outer->body[3]->as<While>();
  CHECK(unparse(wh->test) == "z.norm() < 20 and iterations < iters");
  CHECK(pos(wh) == "23:9");
  auto* st = outer->body[4]->as<Assign>();
  CHECK(unparse(st->targets[0]) == "pixels[i, j]");
  CHECK(st->targets[0]->as<Subscript>()->ctx == Ctx::Store);
  auto* sim = m->body[8]->as<ClassDef>();
  CHECK(sim->name == "Sim");
  auto* init = sim->body[0]->as<FunctionDef>();
  CHECK(init->args.kwonlyargs[0]->name == "damping");
  auto* step = sim->body[1]->as<FunctionDef>();
  auto* aug = step->body[0]->as<For>()->body[1]->as<AugAssign>();
  CHECK(unparse(aug->value) == "dt if I[0] > 0 else -dt");
  auto* loop = m->body[10]->as<For>();
  auto* pr = loop->body[2]->as<ExprStmt>()->value->as<Call>();
  auto* j = pr->args[0]->as<JoinedStr>();
  CHECK(fdump(j) == "J['frame ' {frame:J['03d']} ': total=' {total:J['>8,']} ' mean=' {total / (n * n * 2):J['.4f']} "
                    "' x0=' {sim.x[0]!r}]");
  CHECK(pos(j->values[5]->as<FormattedValue>()->value) == "55:56");
  auto* as = m->body[11]->as<Assert>();
  CHECK(fdump(as->msg) == "J['unexpected pixels[0, 0]=' {pixels[0, 0]!r}]");
}
