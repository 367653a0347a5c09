// Frontend tests: kernels parsed from source, lowered with a stand-in host
// (names resolve through a table), run through the pass pipeline with the
// verifier on, and checked by their printed IR or their errors.
#include <doctest/doctest.h>

#include <map>

#include "vm/frontend/frontend.h"
#include "vm/ir/passes/passes.h"

using namespace kiln;
using namespace kiln::frontend;

namespace {

struct TableHost : HostEnv {
  std::map<std::string, StaticValue> globals;
  std::optional<StaticValue> lookup(const std::shared_ptr<void>&, const std::string& name) override {
    auto it = globals.find(name);
    if (it != globals.end()) return it->second;
    return std::nullopt;
  }
  StaticValue attr(const StaticValue& obj, const std::string& name, SourceLoc loc) override {
    if (obj.kind == StaticValue::Kind::module && obj.s == "ti") {
      if (auto p = prim_from_name(name)) return StaticValue::of_dtype(*p);
      return StaticValue::of_builtin("ti." + name);
    }
    if (obj.kind == StaticValue::Kind::field && name == "shape") {
      StaticValue t;
      t.kind = StaticValue::Kind::tuple;
      for (auto n : obj.field->shape) t.elems.push_back(StaticValue::of_int(n));
      return t;
    }
    raise("AttributeError", "no attribute '" + name + "'", loc);
  }
  StaticValue call(const StaticValue& fn, const std::vector<StaticValue>&, SourceLoc loc, const Kwargs&) override {
    if (fn.kind == StaticValue::Kind::builtin && fn.s == "ti.template") return fn;
    raise("TypeError", "not callable at compile time", loc);
  }
};

struct Fixture {
  SourceSet sources;
  std::unique_ptr<ast::Module> mod;
  Program prog{Config{}};
  TableHost host;

  explicit Fixture(const std::string& src) {
    mod = ast::parse(sources.add("k.py", src));
    StaticValue ti;
    ti.kind = StaticValue::Kind::module;
    ti.s = "ti";
    host.globals["ti"] = ti;
    for (const char* b : {"range", "print", "int", "float", "abs", "max", "min", "len"})
      host.globals[b] = StaticValue::of_builtin(b);
    for (auto* s : mod->body) {
      if (s->kind != ast::StmtKind::FunctionDef) continue;
      auto* f = s->as<ast::FunctionDef>();
      StaticValue v;
      v.kind = f->decorators.empty() || ast::unparse(f->decorators[0]) == "ti.func" ? StaticValue::Kind::func
                                                                                      : StaticValue::Kind::kernel;
      v.def = f;
      host.globals[f->name] = v;
    }
  }
  void field(const std::string& name, Prim p, std::vector<int64_t> shape) {
    StaticValue v;
    v.kind = StaticValue::Kind::field;
    v.field = prog.create_dense_field(p, shape, name, {});
    host.globals[name] = v;
  }
  // Lowers kernel `name` with scalar args of the given types; returns the IR after passes.
  std::string lower(const std::string& name, std::vector<Prim> args = {}) {
    KernelRequest req;
    req.def = host.globals.at(name).def;
    for (size_t i = 0; i < args.size(); i++) {
      ArgSpec a;
      a.name = req.def->args.args[i]->name;
      a.prim = args[i];
      req.args.push_back(a);
    }
    LoweredKernel lk = lower_kernel(req, host, prog);
    ir::run_pipeline(*lk.kernel, true);
    warnings = lk.warnings;
    return ir::print_kernel(*lk.kernel);
  }
  std::string error(const std::string& name, std::vector<Prim> args = {}) {
    try {
      lower(name, args);
    } catch (const Error& e) {
      return e.kind + ": " + e.message + " @" + std::to_string(e.loc.line) + ":" + std::to_string(e.loc.col);
    }
    return "no error";
  }
  std::vector<std::string> warnings;
};

}  // namespace

TEST_CASE("a range-for becomes a parallel task, constants fold") {
  Fixture f(R"(
@ti.kernel
def k():
    for i in range(10):
        if i < 4:
            print(i)
)");
  std::string ir = f.lower("k");
  CHECK(ir.find("offloaded range_for(0, 10)") != std::string::npos);
  CHECK(ir.find("cmp_lt") != std::string::npos);
  CHECK(ir.find("print") != std::string::npos);
}

