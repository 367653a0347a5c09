/* Loads one module through the C API, as an embedding application would:
 *   capi_load FILE
 * Exit 0 when it loads (its output on stdout), 1 with kiln_last_error() on
 * stderr when the VM reports an error; anything else (a signal) is a bug.
 * tests/sizes/bad_sizes.py runs every bad-size program through it. */
#include <stdio.h>

#include "kiln/kiln.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: capi_load FILE\n");
    return 2;
  }
  kiln_vm* vm = NULL;
  if (kiln_vm_create(NULL, &vm) != KILN_OK) {
    fprintf(stderr, "%s", kiln_last_error());
    return 1;
  }
  kiln_module* m = NULL;
  int rc = 0;
  if (kiln_load_file(vm, argv[1], &m) != KILN_OK) {
    fprintf(stderr, "%s", kiln_last_error());
    rc = 1;
  }
  kiln_module_destroy(m);
  kiln_vm_destroy(vm);
  return rc;
}
