// The C API (include/kiln/kiln.h): every function with valid and invalid
// input, checking status codes, messages and diagnostics.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <unistd.h>

#include <vector>

#include "kiln/kiln.h"
#include "capi_helpers.h"

namespace {
using namespace capi_test;

const char* kSim = R"(
import taichi as ti
ti.init()
x = ti.field(ti.f32, shape=8)
v = ti.Vector.field(2, ti.i32, shape=(2, 3))

@ti.kernel
def scale(k: ti.f32) -> ti.f32:
    s = 0.0
    for i in x:
        x[i] = i * k
    for i in range(8):
        s += x[i]
    return s

@ti.kernel
def pair(a: ti.i32, b: ti.u8) -> ti.types.vector(2, ti.i32):
    return ti.Vector([a + b, a - b])

@ti.kernel
def nothing():
    pass

@ti.kernel
def fill_nd(a: ti.types.ndarray(dtype=ti.f64, ndim=1), c: ti.f64):
    for i in a:
        a[i] = a[i] * 2 + c

@ti.kernel
def tmpl(t: ti.template()):
    pass

@ti.kernel
def checked(i: ti.i32) -> ti.i32:
    assert i < 4, "i too big"
    return x[i] > 0

@ti.func
def helper():
    pass

@ti.kernel
def say(i: ti.i32):
    print("kernel says", i)

print("loaded")
)";

}  // namespace

TEST_CASE("version, status and dtype names") {
  CHECK(std::string(kiln_version()) == "0.1.0");
  CHECK(std::string(kiln_status_name(KILN_OK)) == "KILN_OK");
  CHECK(std::string(kiln_status_name(KILN_ERROR_INDEX)) == "KILN_ERROR_INDEX");
  CHECK(std::string(kiln_status_name((kiln_status)99)) == "KILN_ERROR_UNKNOWN");
  CHECK(std::string(kiln_dtype_name(KILN_F32)) == "f32");
  CHECK(std::string(kiln_dtype_name(KILN_U8)) == "u8");
  CHECK(std::string(kiln_dtype_name(KILN_NDARRAY)) == "ndarray");
  CHECK(std::string(kiln_dtype_name((kiln_dtype)77)) == "none");
}

