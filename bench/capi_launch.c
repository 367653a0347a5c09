/* Per-call overhead of launching a kernel through the C API (issue 8's
 * target: under 2 us), against the same launches from a host-script loop in
 * the same VM, measured in the same run. Never run as a test:
 *   build/bench_capi_launch [calls]          (engine: KILN_ENGINE, default interp) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kiln/kiln.h"

static const char* source =
    "import taichi as ti\n"
    "import time\n"
    "ti.init()\n"
    "@ti.kernel\n"
    "def empty():\n"
    "    pass\n"
    "@ti.kernel\n"
    "def scalars(a: ti.i32, b: ti.f32) -> ti.f32:\n"
    "    return a + b\n"
    "@ti.kernel\n"
    "def touch(x: ti.types.ndarray(dtype=ti.f32, ndim=1), v: ti.f32):\n"
    "    x[0] = v\n"
    "def script_loop(n):\n"
    "    empty()\n"
    "    t = time.perf_counter()\n"
    "    for i in range(n):\n"
    "        empty()\n"
    "    return (time.perf_counter() - t) / n * 1e6\n"
    "def script_scalars(n):\n"
    "    t = time.perf_counter()\n"
    "    for i in range(n):\n"
    "        scalars(1, 2.0)\n"
    "    return (time.perf_counter() - t) / n * 1e6\n";

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

#define CHECK(call)                                          \
  if ((call) != KILN_OK) {                                   \
    fprintf(stderr, "%s failed:\n%s", #call, kiln_last_error()); \
    return 1;                                                \
  }

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200000;
  kiln_vm* vm;
  CHECK(kiln_vm_create(NULL, &vm));
  kiln_module* m;
  CHECK(kiln_load_string(vm, "bench.py", source, &m));
  kiln_kernel *empty, *scalars, *touch;
  CHECK(kiln_module_kernel(m, "empty", &empty));
  CHECK(kiln_module_kernel(m, "scalars", &scalars));
  CHECK(kiln_module_kernel(m, "touch", &touch));

  float buf[16] = {0};
  int64_t shape[1] = {16};
  kiln_array arr = {buf, KILN_F32, 1, shape, NULL};
  kiln_value sargs[2] = {kiln_i32(1), kiln_f32(2.0f)}, ret;
  kiln_value targs[2] = {kiln_arr(&arr), kiln_f32(3.0f)};
  kiln_ndarray* handle;
  CHECK(kiln_ndarray_create(vm, &arr, &handle));
  kiln_value hargs[2] = {kiln_nd(handle), kiln_f32(3.0f)};
  CHECK(kiln_kernel_call(empty, NULL, 0, NULL, 0, NULL));  /* compile */
  CHECK(kiln_kernel_call(scalars, sargs, 2, &ret, 1, NULL));
  CHECK(kiln_kernel_call(touch, targs, 2, NULL, 0, NULL));

  double t = now_us();
  for (int i = 0; i < n; i++) kiln_kernel_call(empty, NULL, 0, NULL, 0, NULL);
  double empty_us = (now_us() - t) / n;
  t = now_us();
  for (int i = 0; i < n; i++) kiln_kernel_call(scalars, sargs, 2, &ret, 1, NULL);
  double scalars_us = (now_us() - t) / n;
  t = now_us();
  for (int i = 0; i < n; i++) kiln_kernel_call(touch, targs, 2, NULL, 0, NULL);
  double touch_us = (now_us() - t) / n;
  t = now_us();
  for (int i = 0; i < n; i++) kiln_kernel_call(touch, hargs, 2, NULL, 0, NULL);
  double handle_us = (now_us() - t) / n;

  /* the baseline: the same empty kernel launched by a host-script loop */
  char code[256];
  snprintf(code, sizeof code, "print('script_empty_us %%.3f' %% script_loop(%d))\nprint('script_scalars_us %%.3f' %% script_scalars(%d))\n", n, n);
  kiln_module* loop;
  CHECK(kiln_load_string(vm, "loop.py", code, &loop));

  printf("c_api_empty_us %.3f\n", empty_us);
  printf("c_api_scalars_us %.3f\n", scalars_us);
  printf("c_api_ndarray_us %.3f\n", touch_us);
  printf("c_api_ndarray_handle_us %.3f\n", handle_us);
  printf("(script_*: the same launches from a host-script loop in this VM, the baseline)\n");
  printf("check %.1f %.1f\n", ret.v.f, buf[0]);
  kiln_module_destroy(loop);
  kiln_ndarray_destroy(handle);
  kiln_kernel_destroy(touch);
  kiln_kernel_destroy(scalars);
  kiln_kernel_destroy(empty);
  kiln_module_destroy(m);
  kiln_vm_destroy(vm);
  return 0;
}
