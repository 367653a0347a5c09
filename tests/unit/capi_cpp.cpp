// The C++ layer (include/kiln/kiln.hpp): RAII handles, spans as ndarrays,
// typed returns, and kiln::Failure carrying the diagnostic.
#include <doctest/doctest.h>

#include <span>
#include <string>
#include <vector>

#include "kiln/kiln.hpp"

static const char* kSrc = R"(
import taichi as ti
ti.init()
y = ti.field(ti.i32, shape=(2, 2))

@ti.kernel
def axpy(a: ti.f32, x: ti.types.ndarray(dtype=ti.f32, ndim=1), n: ti.i64) -> ti.f32:
    s = 0.0
    for i in range(n):
        x[i] = a * x[i] + 1
        s += x[i]
    return s

@ti.kernel
def two() -> (ti.i32, ti.f64):
    return 7, 2.5
)";

TEST_CASE("kiln.hpp: load, call with spans and scalars, read returns and fields") {
  kiln::VMConfig cfg;
  cfg.engine = "jit";
  kiln::VM vm(cfg);
  kiln::Module m = vm.load(kSrc, "cpp.py");
  std::vector<float> x = {1, 2, 3};
  kiln::Kernel axpy = m.kernel("axpy");
  kiln::Returns r = axpy(2.0f, std::span<float>(x), int64_t(3));
  CHECK(r.size() == 1);
  CHECK(r.as<float>() == 15.0f);  // 3 + 5 + 7
  CHECK(x[2] == 7.0f);
  kiln::Returns t = m.kernel("two")();
  REQUIRE(t.size() == 2);
  CHECK(t.as<int>(0) == 7);
  CHECK(t.as<double>(1) == 2.5);

  kiln::Field y = m.field("y");
  CHECK(y.shape() == std::vector<int64_t>{2, 2});
  y.set<int32_t>({1, 0}, 42);
  CHECK(y.get<int>({1, 0}) == 42);
  std::vector<int32_t> all = {1, 2, 3, 4};
  y.copy_from(std::span<const int32_t>(all));
  std::vector<int32_t> back(4);
  y.copy_to(std::span<int32_t>(back));
  CHECK(back == all);

  kiln::Kernel moved = std::move(axpy);
  CHECK(moved.get() != nullptr);
  CHECK(axpy.get() == nullptr);
}

TEST_CASE("kiln.hpp: failures carry kind, file, line and message") {
  kiln::VM vm;
  try {
    vm.load("x = 1\nprint(x +)\n", "bad.py");
    CHECK(false);
  } catch (const kiln::Failure& e) {
    CHECK(e.status == KILN_ERROR_SYNTAX);
    CHECK(e.kind == "SyntaxError");
    CHECK(e.file == "bad.py");
    CHECK(e.line == 2);
    CHECK(std::string(e.what()).find("bad.py:2:") != std::string::npos);
  }
  kiln::Module m = vm.load(kSrc, "cpp.py");
  CHECK_THROWS_AS(m.kernel("nope"), kiln::Failure);
  std::vector<float> x(3);
  kiln::Kernel axpy = m.kernel("axpy");
  try {
    axpy(2.0, std::span<float>(x), int64_t(3));  // f64 for an f32 parameter
    CHECK(false);
  } catch (const kiln::Failure& e) {
    CHECK(e.status == KILN_ERROR_TYPE);
    CHECK(e.message == "argument 1 ('a') of kernel 'axpy' is f32, got f64");
    CHECK(e.line == 7);
  }
  kiln::Field y = m.field("y");
  CHECK_THROWS_AS(y.get<int>({5, 0}), kiln::Failure);
  std::vector<float> wrong(4);
  CHECK_THROWS_AS(y.copy_to(std::span<float>(wrong)), kiln::Failure);
}

TEST_CASE("kiln.hpp: ndarray handles, vector and matrix arguments") {
  kiln::VM vm;
  kiln::Module m = vm.load(R"(
import taichi as ti
ti.init()

@ti.kernel
def add(a: ti.types.ndarray(dtype=ti.f64, ndim=2), v: ti.types.vector(2, ti.f64)):
    for i, j in a:
        a[i, j] += v[j]

@ti.kernel
def trace(m: ti.types.matrix(2, 2, ti.f32)) -> ti.f32:
    return m[0, 0] + m[1, 1]
)");
  std::vector<double> host(6, 1.0);
  kiln::NDArray wrapped = vm.wrap(std::span<double>(host), {3, 2});
  kiln::NDArray owned = vm.ndarray<double>({3, 2});
  kiln::Kernel add = m.kernel("add");
  add(wrapped, std::array<double, 2>{10, 20});
  add(owned, std::array<double, 2>{1, 2});
  CHECK(host[0] == 11.0);
  CHECK(host[5] == 21.0);
  CHECK(owned.data<double>()[5] == 2.0);
  CHECK(owned.shape() == std::vector<int64_t>{3, 2});
  CHECK_THROWS_AS(owned.data<float>(), std::invalid_argument);
  kiln::Matrix<float, 2, 2> mat;
  mat(0, 0) = 3;
  mat(1, 1) = 4;
  mat(0, 1) = 100;
  CHECK(m.kernel("trace")(mat).as<float>() == 7.0f);
  try {
    add(wrapped, std::array<double, 3>{1, 2, 3});
    FAIL("a vector of the wrong size was accepted");
  } catch (const kiln::Failure& f) {
    CHECK(f.status == KILN_ERROR_VALUE);
    CHECK(f.message.find("has shape (2,), got a kiln_vector of shape (3,)") != std::string::npos);
  }
  CHECK_THROWS_AS(vm.wrap(std::span<double>(host), {0}), kiln::Failure);

  kiln::Module m2 = vm.load(R"(
f = ti.field(ti.i32, shape=3)

@ti.kernel
def put(dst: ti.template(), v: ti.i32):
    for i in dst:
        dst[i] = v + i
)");
  kiln::Field f = m2.field("f");
  m2.kernel("put")(f, int32_t(7));
  CHECK(f.get<int>({2}) == 9);
}