TEST_CASE("vm create and destroy, with bad configurations") {
  kiln_vm* vm = nullptr;
  CHECK(kiln_vm_create(nullptr, &vm) == KILN_OK);
  CHECK(vm != nullptr);
  kiln_vm_destroy(vm);
  kiln_vm_destroy(nullptr);  // ignored
  kiln_config_init(nullptr);  // ignored

  CHECK(kiln_vm_create(nullptr, nullptr) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(error_has("InvalidArgument: out is NULL"));
  CHECK(kiln_last_diagnostic()->status == KILN_ERROR_INVALID_ARGUMENT);

  kiln_config cfg;
  kiln_config_init(&cfg);
  cfg.engine = "warp";
  vm = nullptr;
  CHECK(kiln_vm_create(&cfg, &vm) == KILN_ERROR_VALUE);
  CHECK(vm == nullptr);
  CHECK(error_has("unknown engine 'warp' (engines: interp, jit)"));
  cfg.engine = "jit";
  cfg.threads = -2;
  CHECK(kiln_vm_create(&cfg, &vm) == KILN_ERROR_VALUE);
  CHECK(error_has("threads must be 0"));
}

TEST_CASE("load source: output callback, syntax errors with location, runtime errors, sys.exit") {
  VM t;
  kiln_module* m = t.load(kSim);
  CHECK(t.cap.out == "loaded\n");
  kiln_module_destroy(m);
  kiln_module_destroy(nullptr);

  kiln_module* bad = nullptr;
  CHECK(kiln_load_string(t.vm, "broken.py", "x = 1\ny = (2 +\n", &bad) == KILN_ERROR_SYNTAX);
  CHECK(bad == nullptr);
  REQUIRE(t.cap.diags.size() == 1);
  CHECK(t.cap.kinds[0] == "SyntaxError");
  CHECK(t.cap.files[0] == "broken.py");
  CHECK(t.cap.diags[0].line >= 2);
  CHECK(t.cap.diags[0].column >= 1);
  CHECK(error_has("broken.py:"));
  const kiln_diagnostic* d = kiln_last_diagnostic();
  CHECK(d->status == KILN_ERROR_SYNTAX);
  CHECK(std::string(d->kind) == "SyntaxError");

  CHECK(kiln_load_string(t.vm, "n.py", "print(undefined_name)\n", &bad) == KILN_ERROR_NAME);
  CHECK(error_has("NameError"));
  CHECK(error_has("n.py:1:"));
  CHECK(kiln_load_string(t.vm, "e.py", "raise RuntimeError('boom')\n", &bad) == KILN_ERROR_RUNTIME);
  CHECK(error_has("RuntimeError: boom"));
  CHECK(kiln_load_string(t.vm, "x.py", "import sys\nsys.exit(3)\n", &bad) == KILN_ERROR_EXIT);
  CHECK(error_has("sys.exit(3)"));

  CHECK(kiln_load_string(nullptr, "a.py", "x = 1", &bad) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(kiln_load_string(t.vm, "a.py", nullptr, &bad) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(error_has("source is NULL"));
  CHECK(kiln_load_string(t.vm, "a.py", "x = 1", nullptr) == KILN_ERROR_INVALID_ARGUMENT);

  // the session survives its errors
  m = t.load("print('still here')\n");
  CHECK(t.cap.out == "loaded\nstill here\n");
  kiln_module_destroy(m);
}

TEST_CASE("load file") {
  VM t;
  char path[] = "/tmp/kiln_capi_XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  const char* src = "print('from a file')\n";
  REQUIRE(write(fd, src, std::strlen(src)) == (ssize_t)std::strlen(src));
  close(fd);
  kiln_module* m = nullptr;
  CHECK(kiln_load_file(t.vm, path, &m) == KILN_OK);
  CHECK(t.cap.out == "from a file\n");
  kiln_module_destroy(m);
  std::remove(path);
  CHECK(kiln_load_file(t.vm, "/nonexistent/kiln.py", &m) == KILN_ERROR_IO);
  CHECK(error_has("cannot open '/nonexistent/kiln.py'"));
  CHECK(kiln_load_file(t.vm, nullptr, &m) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(kiln_load_file(nullptr, path, &m) == KILN_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("kernel lookup") {
  VM t;
  kiln_module* m = t.load(kSim);
  kiln_kernel* k = nullptr;
  CHECK(kiln_module_kernel(m, "scale", &k) == KILN_OK);
  size_t np = 0;
  CHECK(kiln_kernel_num_params(k, &np) == KILN_OK);
  CHECK(np == 1);
  CHECK(kiln_kernel_num_params(k, nullptr) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(kiln_kernel_num_params(nullptr, &np) == KILN_ERROR_INVALID_ARGUMENT);
  kiln_kernel_destroy(k);
  kiln_kernel_destroy(nullptr);

  k = nullptr;
  CHECK(kiln_module_kernel(m, "missing", &k) == KILN_ERROR_NAME);
  CHECK(k == nullptr);
  CHECK(error_has("NameError: no kernel named 'missing' in sim.py"));
  CHECK(kiln_module_kernel(m, "x", &k) == KILN_ERROR_TYPE);
  CHECK(error_has("'x' is a ScalarField, not a @ti.kernel"));
  CHECK(kiln_module_kernel(m, "helper", &k) == KILN_ERROR_TYPE);
  CHECK(kiln_module_kernel(nullptr, "scale", &k) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(kiln_module_kernel(m, nullptr, &k) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(kiln_module_kernel(m, "scale", nullptr) == KILN_ERROR_INVALID_ARGUMENT);
  kiln_module_destroy(m);
}

TEST_CASE("kernel calls: typed scalars in, flattened returns out") {
  for (const char* engine : {"interp", "jit"}) {
    CAPTURE(engine);
    VM t(0, engine);
    kiln_module* m = t.load(kSim);
    kiln_kernel* k = nullptr;
    REQUIRE(kiln_module_kernel(m, "scale", &k) == KILN_OK);
    kiln_value arg = kiln_f32(0.5f), ret;
    size_t n = 0;
    REQUIRE(kiln_kernel_call(k, &arg, 1, &ret, 1, &n) == KILN_OK);
    CHECK(n == 1);
    CHECK(ret.dtype == KILN_F32);
    CHECK(ret.v.f == doctest::Approx(14.0));  // 0.5 * (0 + ... + 7)
    kiln_kernel_destroy(k);

    REQUIRE(kiln_module_kernel(m, "pair", &k) == KILN_OK);
    kiln_value args[2] = {kiln_i32(10), {}};
    args[1].dtype = KILN_U8;
    args[1].v.u = 3;
    kiln_value rets[2];
    REQUIRE(kiln_kernel_call(k, args, 2, rets, 2, &n) == KILN_OK);
    CHECK(n == 2);
    CHECK(rets[0].dtype == KILN_I32);
    CHECK(rets[0].v.i == 13);
    CHECK(rets[1].v.i == 7);
    // too small a return buffer: the kernel ran, the first value is there
    kiln_value one{};
    CHECK(kiln_kernel_call(k, args, 2, &one, 1, &n) == KILN_ERROR_VALUE);
    CHECK(n == 2);
    CHECK(one.v.i == 13);
    CHECK(error_has("returned 2 values but rets holds 1"));
    // wrong dtype: no implicit casts
    args[1] = kiln_i32(3);
    CHECK(kiln_kernel_call(k, args, 2, rets, 2, &n) == KILN_ERROR_TYPE);
    CHECK(error_has("argument 2 ('b') of kernel 'pair' is u8, got i32"));
    CHECK(error_has("sim.py:"));
    CHECK(kiln_kernel_call(k, args, 1, rets, 2, &n) == KILN_ERROR_TYPE);
    CHECK(error_has("kernel 'pair' takes 2 arguments, got 1"));
    CHECK(kiln_kernel_call(k, nullptr, 2, rets, 2, &n) == KILN_ERROR_INVALID_ARGUMENT);
    CHECK(kiln_kernel_call(k, args, 2, nullptr, 2, &n) == KILN_ERROR_INVALID_ARGUMENT);
    CHECK(kiln_kernel_call(nullptr, args, 2, rets, 2, &n) == KILN_ERROR_INVALID_ARGUMENT);
    kiln_value nd = kiln_nd(nullptr);
    args[1] = nd;
    CHECK(kiln_kernel_call(k, args, 2, rets, 2, &n) == KILN_ERROR_TYPE);
    CHECK(error_has("is u8, got ndarray"));
    kiln_kernel_destroy(k);

    REQUIRE(kiln_module_kernel(m, "nothing", &k) == KILN_OK);
    n = 5;
    CHECK(kiln_kernel_call(k, nullptr, 0, nullptr, 0, &n) == KILN_OK);
    CHECK(n == 0);
    CHECK(kiln_kernel_call(k, nullptr, 0, nullptr, 0, nullptr) == KILN_OK);
    kiln_kernel_destroy(k);

    REQUIRE(kiln_module_kernel(m, "tmpl", &k) == KILN_OK);
    arg = kiln_i32(1);
    CHECK(kiln_kernel_call(k, &arg, 1, nullptr, 0, nullptr) == KILN_OK);  // a compile-time constant
    float xs[3] = {1, 2, 3};
    kiln_vector vx = {KILN_F32, 3, 0, xs};
    arg = kiln_vec(&vx);
    CHECK(kiln_kernel_call(k, &arg, 1, nullptr, 0, nullptr) == KILN_ERROR_TYPE);
    CHECK(error_has("is a ti.template(); pass a field (KILN_FIELD) or a scalar, got a vector value"));
    arg = kiln_fld(nullptr);
    CHECK(kiln_kernel_call(k, &arg, 1, nullptr, 0, nullptr) == KILN_ERROR_INVALID_ARGUMENT);
    CHECK(error_has("the kiln_field handle is NULL"));
    kiln_kernel_destroy(k);

    REQUIRE(kiln_module_kernel(m, "say", &k) == KILN_OK);
    arg = kiln_i32(42);
    CHECK(kiln_kernel_call(k, &arg, 1, nullptr, 0, nullptr) == KILN_OK);
    CHECK(t.cap.out == "loaded\nkernel says 42\n");
    kiln_kernel_destroy(k);
    kiln_module_destroy(m);
  }
}

TEST_CASE("a kernel failing a debug assert or a bounds check is an error, and the VM goes on") {
  VM t(1);
  kiln_module* m = t.load(kSim);
  kiln_kernel* k = nullptr;
  REQUIRE(kiln_module_kernel(m, "checked", &k) == KILN_OK);
  kiln_value arg = kiln_i32(2), ret;
  CHECK(kiln_kernel_call(k, &arg, 1, &ret, 1, nullptr) == KILN_OK);
  arg = kiln_i32(6);
  t.cap.diags.clear();
  t.cap.kinds.clear();
  CHECK(kiln_kernel_call(k, &arg, 1, &ret, 1, nullptr) == KILN_ERROR_ASSERTION);
  CHECK(error_has("i too big"));
  REQUIRE(t.cap.kinds.size() == 1);
  CHECK(t.cap.kinds[0] == "AssertionError");
  CHECK(t.cap.diags[0].line > 0);
  kiln_kernel_destroy(k);

  kiln_module* m2 = t.load(R"(
@ti.kernel
def oob(i: ti.i32) -> ti.f32:
    return x[i]
)");
  REQUIRE(kiln_module_kernel(m2, "oob", &k) == KILN_OK);
  arg = kiln_i32(100);
  CHECK(kiln_kernel_call(k, &arg, 1, &ret, 1, nullptr) == KILN_ERROR_INDEX);
  CHECK(error_has("IndexError"));
  arg = kiln_i32(1);
  CHECK(kiln_kernel_call(k, &arg, 1, &ret, 1, nullptr) == KILN_OK);
  kiln_kernel_destroy(k);
  kiln_module_destroy(m2);
  kiln_module_destroy(m);
}

TEST_CASE("ndarray arguments wrap host memory without a copy") {
  VM t;
  kiln_module* m = t.load(kSim);
  kiln_kernel* k = nullptr;
  REQUIRE(kiln_module_kernel(m, "fill_nd", &k) == KILN_OK);
  double host[5] = {1, 2, 3, 4, 5};
  int64_t shape[1] = {5};
  kiln_array nd = {host, KILN_F64, 1, shape, nullptr};
  kiln_value args[2] = {kiln_arr(&nd), kiln_f64(0.5)};
  REQUIRE(kiln_kernel_call(k, args, 2, nullptr, 0, nullptr) == KILN_OK);
  CHECK(host[0] == 2.5);
  CHECK(host[4] == 10.5);
  int64_t strides_ok[1] = {8};
  nd.strides = strides_ok;
  CHECK(kiln_kernel_call(k, args, 2, nullptr, 0, nullptr) == KILN_OK);
  CHECK(host[0] == 5.5);

  int64_t strides_bad[1] = {16};
  nd.strides = strides_bad;
  CHECK(kiln_kernel_call(k, args, 2, nullptr, 0, nullptr) == KILN_ERROR_VALUE);
  CHECK(error_has("must be C-contiguous"));
  CHECK(host[0] == 5.5);  // untouched
  nd.strides = nullptr;

  float f[5] = {};
  kiln_array ndf = {f, KILN_F32, 1, shape, nullptr};
  args[0] = kiln_arr(&ndf);
  CHECK(kiln_kernel_call(k, args, 2, nullptr, 0, nullptr) == KILN_ERROR_TYPE);
  CHECK(error_has("expects elements of f64, got f32"));

  kiln_array nul = {nullptr, KILN_F64, 1, shape, nullptr};
  args[0] = kiln_arr(&nul);
  CHECK(kiln_kernel_call(k, args, 2, nullptr, 0, nullptr) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(error_has("ndarray data is NULL"));
  args[0] = kiln_nd(nullptr);
  CHECK(kiln_kernel_call(k, args, 2, nullptr, 0, nullptr) == KILN_ERROR_INVALID_ARGUMENT);
  int64_t zero[1] = {0};
  kiln_array empty = {host, KILN_F64, 1, zero, nullptr};
  args[0] = kiln_arr(&empty);
  CHECK(kiln_kernel_call(k, args, 2, nullptr, 0, nullptr) == KILN_ERROR_VALUE);
  CHECK(error_has("dimensions must be positive"));
  int64_t shape2[2] = {5, 1};
  kiln_array twod = {host, KILN_F64, 2, shape2, nullptr};
  args[0] = kiln_arr(&twod);
  CHECK(kiln_kernel_call(k, args, 2, nullptr, 0, nullptr) == KILN_ERROR_TYPE);
  CHECK(error_has("expects ndim=1"));
  args[0] = kiln_f64(1.0);
  CHECK(kiln_kernel_call(k, args, 2, nullptr, 0, nullptr) == KILN_ERROR_TYPE);
  CHECK(error_has("is an ndarray, got a f64 value"));
  kiln_kernel_destroy(k);
  kiln_module_destroy(m);
}

TEST_CASE("fields: info, element get and set, bulk copies") {
  VM t;
  kiln_module* m = t.load(kSim);
  kiln_field* x = nullptr;
  REQUIRE(kiln_module_field(m, "x", &x) == KILN_OK);
  kiln_dtype dt;
  int ndim = 0, n = 0, mm = 0;
  int64_t shape[8] = {};
  REQUIRE(kiln_field_info(x, &dt, &ndim, shape, &n, &mm) == KILN_OK);
  CHECK(dt == KILN_F32);
  CHECK(ndim == 1);
  CHECK(shape[0] == 8);
  CHECK(n == 1);
  CHECK(mm == 1);
  CHECK(kiln_field_info(x, nullptr, nullptr, nullptr, nullptr, nullptr) == KILN_OK);
  CHECK(kiln_field_info(nullptr, &dt, &ndim, shape, &n, &mm) == KILN_ERROR_INVALID_ARGUMENT);

  int64_t i = 3;
  kiln_value val = kiln_f32(2.25f), got;
  CHECK(kiln_field_set(x, &i, 1, &val) == KILN_OK);
  CHECK(kiln_field_get(x, &i, 1, &got) == KILN_OK);
  CHECK(got.dtype == KILN_F32);
  CHECK(got.v.f == 2.25);
  val = kiln_f64(1.0);
  CHECK(kiln_field_set(x, &i, 1, &val) == KILN_ERROR_TYPE);
  CHECK(error_has("field 'x' is f32, the value is f64"));
  i = 8;
  CHECK(kiln_field_get(x, &i, 1, &got) == KILN_ERROR_INDEX);
  CHECK(error_has("IndexError"));
  val = kiln_f32(1.0f);
  CHECK(kiln_field_set(x, &i, 1, &val) == KILN_ERROR_INDEX);
  int64_t two[2] = {1, 1};
  CHECK(kiln_field_get(x, two, 2, &got) == KILN_ERROR_INDEX);
  CHECK(error_has("field 'x' takes 1 indices (1 field axes), got 2"));
  CHECK(kiln_field_get(x, nullptr, 1, &got) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(kiln_field_get(x, &i, 1, nullptr) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(kiln_field_set(x, &i, 1, nullptr) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(kiln_field_get(nullptr, &i, 1, &got) == KILN_ERROR_INVALID_ARGUMENT);

  float buf[8];
  for (int k = 0; k < 8; k++) buf[k] = (float)k * 1.5f;
  CHECK(kiln_field_copy_from_host(x, buf, sizeof buf, KILN_F32) == KILN_OK);
  i = 5;
  CHECK(kiln_field_get(x, &i, 1, &got) == KILN_OK);
  CHECK(got.v.f == 7.5);
  float back[8] = {};
  CHECK(kiln_field_copy_to_host(x, back, sizeof back, KILN_F32) == KILN_OK);
  CHECK(std::memcmp(buf, back, sizeof buf) == 0);
  CHECK(kiln_field_copy_to_host(x, back, sizeof back - 4, KILN_F32) == KILN_ERROR_VALUE);
  CHECK(error_has("field 'x' holds 32 bytes, the buffer 28"));
  CHECK(kiln_field_copy_to_host(x, back, sizeof back, KILN_I32) == KILN_ERROR_TYPE);
  CHECK(kiln_field_copy_to_host(x, nullptr, sizeof back, KILN_F32) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(kiln_field_copy_from_host(x, buf, sizeof buf, KILN_F64) == KILN_ERROR_TYPE);
  CHECK(kiln_field_copy_from_host(nullptr, buf, sizeof buf, KILN_F32) == KILN_ERROR_INVALID_ARGUMENT);

  // a vector field: the index ends with the component
  kiln_field* v = nullptr;
  REQUIRE(kiln_module_field(m, "v", &v) == KILN_OK);
  REQUIRE(kiln_field_info(v, &dt, &ndim, shape, &n, &mm) == KILN_OK);
  CHECK(dt == KILN_I32);
  CHECK(ndim == 2);
  CHECK(shape[1] == 3);
  CHECK(n == 2);
  CHECK(mm == 1);
  int32_t vb[12];
  for (int k = 0; k < 12; k++) vb[k] = k * 10;
  CHECK(kiln_field_copy_from_host(v, vb, sizeof vb, KILN_I32) == KILN_OK);
  int64_t idx[3] = {1, 2, 1};  // element (1, 2), component 1: flat 5 * 2 + 1
  CHECK(kiln_field_get(v, idx, 3, &got) == KILN_OK);
  CHECK(got.v.i == 110);
  idx[2] = 2;
  CHECK(kiln_field_get(v, idx, 3, &got) == KILN_ERROR_INDEX);
  CHECK(error_has("component (2) is out of range"));
  CHECK(kiln_field_get(v, idx, 2, &got) == KILN_ERROR_INDEX);
  kiln_field_destroy(v);

  kiln_field* bad = nullptr;
  CHECK(kiln_module_field(m, "nope", &bad) == KILN_ERROR_NAME);
  CHECK(kiln_module_field(m, "scale", &bad) == KILN_ERROR_TYPE);
  CHECK(kiln_module_field(nullptr, "x", &bad) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(kiln_module_field(m, nullptr, &bad) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(kiln_module_field(m, "x", nullptr) == KILN_ERROR_INVALID_ARGUMENT);

  // ti.init again: the old field belongs to a program that no longer exists
  kiln_module* m2 = t.load("ti.init()\n");
  CHECK(kiln_field_get(x, &i, 1, &got) == KILN_ERROR_RUNTIME);
  CHECK(error_has("ti.init() has reset"));
  kiln_module_destroy(m2);
  kiln_field_destroy(x);
  kiln_field_destroy(nullptr);
  kiln_module_destroy(m);
}

TEST_CASE("several VMs, on several threads at once") {
  auto work = [](int seed, double* result) {
    VM t;
    kiln_module* m = t.load(kSim);
    kiln_kernel* k = nullptr;
    kiln_module_kernel(m, "scale", &k);
    kiln_value arg = kiln_f32((float)seed), ret{};
    double sum = 0;
    for (int r = 0; r < 50; r++)
      if (kiln_kernel_call(k, &arg, 1, &ret, 1, nullptr) == KILN_OK) sum += ret.v.f;
    *result = sum;
    kiln_kernel_destroy(k);
    kiln_module_destroy(m);
  };
  double a = 0, b = 0;
  std::thread ta(work, 1, &a), tb(work, 2, &b);
  ta.join();
  tb.join();
  CHECK(a == 50 * 28.0);
  CHECK(b == 50 * 56.0);
}

TEST_CASE("repeated calls reuse the compiled kernel until ti.init or a redefinition changes what parameters mean") {
  VM t;
  kiln_module* m = t.load(R"(
import taichi as ti
ti.init()

@ti.kernel
def twice(a: int) -> int:
    return a * 2
)");
  kiln_kernel* k = nullptr;
  REQUIRE(kiln_module_kernel(m, "twice", &k) == KILN_OK);
  kiln_value arg = kiln_i32(21), ret;
  for (int i = 0; i < 3; i++) {
    REQUIRE(kiln_kernel_call(k, &arg, 1, &ret, 1, nullptr) == KILN_OK);
    CHECK(ret.dtype == KILN_I32);
    CHECK(ret.v.i == 42);
  }
  // `int` now means i64: the cached classification and kernel are dropped
  kiln_module* m2 = t.load("ti.init(default_ip=ti.i64)\n");
  CHECK(kiln_kernel_call(k, &arg, 1, &ret, 1, nullptr) == KILN_ERROR_TYPE);
  CHECK(error_has("argument 1 ('a') of kernel 'twice' is i64, got i32"));
  arg = kiln_i64(int64_t(1) << 40);
  REQUIRE(kiln_kernel_call(k, &arg, 1, &ret, 1, nullptr) == KILN_OK);
  CHECK(ret.dtype == KILN_I64);
  CHECK(ret.v.i == int64_t(1) << 41);
  // every launch is still counted
  kiln_module* m3 = t.load("ti.print_statistics()\n");
  CHECK(t.cap.out.find("launched_kernels: 1") != std::string::npos);
  kiln_module_destroy(m3);
  kiln_module_destroy(m2);
  kiln_kernel_destroy(k);
  kiln_module_destroy(m);
}
