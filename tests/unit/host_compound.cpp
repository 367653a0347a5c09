// Host-side compound values: ti.Vector / ti.Matrix with numpy's dtype rules
// and printing, vector/matrix/struct types, dataclasses, compound fields and
// their AoS placement, the StaticValues the frontend sees, and compound
// kernel arguments and returns.
#include <doctest/doctest.h>

#include "vm/host/evaluator.h"
#include "tests/unit/host_session.h"
#include "vm/host/ti_compound.h"
#include "vm/host/ti_state.h"

using namespace kiln;

namespace {

const char* kInit = "import taichi as ti\nti.init(arch=ti.cpu)\n";

// A session that starts with ti.init: later snippets keep the fields made earlier.
struct Run : test::HostSession {
  Run() : HostSession({}, kInit) {}
  frontend::StaticValue static_of(const std::string& name) {
    host::Value* v = host->ev->lookup(*host->ev->main_env, name);
    REQUIRE(v);
    return host::to_static(*host->ev, *v);
  }
};

std::string run(const std::string& src) { return test::run_snippet(src, kInit); }
std::string error(const std::string& src) { return test::error_of(src, kInit); }

}  // namespace

TEST_CASE("host vectors follow numpy's dtypes: int64, float64, f32 kept, weak Python scalars") {
  CHECK(run("print(ti.Vector([1, 2]) + 1, ti.Vector([1, 2]) + 0.5, ti.Vector([True, False]))") == "[2 3] [1.5 2.5] [ True False]\n");
  CHECK(run("f = ti.Vector([0.1, 0.2], dt=ti.f32)\nprint(f, f + 1.0, f + ti.Vector([1.0, 1.0]))") ==
        "[0.1 0.2] [1.1 1.2] [1.1 1.2]\n");
  // f32 + f64 -> f64: the f32 rounding shows at 8 digits
  CHECK(run("f = ti.Vector([0.1], dt=ti.f32)\nprint(f + ti.Vector([0.0]))") == "[0.1]\n");
  CHECK(run("print(ti.Vector([3, 4], dt=ti.i32) // 2, ti.Vector([-7, 7]) % 3, ti.Vector([-7.5]) // 2)") == "[1 2] [2 1] [-4.]\n");
  CHECK(run("print(ti.Vector([1, 2], dt=ti.u8) * 200)") == "[200 144]\n");  // wraps at the dtype's width
  CHECK(error("print(ti.Vector([2]) ** -1)") == "ValueError: Integers to negative integer powers are not allowed.");
  CHECK(error("print(ti.Vector([1, 2]) + ti.Vector([1, 2, 3]))") ==
        "ValueError: operands could not be broadcast together with shapes (2,) (3,) ");
  CHECK(run("v = ti.Vector([1.5, -2.0])\nprint(abs(v), -v, v.cast(ti.i32))") == "[1.5 2. ] [-1.5  2. ] [ 1 -2]\n");
}

TEST_CASE("ti math functions on host vectors apply elementwise (numpy ufuncs)") {
  CHECK(run("print(ti.sqrt(ti.Vector([1, 4, 9])), ti.sqrt(ti.Vector([2.0], dt=ti.f32)), ti.sqrt(16.0))") ==
        "[1. 2. 3.] [1.4142135] 4.0\n");
  CHECK(run("v = ti.Vector([1, 2])\nprint(f'{v}', str(v), repr(v))") == "[1 2] [1 2] [1 2]\n");
}

TEST_CASE("host vector element access, swizzles and their errors") {
  CHECK(run("v = ti.Vector([1, 2, 3, 4])\nprint(v.w, v.rgb, v.stp, v[1:3], v.xxyy)") == "4 [1 2 3] [1 2 3] [2 3] [1 1 2 2]\n");
  CHECK(error("v = ti.Vector([1, 2])\nv.xy = [1, 2, 3]") == "TaichiRuntimeError: value len does not match the swizzle pattern=xy");
  CHECK(error("v = ti.Vector([1, 2])\nprint(v[2])") == "IndexError: index 2 is out of bounds for axis 0 with size 2");
  CHECK(error("m = ti.Matrix([[1, 2], [3, 4]])\nprint(m[0])") == "AssertionError: Expected 2 indices, got 1");
  CHECK(error("ti.Vector(3)") == "TypeError: An Matrix/Vector can only be initialized with an array-like object");
  CHECK(error("ti.Matrix([[1, 2], [3]])").rfind("ValueError: setting an array element with a sequence.", 0) == 0);
  CHECK(error("v = ti.Vector([1, 2])\nv[0] = 'a'").rfind("TypeError: ", 0) == 0);
}

