// The host evaluator's public face: what the CLI (tools/main.cpp), the REPL
// and the embedding API call to run Python-dialect source.
//
//   auto host = kiln::make_host({.argv = {"prog.py", "arg1"}});
//   try {
//     kiln::run_source(*host, "prog.py", text);
//   } catch (const kiln::SystemExit& e) {
//     return e.code;                       // sys.exit(n); a message was already printed
//   } catch (const kiln::Error& e) {
//     fputs(kiln::format_error(e).c_str(), stderr);   // uncaught exception, traceback filled
//     return 1;
//   }
//
// Host `print` and kernel `print` go to HostOptions::out in program order
// (by default fwrite to stdout); warnings and sys.stderr go to `err` (by
// default stderr, after flushing stdout).
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vm/support/alloc_hooks.h"
#include "vm/support/diag.h"
#include "vm/ti/kernels.h"

namespace kiln {

namespace host {
class Evaluator;
}
namespace interp {
struct DebugHook;
}

struct HostOptions {
  std::vector<std::string> argv;  // sys.argv (argv[0] = the script path)
  bool force_debug = false;       // as if every ti.init passed debug=True
  bool force_print_ir = false;    // as if every ti.init passed print_ir=True
  std::string engine;             // "" = the default ("jit"), else the engine name
  int threads = 0;                // worker threads when ti.init does not say (0 = one per core)
  interp::DebugHook* debugger = nullptr;  // `kiln debug`: kernels run on the interpreter and stop in it
  // Output sinks; empty means stdout / stderr.
  std::function<void(std::string_view)> out;
  std::function<void(std::string_view)> err;
  AllocHooks alloc_hooks;  // field memory from the embedding host (the C API's config)
  // Keep every compiled kernel's IR and bytecode text (compiled_kernels():
  // `kiln dis`, the REPL's :ir/:bc). The C API does not: an application that
  // recompiles kernels for hours would keep every listing.
  bool keep_kernel_dumps = true;
};

// One VM session: the __main__ module's globals persist across run_source calls.
struct Host {
  HostOptions options;
  std::unique_ptr<host::Evaluator> ev;
  // Interactive runs: the kernel, func, field and class objects that globals
  // named after the last run, to notice redefinitions (see run_interactive).
  std::map<std::string, std::shared_ptr<void>> definitions;
  Host();
  ~Host();
};

std::unique_ptr<Host> make_host(HostOptions options);
// The current Program's statistics counters (seed 001), as ti.print_statistics() prints them.
std::string statistics_text(Host& h);

// sys.exit()/SystemExit reached the top level. `code` is the process exit
// status (0 for sys.exit() / sys.exit(None), the int given, or 1 when the
// argument was not an int, in which case its str() was already written to err).
struct SystemExit : std::exception {
  int code = 0;
  explicit SystemExit(int c) : code(c) {}
  const char* what() const noexcept override { return "SystemExit"; }
};

// Parses and runs `text` as module `path` in the host's __main__ globals.
// Throws kiln::Error for syntax errors and uncaught exceptions (kind = the
// exception class name, loc = the failing expression, traceback = host frames,
// outermost first), kiln::SystemExit for sys.exit.
void run_source(Host& h, const std::string& path, std::string text);

// As run_source, for the REPL: after each top-level expression statement
// whose value is not None, writes repr(value) + "\n" to out (as Python's
// interactive mode does). Afterwards (also when it throws) applies
// note_redefinitions.
void run_interactive(Host& h, const std::string& name, std::string text);

// If a global that named a kernel, ti.func, field or class (any Kiln object or
// class) now names something else, drops every compiled kernel, so that the
// next call of each recompiles against the new definitions. (Globals are
// compile-time constants captured at a kernel's first compilation; in a
// session the user expects a redefinition to take effect.) Plain values
// (`N = 20`) keep Taichi's capture-at-first-compile rule.
void note_redefinitions(Host& h);

// Asks running code to stop: kernels at their next loop back-edge, host
// for/while loops at their next iteration, with KeyboardInterrupt.
// Async-signal-safe (atomic stores only): meant for a SIGINT handler.
void request_interrupt(Host& h) noexcept;
// Forgets a pending request (call before running the next input).
void clear_interrupt(Host& h);

const std::vector<KernelDump>& compiled_kernels(const Host& h);

}  // namespace kiln
