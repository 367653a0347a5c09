// The host numpy module and ndarray kernel arguments: the compile cache keys
// an ndarray argument by (dtype, ndim, element shape), never by its shape,
// and the .npy header is byte-for-byte numpy's.
#include <doctest/doctest.h>

#include "tests/unit/host_session.h"

using namespace kiln;

namespace {
const char* kInit = "import taichi as ti\nimport numpy as np\nti.init(arch=ti.cpu)\n";
}

TEST_CASE("one kernel per (dtype, ndim) of its ndarray argument, whatever the shape") {
  test::HostSession r({}, kInit);
  r("@ti.kernel\n"
    "def total(a: ti.types.ndarray()) -> ti.f64:\n"
    "    s = 0.0\n"
    "    for I in ti.grouped(a):\n"
    "        s += a[I]\n"
    "    return s\n");
  CHECK(r("print(total(np.ones(3, dtype=np.float32)), total(np.ones(50, dtype=np.float32)))") == "3.0 50.0\n");
  CHECK(compiled_kernels(*r.host).size() == 1);
  CHECK(r("print(total(ti.ndarray(ti.f32, shape=7)))") == "0.0\n");  // a ti.ndarray of the same dtype/ndim
  CHECK(compiled_kernels(*r.host).size() == 1);
  CHECK(r("print(total(np.ones(4)))") == "4.0\n");  // float64: a new dtype
  CHECK(compiled_kernels(*r.host).size() == 2);
  CHECK(r("print(total(np.ones((2, 3), dtype=np.float32)), total(np.ones((9, 9), dtype=np.float32)))") == "6.0 81.0\n");
  CHECK(compiled_kernels(*r.host).size() == 3);
}

TEST_CASE("a numpy array passed to a kernel is written in place") {
  test::HostSession r({}, kInit);
  CHECK(r("@ti.kernel\n"
          "def inc(a: ti.types.ndarray(dtype=ti.i32, ndim=1)):\n"
          "    for i in a:\n"
          "        a[i] += i\n"
          "x = np.zeros(4, dtype=np.int32)\n"
          "v = x[1:]\n"
          "inc(x)\n"
          "inc(x)\n"
          "print(x, v)\n") == "[0 2 4 6] [2 4 6]\n");
}

TEST_CASE("np.save writes numpy's NPY 1.0 header") {
  test::HostSession r({}, kInit);
  std::string path = "/tmp/kiln_unit_np_header.npy";
  r("np.save('" + path + "', np.zeros((2, 3), dtype=np.float32))\n");
  FILE* f = std::fopen(path.c_str(), "rb");
  REQUIRE(f);
  char buf[128] = {};
  size_t got = std::fread(buf, 1, sizeof buf, f);
  std::fclose(f);
  std::remove(path.c_str());
  REQUIRE(got == 128);  // the 128-byte header (64-byte aligned); the data follows
  CHECK(std::string(buf, 6) == "\x93NUMPY");
  CHECK(buf[6] == 1);
  CHECK(buf[7] == 0);
  CHECK((unsigned char)buf[8] == 118);  // header length: 128 - 10
  std::string header(buf + 10, 118);
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  CHECK(header.substr(0, dict.size()) == dict);
  CHECK(header.find_first_not_of(' ', dict.size()) == header.size() - 1);  // space padding
  CHECK(header.back() == '\n');
}
