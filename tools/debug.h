// `kiln debug` (tools/debug.cpp).
#pragma once
#include <string>
#include <vector>

#include "vm/host/host.h"

namespace kiln::tools {

// Runs the debugger on `path` (its text already read); returns the exit status.
int debug(const std::string& path, const std::string& text, std::vector<std::string> argv, HostOptions opts);

}  // namespace kiln::tools
