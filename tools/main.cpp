// The `kiln` executable: run a program, disassemble its kernels, or start
// the interactive REPL (repl.cpp).
//
//   kiln run FILE [ARGS...] [--print-ir] [--debug] [--engine=NAME]
//   kiln dis [--trace | --spirv] FILE [KERNEL]
//   kiln repl [--print-ir] [--debug] [--engine=NAME] [--host=NAME]  (also: `kiln` on a terminal)
//   kiln debug [--debug] [--host=NAME] FILE [ARGS...]   (tools/debug.cpp, tools/python_debug.cpp, vm/debug)
//   kiln --version | --help
//
// Exit status: 0 on success, 1 on a user error (message on stderr), the code
// of sys.exit(n), 2 on bad command-line usage.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ext/stdio_filebuf.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "jit/jit.h"
#include "jit/llvm_module.h"
#include "tools/debug.h"
#include "tools/python_debug.h"
#include "tools/python_host.h"
#include "tools/python_repl.h"
#include "tools/repl.h"
#include "vm/debug/session.h"
#include "vm/host/host.h"

#ifndef KILN_VERSION
#define KILN_VERSION "0.1.0"
#endif

namespace {

const char* kUsage =
    "kiln " KILN_VERSION " - a VM for Taichi-dialect Python kernels\n"
    "\n"
    "usage:\n"
    "  kiln                      on a terminal: the interactive REPL (as `kiln repl`);\n"
    "                            with a program on stdin: runs it (as `kiln run -`)\n"
    "  kiln repl                 the interactive REPL: Python (CPython embedded in kiln)\n"
    "                            with taichi imported as ti; any statement, kernels and\n"
    "                            funcs defined at the prompt; >>> and ... prompts, blocks\n"
    "                            closed by a blank line, expression values echoed, line\n"
    "                            editing, history in ~/.kiln_history, TAB completion,\n"
    "                            Ctrl-C stops running code or a kernel; an error leaves\n"
    "                            the session as it was. :help lists its commands (:ir,\n"
    "                            :bc, :trace, :time, :fields, :load, :reset, :quit).\n"
    "                            Input that is not a terminal is read without prompts.\n"
    "                            Takes --print-ir, --debug, --engine=NAME, --stats and\n"
    "                            --host=NAME like run\n"
    "  kiln run FILE [ARGS...]   run a program; ARGS become sys.argv[1:]\n"
    "      --host=NAME           python (the default): on CPython embedded in kiln, as\n"
    "                            `python3 FILE ARGS` runs it (sys.path, the active venv,\n"
    "                            exit codes, tracebacks; Kiln's own errors in Kiln's\n"
    "                            format); builtin: on Kiln's own evaluator, the C API's\n"
    "                            module language (a Python subset without the stdlib).\n"
    "                            Also $KILN_HOST\n"
    "      --print-ir            print each kernel's IR to stderr as it compiles\n"
    "                            (same as ti.init(print_ir=True))\n"
    "      --debug               enable kernel asserts (same as ti.init(debug=True))\n"
    "      --engine=NAME         CPU engine: jit (the default: the tracing JIT), interp\n"
    "                            (the reference interpreter) or llvm (every task compiled\n"
    "                            by LLVM up front, where built); also $KILN_ENGINE or\n"
    "                            ti.init(engine=). $KILN_JIT=hotloop=N,... tunes the JIT\n"
    "                            (KILN_JIT=help lists its tunables)\n"
    "      --stats               print the runtime's statistics counters (tasks compiled,\n"
    "                            SNode activations, listgen elements, ...) to stderr at\n"
    "                            exit (as ti.print_statistics() does)\n"
    "  kiln dis FILE [KERNEL]    run FILE, then print the IR and the bytecode (with\n"
    "                            source lines) of every kernel it compiled, or of KERNEL;\n"
    "                            takes --host=NAME like run\n"
    "      --trace               run on the JIT with every loop hot at once and also\n"
    "                            print each trace: IR, snapshots and machine code\n"
    "      --spirv               run on the Vulkan backend and print each task's\n"
    "                            disassembled SPIR-V instead of the bytecode\n"
    "      --ptx=DIR             also compile every task to PTX for the CUDA backend\n"
    "                            (sm_$KILN_CUDA_SM, default 80; needs no GPU) and write\n"
    "                            DIR/KERNEL.TASK.ptx, or DIR/KERNEL.TASK.host saying why\n"
    "                            that task runs on the host\n"
    "  kiln debug FILE [ARGS...] step-debug a program, gdb style: break [FILE:]LINE [if\n"
    "                            COND], tbreak, delete, run, continue, next, step (into\n"
    "                            ti.func bodies), finish, print EXPR, info locals,\n"
    "                            backtrace, watch EXPR (e.g. x[3]), focus COND (stop\n"
    "                            only in matching kernel iterations, e.g. focus i == 5),\n"
    "                            list, quit. Breakpoints work in host and kernel code;\n"
    "                            kernels run on the interpreter, parallel loops serially\n"
    "                            in index order; a failed assert or bounds check under\n"
    "                            --debug stops at the faulting line with the state intact.\n"
    "                            The program runs on CPython as under run (its imports,\n"
    "                            numpy, ARGS); lines of the taichi package, the stdlib and\n"
    "                            installed packages are stepped over; print evaluates\n"
    "                            Python in the stopped frame (in a kernel: the kernel's\n"
    "                            variables over the frame that launched it). --host=builtin\n"
    "                            debugs on Kiln's own evaluator (the C API's language)\n"
    "  kiln dap [--host=H]       a Debug Adapter Protocol server on stdio (for VS Code and\n"
    "                            other DAP clients; see tools/vscode): launch,\n"
    "                            breakpoints with conditions, stepping, stack, scopes\n"
    "                            (Locals, Loop indices, Args, Fields), evaluate, pause;\n"
    "                            the program's host code on CPython, or --host=builtin\n"
    "  kiln --version            print the version\n"
    "  kiln --help               print this help\n"
    "\n"
    "A program is a Python file in the Taichi dialect: `import taichi as ti` (or\n"
    "`import kiln as ti`), @ti.kernel, @ti.func, ti.field, ... Kernel and host print\n"
    "go to stdout in program order; errors go to stderr with their kind, file:line:col\n"
    "and the source line with a caret, and make kiln exit with status 1.\n";

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

struct RunArgs {
  bool stats = false;  // --stats: the statistics counters to stderr at exit
  bool builtin = false;  // --host=builtin: Kiln's own evaluator instead of CPython
  std::string file;
  std::vector<std::string> argv;
  kiln::HostOptions opts;
};

// Which host runs programs: --host=NAME, else $KILN_HOST, else CPython (the
// built-in evaluator where kiln was built without libpython). Returns false
// (after a message) for an unknown or absent host.
bool choose_host(RunArgs& ra, const char* flag) {
  std::string name = flag ? flag : "";
  if (name.empty())
    if (const char* e = std::getenv("KILN_HOST")) name = e;
  if (name.empty()) name = kiln::tools::have_python_host() ? "python" : "builtin";
  if (name == "builtin") {
    ra.builtin = true;
  } else if (name == "python") {
    ra.builtin = false;
    if (!kiln::tools::have_python_host()) {
      std::fputs("kiln: this kiln was built without libpython (apt install python3-dev): use --host=builtin\n", stderr);
      return false;
    }
  } else {
    std::fprintf(stderr, "kiln: unknown host '%s' (python or builtin)\n", name.c_str());
    return false;
  }
  return true;
}

// Runs a program on CPython (tools/python_host.cpp); returns the exit status.
int run_on_python(RunArgs& ra, std::vector<kiln::KernelDump>* dumps = nullptr, bool output_to_stderr = false) {
  if (ra.file != "-" && access(ra.file.c_str(), R_OK) != 0) {
    std::fprintf(stderr, "kiln: cannot open '%s': %s\n", ra.file.c_str(), std::strerror(errno));
    return 2;
  }
  kiln::tools::PythonRun r;
  r.file = ra.file;
  r.argv = ra.argv;
  r.opts.force_debug = ra.opts.force_debug;
  r.opts.force_print_ir = ra.opts.force_print_ir;
  r.opts.engine = ra.opts.engine;
  r.stats = ra.stats;
  r.output_to_stderr = output_to_stderr;
  return kiln::tools::run_python(r, dumps);
}

// Runs a program; returns the process exit status.
int run_program(RunArgs& ra, kiln::Host** keep = nullptr, std::unique_ptr<kiln::Host>* owner = nullptr) {
  if (!ra.builtin) return run_on_python(ra);
  std::string text;
  if (ra.file == "-") {
    std::stringstream ss;
    ss << std::cin.rdbuf();
    text = ss.str();
  } else if (!read_file(ra.file, text)) {
    std::fprintf(stderr, "kiln: cannot open '%s': %s\n", ra.file.c_str(), std::strerror(errno));
    return 2;
  }
  ra.opts.argv = ra.argv;
  auto host = kiln::make_host(ra.opts);
  int status = 0;
  try {
    kiln::run_source(*host, ra.file == "-" ? "<stdin>" : ra.file, std::move(text));
  } catch (const kiln::SystemExit& e) {
    status = e.code;
  } catch (const kiln::Error& e) {
    std::fflush(stdout);
    std::fputs(kiln::format_error(e).c_str(), stderr);
    status = 1;
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    std::fputs("MemoryError: out of memory\n", stderr);
    status = 1;
  } catch (const std::exception& e) {
    // A bug in Kiln, not in the program: say so rather than crash.
    std::fflush(stdout);
    std::fprintf(stderr, "InternalError: %s\n  (this is a bug in Kiln; please report it)\n", e.what());
    status = 1;
  }
  std::fflush(stdout);
  if (ra.stats) std::fputs(kiln::statistics_text(*host).c_str(), stderr);
  if (owner) *owner = std::move(host);
  return status;
}

int cmd_run(int argc, char** argv) {
  RunArgs ra;
  const char* host = nullptr;
  bool flags_done = false;
  for (int i = 0; i < argc; i++) {
    std::string a = argv[i];
    if (!flags_done && ra.file.empty() && a.rfind("--", 0) == 0) {
      if (a == "--print-ir") ra.opts.force_print_ir = true;
      else if (a == "--debug") ra.opts.force_debug = true;
      else if (a == "--stats") ra.stats = true;
      else if (a.rfind("--engine=", 0) == 0) ra.opts.engine = a.substr(9);
      else if (a.rfind("--host=", 0) == 0) host = argv[i] + 7;
      else if (a == "--") flags_done = true;
      else {
        std::fprintf(stderr, "kiln run: unknown option '%s' (see kiln --help)\n", a.c_str());
        return 2;
      }
      continue;
    }
    if (ra.file.empty()) {
      ra.file = a;
      ra.argv.push_back(a);
    } else if (a == "--print-ir" && ra.argv.size() == 1) {
      ra.opts.force_print_ir = true;  // `kiln run FILE --print-ir` reads naturally too
    } else if (a == "--debug" && ra.argv.size() == 1) {
      ra.opts.force_debug = true;
    } else {
      ra.argv.push_back(a);
    }
  }
  if (ra.file.empty()) {
    std::fputs("kiln run: missing FILE (see kiln --help)\n", stderr);
    return 2;
  }
  if (ra.opts.engine.empty())
    if (const char* e = std::getenv("KILN_ENGINE")) ra.opts.engine = e;
  if (!choose_host(ra, host)) return 2;
  return run_program(ra);
}

int cmd_debug(int argc, char** argv) {
  RunArgs ra;
  const char* host = nullptr;
  for (int i = 0; i < argc; i++) {
    std::string a = argv[i];
    if (ra.file.empty() && a == "--debug") ra.opts.force_debug = true;
    else if (ra.file.empty() && a.rfind("--host=", 0) == 0) host = argv[i] + 7;
    else if (ra.file.empty() && a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "kiln debug: unknown option '%s' (see kiln --help)\n", a.c_str());
      return 2;
    } else {
      if (ra.file.empty()) ra.file = a;
      ra.argv.push_back(a);
    }
  }
  if (ra.file.empty()) {
    std::fputs("kiln debug: missing FILE (see kiln --help)\n", stderr);
    return 2;
  }
  std::string text;
  if (!read_file(ra.file, text)) {
    std::fprintf(stderr, "kiln debug: cannot open '%s': %s\n", ra.file.c_str(), std::strerror(errno));
    return 2;
  }
  if (!choose_host(ra, host)) return 2;
  std::unique_ptr<kiln::debug::HostSide> side;
  if (ra.builtin) {
    side = kiln::debug::builtin_host(std::move(ra.opts));
  } else {
    kiln::tools::PythonRun r;
    r.file = ra.file;
    r.argv = ra.argv;
    r.opts.force_debug = ra.opts.force_debug;
    side = kiln::tools::python_debug_host(r);
  }
  return kiln::tools::debug(ra.file, text, std::move(ra.argv), std::move(side));
}

