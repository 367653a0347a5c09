/* An application that reloads its kernel module through the C API, again and
 * again, in one VM (issue 15): the module's top level makes reference cycles
 * (an instance that is its own attribute and holds a 64 KB list, a list that
 * holds itself), and every reload replaces them and the kernel. The cycle
 * collector frees the old generations and a replaced kernel takes its
 * compiled code with it, so the peak RSS grows by less than 16 KB a load
 * (64 KB and more without them). What still stays per load is the module's
 * source text and syntax tree (a few KB), which messages and lazy kernel
 * compilation refer to.
 *   capi_reload [LOADS [FILE]]   exit 0 when the growth from the first tenth
 * of the loads to the end is under 16 KB a load. FILE replaces the module
 * below (it must define a kernel `step(a: ti.f32) -> ti.f32` returning 2a). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "kiln/kiln.h"

static const char* source =  /* the default module */
    "import taichi as ti\n"
    "class Params:\n"
    "    def __init__(self):\n"
    "        self.me = self\n"
    "        self.scale = 2.0\n"
    "        self.big = [0.0] * 2000\n"
    "P = Params()\n"
    "table = [1, 2, 3]\n"
    "table.append(table)\n"
    "def helper(x):\n"
    "    return x * P.scale\n"
    "@ti.kernel\n"
    "def step(a: ti.f32) -> ti.f32:\n"
    "    return a * 2.0\n";

static long peak_kb(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3000;
  if (n < 20) n = 20;
  static char text[1 << 16];
  if (argc > 2) {
    FILE* f = fopen(argv[2], "r");
    size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (!f || len == 0) {
      fprintf(stderr, "cannot read %s\n", argv[2]);
      return 2;
    }
    fclose(f);
    text[len] = 0;
    source = text;
  }
  kiln_vm* vm;
  if (kiln_vm_create(NULL, &vm) != KILN_OK) {
    fprintf(stderr, "%s", kiln_last_error());
    return 1;
  }
  long early = 0;
  for (int i = 0; i < n; i++) {
    kiln_module* m;
    kiln_kernel* k;
    kiln_value arg = kiln_f32(1.5f), ret;
    if (kiln_load_string(vm, "reloaded.py", source, &m) != KILN_OK || kiln_module_kernel(m, "step", &k) != KILN_OK ||
        kiln_kernel_call(k, &arg, 1, &ret, 1, NULL) != KILN_OK) {
      fprintf(stderr, "%s", kiln_last_error());
      return 1;
    }
    if (ret.v.f != 3.0) {
      fprintf(stderr, "step(1.5) gave %g\n", ret.v.f);
      return 1;
    }
    kiln_kernel_destroy(k);
    kiln_module_destroy(m);
    if (i == n / 10) early = peak_kb();
  }
  kiln_vm_destroy(vm);
  long late = peak_kb();
  long per_load = (late - early) / (n - n / 10 - 1);
  printf("%d loads: peak RSS %ld KB after %d, %ld KB at the end (%ld KB a load)\n", n, early, n / 10 + 1, late, per_load);
  if (per_load >= 16) {
    fprintf(stderr, "memory grew by %ld KB a load over the reloads\n", per_load);
    return 1;
  }
  return 0;
}
