// The kernel step debugger behind `kiln debug FILE` (gdb-style commands).
//
// One debugger sees host code and kernel code as one program: breakpoints,
// stepping and `print` work the same in both. Host statements reach it
// through the evaluator's on_stmt hook; kernels run on the interpreter, which
// calls interp::DebugHook::at before each instruction (and fault before a
// user error) with the live register frame. The bytecode's variable table
// (bc::VarRange) and inline-frame table name what the registers hold, so
// `print`, `info locals` and `backtrace` read kernel locals, loop indices,
// arguments and inlined ti.func frames; anything else in an expression
// (fields, globals, arithmetic) is evaluated by the host evaluator.
//
//   session.cpp   the session: running the program, when to stop, stop reports
//   commands.cpp  the command language (break, next, print, ...)
//   inspect.cpp   reading a stopped place: variables, expressions, frames, source
#pragma once
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vm/host/host.h"

namespace kiln::debug {

struct DebugIO {
  // Reads one command line (without its newline); false at the end of input.
  std::function<bool(const std::string& prompt, std::string& line)> read;
  // Debugger messages and the program's own output, in order.
  std::function<void(std::string_view)> out;
  // The program's error output (warnings, uncaught errors).
  std::function<void(std::string_view)> err;
};

struct HostSide;  // session.h: what runs the host code (built-in evaluator or CPython)
std::unique_ptr<HostSide> builtin_host(HostOptions base);

// Runs a debugging session of the program `path` (text already read) with
// sys.argv = argv, its host code on `side`, reading commands until `quit` or
// the end of input. Returns 0.
int run_session(const std::string& path, const std::string& text, std::vector<std::string> argv,
                std::unique_ptr<HostSide> side, DebugIO io);

// `kiln dap`: a Debug Adapter Protocol server reading requests from `in` and
// writing responses and events to `out` (stdio), the program's host code on
// `side` (builtin_host, or CPython's from tools/). Returns the exit status.
int run_dap(std::istream& in, std::ostream& out, std::unique_ptr<HostSide> side);

// The commands, for `help`.
struct CommandHelp {
  const char* name;
  const char* args;
  const char* help;
};
const std::vector<CommandHelp>& command_help();

}  // namespace kiln::debug