// `kiln dap [--host=...]`: the program's host code on CPython by default, as
// for `kiln debug`. The protocol owns stdin and stdout. On CPython, whose
// program (and anything it loads) may use fds 0 and 1, and whose start-up
// takes C stdin's lock (which the request reader would hold while it waits),
// the protocol moves to copies of both, fd 0 reads /dev/null and fd 1 writes
// to stderr; the program's sys.stdout/stderr become output events.
int cmd_dap(int argc, char** argv) {
  RunArgs ra;
  const char* host = nullptr;
  for (int i = 0; i < argc; i++) {
    if (std::strncmp(argv[i], "--host=", 7) == 0) {
      host = argv[i] + 7;
      continue;
    }
    std::fputs("kiln dap: takes no arguments but --host=python|builtin (the client's launch request names the program)\n", stderr);
    return 2;
  }
  if (!choose_host(ra, host)) return 2;
  if (ra.builtin) return kiln::debug::run_dap(std::cin, std::cout, kiln::debug::builtin_host(kiln::HostOptions{}));
  int proto_in = dup(0), proto_out = dup(1), null = open("/dev/null", O_RDONLY);
  if (proto_in < 0 || proto_out < 0 || null < 0 || dup2(null, 0) < 0 || dup2(2, 1) < 0) {
    std::fprintf(stderr, "kiln dap: cannot set up stdin and stdout: %s\n", std::strerror(errno));
    return 2;
  }
  close(null);
  // Leaked on purpose: the detached request reader may still use them at exit.
  auto* in_buf = new __gnu_cxx::stdio_filebuf<char>(proto_in, std::ios::in);
  auto* in = new std::istream(in_buf);
  __gnu_cxx::stdio_filebuf<char> out_buf(proto_out, std::ios::out);
  std::ostream out(&out_buf);
  kiln::tools::PythonRun r;  // its file and argv come with the launch request
  return kiln::debug::run_dap(*in, out, kiln::tools::python_debug_host(r));
}