TEST_CASE("matrix constructors, determinant and inverse up to 4x4") {
  CHECK(run("print(ti.Matrix.identity(ti.f32, 2))\nprint(ti.Matrix.zero(ti.i32, 2, 3))\nprint(ti.Vector.zero(ti.f64, 2))") ==
        "[[1. 0.]\n [0. 1.]]\n[[0 0 0]\n [0 0 0]]\n[0. 0.]\n");
  CHECK(run("print(ti.Vector.unit(3, 1), ti.Matrix.diag(2, 3.0))") == "[0 1 0] [[3. 0.]\n [0. 3.]]\n");
  CHECK(run("print(ti.Matrix([[2, 0], [1, 3]]).determinant())") == "6\n");
  CHECK(run("m = ti.Matrix([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])\nprint(m.determinant())") == "18.0\n");
  CHECK(run("m = ti.Matrix([[4.0, 0, 0, 0], [0, 2.0, 0, 0], [0, 0, 1.0, 0], [1.0, 0, 0, 1.0]])\n"
            "print(m.determinant())\nprint(m.inverse())") ==
        // (-1)**(i+j) * 0.0 is -0.0 in Taichi's adjugate too
        "8.0\n[[ 0.25 -0.    0.   -0.  ]\n [-0.    0.5  -0.    0.  ]\n [ 0.   -0.    1.   -0.  ]\n [-0.25  0.   -0.    1.  ]]\n");
  CHECK(error("ti.Matrix([[1, 2, 3], [4, 5, 6]]).inverse()") == "TaichiCompilationError: expected a square matrix, got shape (2, 3)");
  CHECK(error("ti.Vector([1, 2]).transpose()").rfind("TaichiCompilationError: `transpose()` cannot apply to a vector.", 0) == 0);
  CHECK(error("ti.Vector([1, 2, 3, 4]).cross(ti.Vector([1, 2, 3, 4]))") ==
        "TaichiCompilationError: only dimension < 4 is supported, got shape (4,)");
}

TEST_CASE("elementwise comparisons give bool matrices, chained comparisons stay Python's") {
  CHECK(run("v = ti.Vector([1, 5])\nprint(v >= 2, v != 1, 0 < v)") == "[False  True] [False  True] [ True  True]\n");
  CHECK(run("print(1 < 2 < 3, 1 < 3 < 2)") == "True False\n");
}

TEST_CASE("struct types: construction, members, errors") {
  CHECK(run("S = ti.types.struct(a=ti.i32, v=ti.math.vec2)\ns = S(2.9, 1)\nprint(s, s.a, s['v'])") ==
        "{'a': 2, 'v': [1.0, 1.0]} 2 [1. 1.]\n");
  CHECK(run("s = ti.Struct(a=1, v=[1, 2])\nprint(s.a, s.v)") == "1 [1 2]\n");
  CHECK(error("@ti.dataclass\nclass P:\n    x: ti.f32 = 1.0\n") == "TaichiSyntaxError: Default value in @dataclass is not supported.");
  CHECK(error("S = ti.types.struct(a=ti.i32)\ns = S()\ns.a = [1]") == "TypeError: A number is expected when assigning struct members");
  CHECK(error("S = ti.types.struct(v=ti.math.vec2)\ns = S()\ns.v = ti.Vector([1, 2, 3])") ==
        "TypeError: cannot assign a value of shape (3,) to member 'v' of shape (2,)");
  // plain (non-ti.func) dataclass methods run on the host
  CHECK(run("@ti.dataclass\nclass P:\n    x: ti.f32\n    def twice(self):\n        return self.x * 2\nprint(P(1.5).twice())") == "3.0\n");
}

TEST_CASE("compound fields: AoS placement, element views, fill and names") {
  Run r;
  CHECK(r("x = ti.Vector.field(2, ti.f32, shape=3)\ny = ti.field(ti.i32, shape=3)\n"
          "print(x.snode.parent() is not None, x.get_scalar_field(1).snode.parent().shape)") == "True (3,)\n");
  // one place(...) call puts every component under the same dense
  CHECK(r("a = ti.Vector.field(3, ti.f32)\nb = ti.field(ti.f32)\nd = ti.root.dense(ti.i, 4)\nd.place(a, b)\n"
          "print(len([1 for k in range(3) if a.get_scalar_field(k).snode.parent().id == d.id]))") == "3\n");
  CHECK(r("e = a[1]\ne.z = 4\na[2] = 7\nprint(a[1], a[2], a.shape)") == "[0. 0. 4.] [7. 7. 7.] (4,)\n");
  CHECK(r("m = ti.Matrix.field(2, 2, ti.f32, shape=())\nm[None] = ti.Matrix([[1, 2], [3, 4]])\nm.fill([[0, 1], [2, 3]])\nprint(m[None], repr(m))") ==
        "[[0. 1.]\n [2. 3.]] <2x2 ti.Matrix.field>\n");
  // layout=ti.Layout.SOA: each component under its own dense
  CHECK(r("s = ti.Vector.field(2, ti.i32, shape=3, layout=ti.Layout.SOA)\ns[1] = [5, 6]\n"
          "print(s, s.get_scalar_field(0).snode.parent().id != s.get_scalar_field(1).snode.parent().id)") ==
        "[[0 0]\n [5 6]\n [0 0]] True\n");
  // a struct field's SoA keeps each vector member's components together
  CHECK(r("S2 = ti.types.struct(a=ti.i32, v=ti.math.vec2)\nq = S2.field(shape=2, layout=ti.Layout.SOA)\n"
          "pa = q.a.snode.parent().id\nv0 = q.v.get_scalar_field(0).snode.parent().id\n"
          "print(pa != v0, v0 == q.v.get_scalar_field(1).snode.parent().id)") == "True True\n");
  std::string e = error("x = ti.Vector.field(2, ti.f32, shape=3)\nx[3] = [1, 2]");
  CHECK(e.rfind("IndexError: ", 0) == 0);
  CHECK(e.find("field 'x'") != std::string::npos);
  CHECK(error("x = ti.Vector.field(2, ti.f32, shape=3)\nx.fill(ti.Vector([1, 2, 3]))") ==
        "TypeError: cannot assign a value of shape (3,) to the elements of vector field 'x' of shape (2,)");
  CHECK(r("S = ti.types.struct(a=ti.i32, v=ti.math.vec2)\ns = S.field(shape=2)\ns[0] = S(3, [1, 2])\ns[1] = {'a': 4, 'v': [5, 6]}\n"
          "print(s[0], s[1].v, s.a, s.keys)") == "{'a': 3, 'v': [1.0, 2.0]} [5. 6.] [3 4] ['a', 'v']\n");
}

