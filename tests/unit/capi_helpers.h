// Shared by the C API's unit tests: a VM whose output and diagnostics are
// captured, and a look into kiln_last_error.
#pragma once
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kiln/kiln.h"

namespace capi_test {

struct Captured {
  std::string out, err;
  std::vector<kiln_diagnostic> diags;
  std::vector<std::string> kinds, messages, files;
};

void on_out(void* u, const char* s, size_t n) { static_cast<Captured*>(u)->out.append(s, n); }
void on_err(void* u, const char* s, size_t n) { static_cast<Captured*>(u)->err.append(s, n); }
void on_diag(void* u, const kiln_diagnostic* d) {
  auto* c = static_cast<Captured*>(u);
  c->diags.push_back(*d);
  c->kinds.push_back(d->kind);
  c->messages.push_back(d->message);
  c->files.push_back(d->file);
}

// A VM whose output and diagnostics land in `cap`.
struct VM {
  Captured cap;
  kiln_vm* vm = nullptr;
  explicit VM(int debug = 0, const char* engine = nullptr) {
    kiln_config cfg;
    kiln_config_init(&cfg);
    cfg.output = on_out;
    cfg.error_output = on_err;
    cfg.diagnostic = on_diag;
    cfg.user_data = &cap;
    cfg.debug = debug;
    cfg.engine = engine;
    REQUIRE(kiln_vm_create(&cfg, &vm) == KILN_OK);
  }
  ~VM() { kiln_vm_destroy(vm); }
  kiln_module* load(const char* src) {
    kiln_module* m = nullptr;
    kiln_status s = kiln_load_string(vm, "sim.py", src, &m);
    INFO(kiln_last_error());
    REQUIRE(s == KILN_OK);
    return m;
  }
};

bool error_has(const char* needle) { return std::strstr(kiln_last_error(), needle) != nullptr; }

}  // namespace capi_test