int cmd_repl(int argc, char** argv) {
  RunArgs ra;
  const char* host = nullptr;
  for (int i = 0; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--print-ir") ra.opts.force_print_ir = true;
    else if (a == "--debug") ra.opts.force_debug = true;
    else if (a == "--stats") ra.stats = true;
    else if (a.rfind("--engine=", 0) == 0) ra.opts.engine = a.substr(9);
    else if (a.rfind("--host=", 0) == 0) host = argv[i] + 7;
    else {
      std::fprintf(stderr, "kiln repl: unknown argument '%s' (see kiln --help)\n", a.c_str());
      return 2;
    }
  }
  if (ra.opts.engine.empty())
    if (const char* e = std::getenv("KILN_ENGINE")) ra.opts.engine = e;
  if (!choose_host(ra, host)) return 2;
  ra.argv = {""};  // sys.argv of Python's interactive mode
  if (ra.builtin) {
    ra.opts.argv = ra.argv;
    return kiln::repl::run(std::move(ra.opts));
  }
  kiln::tools::PythonRun r;
  r.argv = ra.argv;
  r.opts.force_debug = ra.opts.force_debug;
  r.opts.force_print_ir = ra.opts.force_print_ir;
  r.opts.engine = ra.opts.engine;
  r.stats = ra.stats;
  return kiln::tools::run_python_repl(r);
}