TEST_CASE("top-level statements around a loop become serial tasks, locals cross through temps") {
  Fixture f(R"(
@ti.kernel
def k(n: ti.i32) -> ti.i32:
    s = n * 2
    for i in range(n):
        x[i] = s
    return s + 1
)");
  f.field("x", Prim::i32, {16});
  std::string ir = f.lower("k", {Prim::i32});
  CHECK(ir.find("offloaded serial") != std::string::npos);
  CHECK(ir.find("offloaded range_for(0, tmp(offset=0B))") != std::string::npos);
  CHECK(ir.find("global tmp var") != std::string::npos);
  CHECK(ir.find("global ptr [S2place<i32>]") != std::string::npos);
}

TEST_CASE("issue example: struct-for over a dense 2-D field with an inlined func") {
  Fixture f(R"(
@ti.func
def weight(i: ti.i32, j: ti.i32) -> ti.f32:
    return (i * 8 + j) / 2

@ti.kernel
def fill(scale: ti.f32):
    for i, j in x:
        x[i, j] = weight(i, j) * scale
        if x[i, j] > 10:
            total[None] += 1
)");
  f.field("x", Prim::f32, {8, 8});
  f.field("total", Prim::i32, {});
  std::string ir = f.lower("fill", {Prim::f32});
  CHECK(ir.find("offloaded range_for(0, 64)") != std::string::npos);
  CHECK(ir.find("atomic add") != std::string::npos);
  CHECK(f.warnings.empty());
}

TEST_CASE("promotion and implicit casts") {
  Fixture f(R"(
@ti.kernel
def k() -> ti.i32:
    a = 1
    a = 3.14
    return a
)");
  std::string ir = f.lower("k");
  REQUIRE(f.warnings.size() == 1);
  CHECK(f.warnings[0].find("may lose precision") != std::string::npos);
}

TEST_CASE("compile errors name the line") {
  SUBCASE("float condition") {
    Fixture f("@ti.kernel\ndef k(a: ti.f32):\n    if a:\n        pass\n");
    CHECK(f.error("k", {Prim::f32}).rfind("TypeError: the condition has type f32", 0) == 0);
    CHECK(f.error("k", {Prim::f32}).find("@3:8") != std::string::npos);
  }
  SUBCASE("assigning a kernel argument") {
    Fixture f("@ti.kernel\ndef k(a: ti.i32):\n    a = 1\n");
    CHECK(f.error("k", {Prim::i32}).rfind("SyntaxError: kernel argument 'a' is immutable", 0) == 0);
  }
  SUBCASE("return without annotation") {
    Fixture f("@ti.kernel\ndef k():\n    return 1\n");
    CHECK(f.error("k").find("no return type annotation") != std::string::npos);
  }
  SUBCASE("break in the parallel loop") {
    Fixture f("@ti.kernel\ndef k():\n    for i in range(3):\n        break\n");
    CHECK(f.error("k").find("'break' is not allowed in the outermost for loop") != std::string::npos);
    CHECK(f.error("k").find("@4:9") != std::string::npos);
  }
  SUBCASE("break in a serialized loop is fine") {
    Fixture f("@ti.kernel\ndef k():\n    ti.loop_config(serialize=True)\n    for i in range(3):\n        break\n");
    CHECK(f.error("k") == "no error");
  }
  SUBCASE("out-of-range literal") {
    Fixture f("@ti.kernel\ndef k():\n    a = ti.u8(300)\n");
    CHECK(f.error("k").rfind("OverflowError: the literal 300 is out of range for u8", 0) == 0);
  }
  SUBCASE("kernel calling a kernel") {
    Fixture f("@ti.kernel\ndef a():\n    pass\n@ti.kernel\ndef k():\n    a()\n");
    CHECK(f.error("k").find("kernels cannot call kernels") != std::string::npos);
  }
  SUBCASE("undefined name") {
    Fixture f("@ti.kernel\ndef k():\n    b = c + 1\n");
    CHECK(f.error("k") == "NameError: name 'c' is not defined @3:9");
  }
  SUBCASE("variables are block-scoped") {
    Fixture f("@ti.kernel\ndef k(n: ti.i32) -> ti.i32:\n    if n > 0:\n        m = 1\n    return m\n");
    CHECK(f.error("k", {Prim::i32}) == "NameError: name 'm' is not defined @5:12");
  }
}

