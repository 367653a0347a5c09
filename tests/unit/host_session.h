// A host session for unit tests: runs Python-dialect snippets and captures
// what they print. Shared by the host_*.cpp tests.
#pragma once
#include <memory>
#include <string>

#include "vm/host/host.h"

namespace kiln::test {

struct HostSession {
  std::string out, err;
  std::unique_ptr<Host> host;
  std::string prelude;  // run in front of the first snippet only (e.g. ti.init)
  bool started = false;

  explicit HostSession(HostOptions o = {}, std::string first = {}) : prelude(std::move(first)) {
    if (o.argv.empty()) o.argv = {"t.py"};
    o.out = [this](std::string_view s) { out += s; };
    o.err = [this](std::string_view s) { err += s; };
    host = make_host(o);
  }
  // Runs `src` in the session; returns what this snippet printed.
  std::string operator()(const std::string& src) {
    out.clear();
    run_source(*host, "t.py", (started ? std::string() : prelude) + src);
    started = true;
    return out;
  }
};

// What `src` prints in a fresh session.
inline std::string run_snippet(const std::string& src, const std::string& prelude = {}) {
  return HostSession({}, prelude)(src);
}

// `src` must fail in a fresh session: "Kind: message".
inline std::string error_of(const std::string& src, const std::string& prelude = {}) {
  HostSession s({}, prelude);
  try {
    s(src);
  } catch (const Error& e) {
    return e.kind + ": " + e.message;
  }
  return "no error";
}

}  // namespace kiln::test