TEST_CASE("HostEnv: compound host objects as StaticValues") {
  Run r;
  r("v = ti.Vector([1, 2.5])\nm = ti.Matrix([[1, 2], [3, 4]])\nvf = ti.Vector.field(3, ti.f32, shape=2)\n"
    "mf = ti.Matrix.field(2, 3, ti.i32, shape=2)\nt3 = ti.math.vec3\nm2 = ti.math.mat2\n"
    "@ti.dataclass\nclass P:\n    x: ti.f32\n    v: t3\n    @ti.func\n    def f(self):\n        return self.x\n"
    "p = P(1.0)\npf = P.field(shape=4)\n");
  using K = frontend::StaticValue::Kind;
  auto v = r.static_of("v");
  CHECK(v.kind == K::matrix);
  CHECK(v.rows == 2);
  CHECK(v.cols == 0);
  CHECK(v.elems.size() == 2);
  CHECK(v.elems[1].f == 2.5);
  auto m = r.static_of("m");
  CHECK(m.rows == 2);
  CHECK(m.cols == 2);
  CHECK(m.elems[2].i == 3);
  auto vf = r.static_of("vf");
  CHECK(vf.kind == K::matrix_field);
  CHECK(vf.fields.size() == 3);
  CHECK(vf.cols == 0);
  auto mf = r.static_of("mf");
  CHECK(mf.fields.size() == 6);
  CHECK(mf.rows == 2);
  CHECK(mf.cols == 3);
  auto t3 = r.static_of("t3");
  CHECK(t3.kind == K::dtype);
  CHECK(t3.prim == Prim::f32);
  CHECK(t3.rows == 3);
  CHECK(t3.cols == 0);
  CHECK(r.static_of("m2").cols == 2);
  auto P = r.static_of("P");
  CHECK(P.kind == K::struct_type);
  REQUIRE(P.names.size() == 2);
  CHECK(P.names[1] == "v");
  CHECK(P.elems[1].rows == 3);
  auto f = r.host->ev->ti->host_env->attr(P, "f", {});
  CHECK(f.kind == K::func);
  REQUIRE(f.def);
  CHECK(f.def->args.args[0]->name == "self");
  auto p = r.static_of("p");
  CHECK(p.kind == K::struct_value);
  CHECK(p.elems[0].f == 1.0);
  CHECK(p.elems[1].kind == K::matrix);
  REQUIRE(p.ctype);
  CHECK(p.ctype->kind == K::struct_type);
  auto pf = r.static_of("pf");
  CHECK(pf.kind == K::struct_field);
  CHECK(pf.elems[0].kind == K::field);
  CHECK(pf.elems[1].kind == K::matrix_field);
  CHECK(r.host->ev->ti->host_env->attr(vf, "n", {}).i == 3);
  CHECK(r.host->ev->ti->host_env->attr(vf, "shape", {}).elems[0].i == 2);
}

TEST_CASE("compound kernel arguments are flattened; returns rebuilt with their types") {
  CHECK(run("@ti.kernel\ndef f(v: ti.types.vector(2, ti.i32), m: ti.math.mat2) -> ti.math.vec2:\n"
            "    return ti.Vector([v[0] * m[0, 0], v[1] + m[1, 1]])\nprint(f([2, 3], ti.math.mat2(1.5, 0, 0, 0.5)))") == "[3.  3.5]\n");
  CHECK(error("@ti.kernel\ndef f(v: ti.math.vec3) -> ti.f32:\n    return v[0]\nf(ti.Vector([1, 2]))") ==
        "TypeError: a VectorType[3, f32] argument needs shape (3,), got a value of shape (2,)");
  // one compiled instance per compound type in the cache key
  Run r;
  r("@ti.kernel\ndef g(v: ti.template()) -> ti.i32:\n    return 1\n");
  CHECK(r("@ti.kernel\ndef h(v: ti.math.vec2) -> ti.f32:\n    return v.x + v.y\nprint(h(ti.math.vec2(1, 2)), h(ti.Vector([3, 4])))") == "3.0 7.0\n");
}
