// `kiln debug` on CPython: the debugger's host side over embedded CPython
// (python_debug.cpp). The session, its commands and the kernel side are
// vm/debug's, shared with the built-in host.
#pragma once
#include <memory>

#include "tools/python_host.h"

namespace kiln::debug {
struct HostSide;
}

namespace kiln::tools {

// The host side running r.file with sys.argv = r.argv (null when kiln was
// built without libpython).
std::unique_ptr<debug::HostSide> python_debug_host(const PythonRun& r);

}  // namespace kiln::tools