int cmd_dis(int argc, char** argv) {
  // --trace: the JIT records every loop on its first back edge (unless
  // $KILN_JIT says otherwise) and keeps its traces for the listing.
  bool trace = false, spirv = false;
  const char* host_name = nullptr;
  const char* ptx_dir = nullptr;
  std::vector<char*> rest;
  for (int i = 0; i < argc; i++) {
    if (std::strcmp(argv[i], "--trace") == 0) trace = true;
    else if (std::strcmp(argv[i], "--spirv") == 0) spirv = true;
    else if (std::strncmp(argv[i], "--ptx=", 6) == 0) ptx_dir = argv[i] + 6;
    else if (std::strncmp(argv[i], "--host=", 7) == 0) host_name = argv[i] + 7;
    else rest.push_back(argv[i]);
  }
  // --spirv: the program runs on the Vulkan backend, and each kernel's
  // listing is the disassembled SPIR-V of its tasks.
  if (spirv) setenv("KILN_ARCH", "vulkan", 1);
  if (ptx_dir) {
#ifdef KILN_HAVE_CUDA
    if (!*ptx_dir || mkdir(ptx_dir, 0777) != 0) {
      struct stat st {};
      if (!*ptx_dir || stat(ptx_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        std::fprintf(stderr, "kiln dis: --ptx=%s: not a directory that can be created\n", ptx_dir);
        return 2;
      }
    }
    kiln::set_ptx_dump_dir(ptx_dir);
#else
    std::fputs("kiln dis: --ptx: this Kiln was built without the CUDA backend (it needs LLVM 19)\n", stderr);
    return 2;
#endif
  }
  argc = (int)rest.size();
  argv = rest.data();
  if (argc < 1 || argc > 2) {
    std::fputs("usage: kiln dis [--trace | --spirv | --ptx=DIR] [--host=python|builtin] FILE [KERNEL]\n", stderr);
    return 2;
  }
  RunArgs ra;
  ra.file = argv[0];
  ra.argv.push_back(ra.file);
  if (!choose_host(ra, host_name)) return 2;
  std::string only = argc == 2 ? argv[1] : "";
  std::unique_ptr<kiln::Host> host;
  // The program's own output goes to stderr so that stdout is the listing.
  ra.opts.out = [](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stderr); };
  if (trace) {
    ra.opts.engine = "jit";
    setenv("KILN_JIT", "hotloop=1", 0);
    kiln::jit::keep_traces(true);
  }
  std::vector<kiln::KernelDump> py_dumps;
  int status = ra.builtin ? run_program(ra, nullptr, &host) : run_on_python(ra, &py_dumps, true);
  if (ra.builtin && !host) return status;
  bool found = false;
  for (const auto& k : ra.builtin ? kiln::compiled_kernels(*host) : py_dumps) {
    if (!only.empty() && k.name != only) continue;
    found = true;
    std::printf("=== kernel %s: IR ===\n%s\n=== kernel %s: %s ===\n%s\n", k.name.c_str(), k.ir.c_str(),
                k.name.c_str(), spirv ? "SPIR-V" : "bytecode", k.bytecode.c_str());
  }
  if (trace && found) std::printf("=== traces ===\n%s", kiln::jit::trace_report().c_str());
  if (!found) {
    if (!only.empty())
      std::fprintf(stderr, "kiln dis: no kernel named '%s' was compiled while running %s\n", only.c_str(), ra.file.c_str());
    else
      std::fprintf(stderr, "kiln dis: %s compiled no kernels (kernels compile when first called)\n", ra.file.c_str());
    return status ? status : 1;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    // No arguments: a program on a pipe runs like `kiln run -` (as
    // `python3 < prog.py` does); a terminal gets the REPL.
    if (!isatty(0)) {
      RunArgs ra;
      ra.file = "-";
      ra.argv.push_back("-");
      if (const char* e = std::getenv("KILN_ENGINE")) ra.opts.engine = e;
      if (!choose_host(ra, nullptr)) return 2;
      return run_program(ra);
    }
    return cmd_repl(0, nullptr);
  }
  std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (cmd == "--version" || cmd == "-V") {
    std::printf("kiln %s\n", KILN_VERSION);
    return 0;
  }
  if (cmd == "run") return cmd_run(argc - 2, argv + 2);
  if (cmd == "dis") return cmd_dis(argc - 2, argv + 2);
  if (cmd == "repl") return cmd_repl(argc - 2, argv + 2);
  if (cmd == "debug") return cmd_debug(argc - 2, argv + 2);
  if (cmd == "dap") return cmd_dap(argc - 2, argv + 2);
  std::fprintf(stderr, "kiln: unknown command '%s' (see kiln --help)\n", cmd.c_str());
  return 2;
}