TEST_CASE("vectors and matrices stay whole until scalarize") {
  Fixture f(R"(
@ti.kernel
def k(a: ti.f32) -> ti.f32:
    v = ti.Vector([1.0, 2.0, a])
    w = v * 2 + ti.Vector([0.5, 0.5, 0.5])
    m = ti.Matrix([[1.0, 2.0], [3.0, 4.0]])
    u = m @ ti.Vector([1.0, 1.0])
    v[1] = 7.0
    v.x = u.y
    return w.dot(v) + m.determinant() + m.inverse()[0, 1] + v.norm() + u.sum()
)");
  // Before scalarize the IR keeps tensor types; after, none remain.
  KernelRequest req;
  req.def = f.host.globals.at("k").def;
  ArgSpec a;
  a.name = "a";
  a.prim = Prim::f32;
  req.args.push_back(a);
  LoweredKernel lk = lower_kernel(req, f.host, f.prog);
  std::string before = ir::print_kernel(*lk.kernel);
  CHECK(before.find("<[Tensor (3) f32]>") != std::string::npos);
  CHECK(before.find("<[Tensor (2, 2) f32]>") != std::string::npos);
  ir::run_pipeline(*lk.kernel, true);
  std::string after = ir::print_kernel(*lk.kernel);
  CHECK(after.find("Tensor") == std::string::npos);
}

TEST_CASE("vector errors name the line") {
  SUBCASE("scalar <- vector") {
    Fixture f("@ti.kernel\ndef k():\n    x = 1\n    x = ti.Vector([1, 1])\n");
    CHECK(f.error("k") == "TypeError: cannot assign a 2-vector of i32 to the scalar variable 'x' (a local keeps the type of its first assignment) @4:5");
  }
  SUBCASE("matmul shapes") {
    Fixture f("@ti.kernel\ndef k():\n    m = ti.Matrix([[1, 2], [3, 4]])\n    v = ti.Vector([1, 2, 3])\n    w = m @ v\n");
    CHECK(f.error("k").rfind("TypeError: cannot multiply a 2x2 matrix by a 3-vector", 0) == 0);
  }
  SUBCASE("swizzle out of range") {
    Fixture f("@ti.kernel\ndef k():\n    v = ti.Vector([1, 2])\n    a = v.z\n");
    CHECK(f.error("k") == "TypeError: swizzle 'z' is out of range for a 2-vector @4:9");
  }
  SUBCASE("inverse of a non-square matrix") {
    Fixture f("@ti.kernel\ndef k():\n    m = ti.Matrix([[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]])\n    n = m.inverse()\n");
    CHECK(f.error("k").rfind("TypeError: inverse() needs a square matrix, got a 2x3 matrix", 0) == 0);
  }
  SUBCASE("shape mismatch in comparisons, conditional expressions and ti.max") {
    Fixture f("@ti.kernel\ndef k():\n    a = ti.Vector([1, 2]) < ti.Vector([1, 2, 3])\n");
    CHECK(f.error("k") == "TypeError: the operands of < have different shapes: a 2-vector and a 3-vector @3:9");
    Fixture g("@ti.kernel\ndef k(c: ti.i32):\n    a = ti.Vector([1, 2]) if c else ti.Vector([1, 2, 3])\n");
    CHECK(g.error("k", {Prim::i32}) ==
          "TypeError: the operands of 'a if c else b' have different shapes: a 2-vector and a 3-vector @3:9");
    Fixture h("@ti.kernel\ndef k():\n    a = ti.max(ti.Vector([1, 2]), ti.Vector([1, 2, 3]))\n");
    CHECK(h.error("k") == "TypeError: the operands of ti.max() have different shapes: a 2-vector and a 3-vector @3:9");
  }
  SUBCASE("shape mismatch in arithmetic") {
    Fixture f("@ti.kernel\ndef k():\n    a = ti.Vector([1, 2]) + ti.Vector([1, 2, 3])\n");
    CHECK(f.error("k").rfind("TypeError: the operands of + have different shapes: a 2-vector and a 3-vector", 0) == 0);
  }
}

