// The `ti` module on the host: fields, SNodes, kernels, the compiled-kernel
// cache, ti.init, and ordering of host and kernel output.
#include <doctest/doctest.h>

#include "tests/unit/host_session.h"

using namespace kiln;

namespace {

using Run = test::HostSession;
std::string run(const std::string& src) { return test::run_snippet(src); }
std::string error(const std::string& src) { return test::error_of(src); }

const char* kInit = "import taichi as ti\nti.init(arch=ti.cpu)\n";

}  // namespace

TEST_CASE("field host access: f32 reads give the f64 of the f32, writes cast like Taichi") {
  CHECK(run(std::string(kInit) + "x = ti.field(ti.f32, shape=4)\nx[1] = 0.1\nprint(x[1], x[0], x.shape, x.dtype)") ==
        "0.10000000149011612 0.0 (4,) f32\n");
  CHECK(run(std::string(kInit) + "x = ti.field(ti.i32, shape=(2, 3))\nx[1, 2] = 7.9\nx[0, 0] = -3\nprint(x[1, 2], x[0, 0], x.shape)") ==
        "7 -3 (2, 3)\n");
  CHECK(run(std::string(kInit) + "x = ti.field(ti.u8, shape=2)\nx[0] = 257\nprint(x[0])") == "1\n");
  CHECK(run(std::string(kInit) + "s = ti.field(ti.f64, shape=())\ns[None] = 0.1\nprint(s[None], s.shape)") == "0.1 ()\n");
  CHECK(run(std::string(kInit) + "x = ti.field(int, shape=3)\ny = ti.field(float, shape=3)\nprint(x.dtype, y.dtype)") == "i32 f32\n");
  CHECK(run("import taichi as ti\nti.init(default_fp=ti.f64)\ny = ti.field(float, shape=1)\nprint(y.dtype)") == "f64\n");
  CHECK(run(std::string(kInit) + "x = ti.field(ti.f32, shape=3)\nx.fill(2.5)\nprint([x[i] for i in range(3)], x, repr(x))") ==
        "[2.5, 2.5, 2.5] [2.5 2.5 2.5] <ti.field>\n");
}

TEST_CASE("field host access errors") {
  std::string e = error(std::string(kInit) + "x = ti.field(ti.f32, shape=4)\nx[4] = 1");
  CHECK(e.rfind("IndexError: ", 0) == 0);
  CHECK(e.find("4") != std::string::npos);
  CHECK(error(std::string(kInit) + "x = ti.field(ti.f32, shape=(2, 2))\nx[1]") ==
        "AssertionError: Slicing is not supported on ti.field");
  CHECK(error(std::string(kInit) + "x = ti.field(ti.f32, shape=2)\nx[0] = 'a'") ==
        "TypeError: expected a number for a f32 value, got 'str'");
}

TEST_CASE("ti.root.dense(...).place(...) and a field made before ti.init") {
  CHECK(run("import taichi as ti\nx = ti.field(ti.i32)\nti.root.dense(ti.ij, (2, 3)).place(x)\nx[1, 2] = 5\nprint(x.shape, x[1, 2])") ==
        "(2, 3) 5\n");
  CHECK(run(std::string(kInit) + "a = ti.field(ti.f32)\nb = ti.field(ti.i32)\nti.root.dense(ti.i, 4).place(a, b)\n"
                                 "a[3] = 1.5\nb[3] = 2\nprint(a.shape, a[3], b[3], a.snode.parent().shape)") ==
        "(4,) 1.5 2 (4,)\n");
}

TEST_CASE("kernels: scalar args, returns, prints in program order") {
  CHECK(run(std::string(kInit) + "@ti.kernel\ndef add(a: ti.i32, b: ti.f32) -> ti.f32:\n    return a + b\n"
                                 "print('before')\nprint(add(1, 0.5))\nprint(add(b=2.25, a=1))") ==
        "before\n1.5\n3.25\n");
  CHECK(run(std::string(kInit) + "@ti.kernel\ndef k(n: ti.i32):\n    print('kernel', n)\n"
                                 "print('host 1')\nk(7)\nprint('host 2')") == "host 1\nkernel 7\nhost 2\n");
  CHECK(run(std::string(kInit) + "x = ti.field(ti.i32, shape=8)\n@ti.kernel\ndef fill():\n    for i in x:\n        x[i] = i * i\n"
                                 "fill()\nprint([x[i] for i in range(8)])") == "[0, 1, 4, 9, 16, 25, 36, 49]\n");
  CHECK(run(std::string(kInit) + "@ti.kernel\ndef f() -> float:\n    return 1 / 3\nprint(f())") == "0.3333333432674408\n");
}

