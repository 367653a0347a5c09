// `kiln debug` (tools/debug.cpp).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "vm/debug/debugger.h"

namespace kiln::tools {

// Runs the debugger on `path` (its text already read), its host code on
// `side` (debug::builtin_host or python_debug_host); returns the exit status.
int debug(const std::string& path, const std::string& text, std::vector<std::string> argv,
          std::unique_ptr<debug::HostSide> side);

}  // namespace kiln::tools