TEST_CASE("structs are aggregates of their members") {
  Fixture f(R"(
@ti.kernel
def k(a: ti.f32) -> ti.f32:
    r = Ray(vec3(0), t=a)
    r.t = r.t * 2
    r.rd = vec3(1, 0, 0)
    q = Ray(1)
    rays[3] = r
    s = rays[3]
    rays[2].t = 5.0
    return s.t + s.rd.x + q.ro.y
)");
  StaticValue vec3 = StaticValue::of_dtype(Prim::f32);
  vec3.rows = 3;
  StaticValue ray;
  ray.kind = StaticValue::Kind::struct_type;
  ray.s = "Ray";
  ray.names = {"ro", "rd", "t"};
  ray.elems = {vec3, vec3, StaticValue::of_dtype(Prim::f32)};
  f.host.globals["vec3"] = vec3;
  f.host.globals["Ray"] = ray;
  // rays = Ray.field(shape=8): one field per scalar member, one vector field per vector member.
  StaticValue sf;
  sf.kind = StaticValue::Kind::struct_field;
  sf.names = ray.names;
  sf.ctype = std::make_shared<StaticValue>(ray);
  for (int m = 0; m < 2; m++) {
    StaticValue mf;
    mf.kind = StaticValue::Kind::matrix_field;
    mf.rows = 3;
    for (int c = 0; c < 3; c++) mf.fields.push_back(f.prog.create_dense_field(Prim::f32, {8}, "rays.m" + std::to_string(m), {}));
    sf.elems.push_back(mf);
  }
  StaticValue tf;
  tf.kind = StaticValue::Kind::field;
  tf.field = f.prog.create_dense_field(Prim::f32, {8}, "rays.t", {});
  sf.elems.push_back(tf);
  f.host.globals["rays"] = sf;
  std::string ir = f.lower("k", {Prim::f32});
  CHECK(ir.find("Tensor") == std::string::npos);
  CHECK(ir.find("global store") != std::string::npos);
  SUBCASE("unknown member") {
    Fixture g("@ti.kernel\ndef k():\n    r = Ray()\n    a = r.speed\n");
    g.host.globals["vec3"] = vec3;
    g.host.globals["Ray"] = ray;
    CHECK(g.error("k") == "TypeError: the struct type 'Ray' has no member 'speed' (its members: ro, rd, t) @4:9");
  }
}

TEST_CASE("dtype support: a kernel using a type its engine lacks fails, or maps under a casting mode") {
  const char* src = R"(
@ti.kernel
def k(a: ti.f64) -> ti.f64:
    b = a * 2.0
    c = ti.cast(b, ti.i64) + 1
    y[0] = b
    return b + c
)";
  auto lower_for = [&](Fixture& f, CastMode mode) {
    f.field("y", Prim::f64, {4});
    KernelRequest req;
    req.def = f.host.globals.at("k").def;
    ArgSpec a;
    a.name = "a";
    a.prim = Prim::f64;
    req.args.push_back(a);
    LoweredKernel lk = lower_kernel(req, f.host, f.prog);
    ir::legalize_dtypes(*lk.kernel, vulkan_core_supports, "vulkan engine", mode, TypeConfig{});
    ir::run_pipeline(*lk.kernel, true);
    return ir::print_kernel(*lk.kernel);
  };
  SUBCASE("no casting mode: the dtype, the engine and the line") {
    Fixture f(src);
    try {
      lower_for(f, CastMode::none);
      FAIL("expected an error");
    } catch (const Error& e) {
      CHECK(e.kind == "TypeError");
      CHECK(e.message.rfind("f64 is not supported by the vulkan engine", 0) == 0);
      CHECK(e.loc.line == 3);
    }
  }
  SUBCASE("downcast: f64 computes in f32, i64 in i32; storage keeps f64") {
    Fixture f(src);
    std::string ir = lower_for(f, CastMode::downcast);
    CHECK(ir.find("<f64> $") != std::string::npos);  // the argument and the field stay f64...
    CHECK(ir.find("mul") != std::string::npos);
    CHECK(ir.find("<f64> $2 = mul") == std::string::npos);
    CHECK(ir.find("<i64>") == std::string::npos);    // ...but nothing computes in i64
  }
  SUBCASE("atomics on an unsupported storage type fail whatever the mode") {
    Fixture f("@ti.kernel\ndef k():\n    for i in range(4):\n        z[i] += 1.0\n");
    f.field("z", Prim::f64, {4});
    KernelRequest req;
    req.def = f.host.globals.at("k").def;
    LoweredKernel lk = lower_kernel(req, f.host, f.prog);
    try {
      ir::legalize_dtypes(*lk.kernel, vulkan_core_supports, "vulkan engine", CastMode::downcast, TypeConfig{});
      FAIL("expected an error");
    } catch (const Error& e) {
      CHECK(e.message == "atomics on f64 are not supported by the vulkan engine, whatever the casting mode");
      CHECK(e.loc.line == 4);
    }
  }
  SUBCASE("upcast finds nothing wider than f64") {
    Fixture f(src);
    CHECK_THROWS_WITH_AS(lower_for(f, CastMode::upcast),
                         doctest::Contains("dtype_cast_mode=\"upcast\" finds no type"), Error);
  }
  SUBCASE("the mapping rules") {
    TypeConfig d;
    CHECK(map_dtype(Prim::u8, vulkan_core_supports, CastMode::upcast, d) == Prim::u32);
    CHECK(map_dtype(Prim::i64, vulkan_core_supports, CastMode::downcast, d) == Prim::i32);
    CHECK(map_dtype(Prim::i64, vulkan_core_supports, CastMode::upcast, d) == std::nullopt);
    CHECK(map_dtype(Prim::i64, vulkan_core_supports, CastMode::crosscast, d) == Prim::f32);
    CHECK(map_dtype(Prim::f64, vulkan_core_supports, CastMode::crosscast, d) == Prim::i32);
    CHECK(map_dtype(Prim::i8, vulkan_core_supports, CastMode::cast, d) == Prim::f32);  // crosscast first
    CHECK(map_dtype(Prim::f32, vulkan_core_supports, CastMode::none, d) == Prim::f32);
    CHECK(cast_mode_from_name("upcast") == CastMode::upcast);
    CHECK(cast_mode_from_name("sideways") == std::nullopt);
  }
}

