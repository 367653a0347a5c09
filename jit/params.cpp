// KILN_JIT parsing: the table in params.h is the only list of names.
#include "jit/params.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace kiln::jit {

std::string parse_params(const std::string& text, Params& p) {
  std::stringstream ss(text);
  std::string item, problem;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    size_t eq = item.find('=');
    std::string name = item.substr(0, eq);
    std::string val = eq == std::string::npos ? "1" : item.substr(eq + 1);
    char* endp = nullptr;
    long long v = std::strtoll(val.c_str(), &endp, 0);
    if (!endp || *endp || val.empty()) {
      if (problem.empty()) problem = "KILN_JIT: '" + item + "' needs an integer value";
      continue;
    }
    bool known = false;
#define KILN_JIT_SET(n, def, doc) \
  if (name == #n) { p.n = v; known = true; }
    KILN_JIT_PARAMS(KILN_JIT_SET)
#undef KILN_JIT_SET
    if (!known && problem.empty()) problem = "KILN_JIT: unknown tunable '" + name + "'";
  }
  return problem;
}

Params params_from_env() {
  Params p;
  if (const char* e = std::getenv("KILN_JIT"); e && *e) {
    if (std::string(e) == "help") {
      std::fputs("KILN_JIT=name=value,... tunes the tracing JIT (defaults shown):\n", stderr);
#define KILN_JIT_HELP(n, def, doc) std::fprintf(stderr, "  %-9s %5d  %s\n", #n, (int)(def), doc);
      KILN_JIT_PARAMS(KILN_JIT_HELP)
#undef KILN_JIT_HELP
      return p;
    }
    std::string problem = parse_params(e, p);
    if (!problem.empty()) std::fprintf(stderr, "warning: %s\n", problem.c_str());
  }
  if (p.hotloop < 1) p.hotloop = 1;
  return p;
}

}  // namespace kiln::jit
