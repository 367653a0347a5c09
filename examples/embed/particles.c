/* A C host embedding Kiln: particles whose positions live in the host's own
 * array. The kernel gets that array as an ndarray argument (no copy) and
 * moves the particles under gravity, bouncing off the floor; the host reads
 * the positions straight from its array after each step.
 *
 *   ./embed_particles_c      (built by CMake; run by ctest as embed/particles_c) */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kiln/kiln.h"

static const char* source =
    "import taichi as ti\n"
    "ti.init()\n"
    "vel = ti.Vector.field(2, ti.f32, shape=64)\n"
    "\n"
    "@ti.kernel\n"
    "def init(pos: ti.types.ndarray(dtype=ti.f32, ndim=2)):\n"
    "    for i in vel:\n"
    "        pos[i, 0] = 0.1 + 0.8 * (i % 8) / 7\n"
    "        pos[i, 1] = 0.5 + 0.05 * (i // 8)\n"
    "        vel[i] = ti.Vector([0.0, 0.0])\n"
    "\n"
    "@ti.kernel\n"
    "def step(pos: ti.types.ndarray(dtype=ti.f32, ndim=2), dt: ti.f32) -> ti.f32:\n"
    "    lowest = 1.0\n"
    "    for i in vel:\n"
    "        vel[i][1] -= 9.8 * dt\n"
    "        pos[i, 1] += vel[i][1] * dt\n"
    "        if pos[i, 1] < 0.0:\n"
    "            pos[i, 1] = -pos[i, 1]\n"
    "            vel[i][1] = -0.8 * vel[i][1]\n"
    "        ti.atomic_min(lowest, pos[i, 1])\n"
    "    return lowest\n";

static void on_diagnostic(void* user, const kiln_diagnostic* d) {
  (void)user;
  fprintf(stderr, "kiln %s at %s:%d:%d: %s\n", d->kind, d->file, d->line, d->column, d->message);
}

#define CHECK(call)                                                  \
  do {                                                               \
    if ((call) != KILN_OK) {                                         \
      fprintf(stderr, "%s failed:\n%s", #call, kiln_last_error());   \
      return 1;                                                      \
    }                                                                \
  } while (0)

int main(void) {
  enum { N = 64 };
  float pos[N][2];
  int64_t shape[2] = {N, 2};
  kiln_array arr = {pos, KILN_F32, 2, shape, NULL};

  kiln_config cfg;
  kiln_config_init(&cfg);
  cfg.diagnostic = on_diagnostic;
  kiln_vm* vm;
  CHECK(kiln_vm_create(&cfg, &vm));
  printf("kiln %s\n", kiln_version());
  kiln_module* m;
  CHECK(kiln_load_string(vm, "particles.py", source, &m));
  kiln_kernel *init, *step;
  CHECK(kiln_module_kernel(m, "init", &init));
  CHECK(kiln_module_kernel(m, "step", &step));

  /* Wrapped once (checked once), passed by handle each frame; no copy. */
  kiln_ndarray* positions;
  CHECK(kiln_ndarray_create(vm, &arr, &positions));
  kiln_value args[2] = {kiln_nd(positions), kiln_f32(0.01f)};
  CHECK(kiln_kernel_call(init, args, 1, NULL, 0, NULL));
  for (int frame = 1; frame <= 100; frame++) {
    kiln_value lowest;
    CHECK(kiln_kernel_call(step, args, 2, &lowest, 1, NULL));
    if (frame % 25 == 0) {
      double sum = 0;
      for (int i = 0; i < N; i++) sum += pos[i][1];  /* the host's own array */
      printf("frame %3d: particle 0 at (%.3f, %.3f), mean height %.3f, lowest %.3f\n", frame, pos[0][0], pos[0][1],
             sum / N, lowest.v.f);
    }
  }
  for (int i = 0; i < N; i++)
    if (!(pos[i][1] >= 0.0f) || isnan(pos[i][0])) {
      fprintf(stderr, "particle %d left the box\n", i);
      return 1;
    }

  /* Errors are values, not crashes: a wrong dtype is reported and the VM goes on. */
  kiln_value wrong[2] = {kiln_nd(positions), kiln_f64(0.01)};
  if (kiln_kernel_call(step, wrong, 2, NULL, 0, NULL) != KILN_ERROR_TYPE) return 1;
  printf("a wrong dtype is refused: %s", kiln_last_diagnostic()->message);
  printf("\n");

  kiln_ndarray_destroy(positions);
  kiln_kernel_destroy(step);
  kiln_kernel_destroy(init);
  kiln_module_destroy(m);
  kiln_vm_destroy(vm);
  return 0;
}