TEST_CASE("kernel argument errors") {
  CHECK(error(std::string(kInit) + "@ti.kernel\ndef k(a):\n    pass\nk(1)") ==
        "TypeError: parameter 'a' of kernel 'k' needs a type annotation (such as ti.f32, ti.i32 or ti.template())");
  CHECK(error(std::string(kInit) + "@ti.kernel\ndef k(a: ti.i32):\n    pass\nk()") ==
        "TypeError: k() missing 1 required positional argument: 'a'");
  CHECK(error(std::string(kInit) + "@ti.func\ndef f():\n    pass\nf()").rfind("RuntimeError: Taichi functions cannot be called from Python-scope", 0) == 0);
}

TEST_CASE("compiled kernels are cached by template identity and scalar types") {
  Run r;
  r(std::string(kInit) +
    "a = ti.field(ti.i32, shape=4)\nb = ti.field(ti.i32, shape=4)\n"
    "@ti.kernel\ndef inc(f: ti.template(), by: ti.i32):\n    for i in f:\n        f[i] += by\n"
    "inc(a, 1)\ninc(a, 2)\ninc(b, 5)\ninc(a, 3)\nprint(a[0], b[0])");
  CHECK(r.out == "6 5\n");
  REQUIRE(compiled_kernels(*r.host).size() == 2);
  CHECK(compiled_kernels(*r.host)[0].name == "inc");
  CHECK(compiled_kernels(*r.host)[0].ir.find("offloaded") != std::string::npos);
  CHECK(!compiled_kernels(*r.host)[0].bytecode.empty());
}

TEST_CASE("data_oriented classes: self is a template") {
  CHECK(run(std::string(kInit) +
            "@ti.data_oriented\nclass Sim:\n    def __init__(self, n):\n        self.x = ti.field(ti.f32, shape=n)\n"
            "    @ti.kernel\n    def step(self, dt: ti.f32):\n        for i in self.x:\n            self.x[i] += dt\n"
            "    def total(self):\n        return sum(self.x[i] for i in range(self.x.shape[0]))\n"
            "s = Sim(4)\ns.step(0.5)\ns.step(0.25)\nprint(s.total())") == "3.0\n");
}

TEST_CASE("ti.init resets the program, old fields are invalid") {
  CHECK(error(std::string(kInit) + "x = ti.field(ti.i32, shape=2)\nti.init()\nx[0]").rfind("RuntimeError: ", 0) == 0);
  CHECK(run(std::string(kInit) + "x = ti.field(ti.i32, shape=2)\nx[0] = 3\nti.init()\ny = ti.field(ti.i32, shape=2)\nprint(y[0])") == "0\n");
}

TEST_CASE("print_ir writes the IR to err, forced options from the CLI") {
  Run r;
  r(std::string("import taichi as ti\nti.init(print_ir=True)\n@ti.kernel\ndef k():\n    print(1)\nk()"));
  CHECK(r.out == "1\n");
  CHECK(r.err.find("kernel") != std::string::npos);
  HostOptions o;
  o.force_print_ir = true;
  Run forced(o);
  forced(std::string(kInit) + "@ti.kernel\ndef k():\n    pass\nk()");
  CHECK(!forced.err.empty());
}

TEST_CASE("ti intrinsics and dtypes on host values") {
  CHECK(run(std::string(kInit) + "print(ti.sqrt(4), ti.floor(2.5), ti.max(1, 3, 2), ti.cast(2.7, ti.i32), ti.f32(0.1))") ==
        "2.0 2.0 3 2 0.10000000149011612\n");
  CHECK(run(std::string(kInit) + "print(ti.raw_div(-7, 2), ti.raw_mod(-7, 2), -7 // 2, ti.bit_shr(16, 2), ti.i32, ti.float32)") ==
        "-3 -1 -4 4 i32 f32\n");
  CHECK(run("import kiln as ti\nprint([t for t in ti.ndrange(2, (1, 3))])") == "[(0, 1), (0, 2), (1, 1), (1, 2)]\n");
  CHECK(run(std::string(kInit) + "x = ti.field(ti.f32, shape=2)\nprint(x.dtype == ti.f32, x.dtype != ti.i32, {ti.f32: 1}[x.dtype])") ==
        "True True 1\n");
}