TEST_CASE("more compile errors, each with its message and line") {
  auto check = [](const char* src, const char* want, std::vector<Prim> args = {}) {
    Fixture f(src);
    CHECK(f.error("k", args) == want);
  };
  check("@ti.kernel\ndef k():\n    for i in 5:\n        pass\n",
        "TypeError: kernels can loop over range(), ti.ndrange(), ti.grouped(), ti.static() or a field, not '5' @3:14");
  check("@ti.kernel\ndef k():\n    for i, j in range(4):\n        pass\n",
        "SyntaxError: the loop over range has 1 index but 2 targets were given @3:9");
  check("@ti.kernel\ndef k():\n    a, b = 1, 2, 3\n",
        "ValueError: too many values to unpack (expected 2, got 3) @3:5");
  check("@ti.kernel\ndef k():\n    a = ti.cast(1, 2)\n", "TypeError: ti.cast() needs a type as its second argument @3:20");
  check("@ti.kernel\ndef k():\n    a = 1.5 & 1\n", "TypeError: '&' needs integer operands, got f32 and i32 @3:9");
  check("@ti.kernel\ndef k():\n    while True:\n        break\n    else:\n        pass\n",
        "SyntaxError: while-else is not supported in kernels @3:5");
  check("@ti.kernel\ndef k():\n    import math\n", "SyntaxError: import is not allowed inside a kernel or ti.func @3:5");
  check("@ti.kernel\ndef k():\n    continue\n", "SyntaxError: 'continue' outside loop @3:5");
  check("@ti.kernel\ndef k():\n    a = ti.sqrt(1, 2)\n", "TypeError: ti.sqrt() takes 1 argument (2 given) @3:9");
  check("@ti.kernel\ndef k():\n    v = ti.Vector([1, 2])\n    a = v.frobnicate()\n",
        "AttributeError: a 2-vector has no method 'frobnicate' @4:9");
  check("@ti.kernel\ndef k():\n    v = ti.Vector([1.0, 2.0])\n    a = v.dot(ti.Vector([1.0, 2.0, 3.0]))\n",
        "TypeError: dot() needs a 2-vector, got a 3-vector @4:9");
  check("@ti.kernel\ndef k():\n    v = ti.Vector([1, 2])\n    a = v[2]\n", "IndexError: index 2 is out of range for a 2-vector @4:9");
  check("@ti.kernel\ndef k():\n    a = ti.static(n)\n", "NameError: name 'n' is not defined @3:19");
}
