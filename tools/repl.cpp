// The REPL's session loop on the built-in evaluator (`kiln repl
// --host=builtin`), its `:` commands and Ctrl-C. The terminal (libedit,
// history, Ctrl-C at the prompt) is repl_terminal.cpp's.
//
// While code runs, Ctrl-C asks the host to stop (request_interrupt): kernels
// notice at their next loop back-edge, host loops at their next iteration,
// and the input fails with KeyboardInterrupt.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "tools/repl.h"
#include "tools/repl_session.h"
#include "vm/host/evaluator.h"
#include "vm/host/ti_state.h"

#ifndef KILN_VERSION
#define KILN_VERSION "0.1.0"
#endif

namespace kiln::repl {

namespace {

// ---- Ctrl-C while code runs (at the prompt it is repl_terminal.cpp's) ----------
std::atomic<Host*> g_host{nullptr};  // the session's host (null while it is replaced)
std::atomic<int> g_sigints{0};       // Ctrl-Cs since the last input started

void on_sigint(int) {
  int saved = errno;
  int n = g_sigints.fetch_add(1) + 1;
  if (Host* h = g_host.load()) request_interrupt(*h);
  // Code that never reaches a loop back-edge (a long compile, a blocking
  // call) cannot be interrupted; a third Ctrl-C leaves rather than hang.
  if (n >= 3) {
    static const char msg[] = "\nkiln: interrupted three times; leaving\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(130);
  }
  errno = saved;
}

void install_sigint() {
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  sigaction(SIGINT, &sa, nullptr);
}

// ---- one session -----------------------------------------------------------------

// Kernel names of one session's globals, for :ir / :bc.
NameKind kind_of_value(host::Evaluator& ev, const std::string& name) {
  auto& vars = ev.main_env->vars;
  auto v = vars.find(name);
  if (v == vars.end()) return NameKind::other;
  std::string type = ev.type_name(v->second);
  return type == "Kernel" ? NameKind::kernel : type == "Func" ? NameKind::func : NameKind::other;
}

class BuiltinSession : public Session {
 public:
  explicit BuiltinSession(HostOptions o) : options_(std::move(o)) { fresh(); }
  ~BuiltinSession() override { g_host.store(nullptr); }

  bool push(const std::string& line) override {
    if (chunk_.add(line)) run_text(chunk_.take());
    return chunk_.pending();
  }
  void finish() override {
    if (chunk_.pending()) run_text(chunk_.take());
  }
  void drop() override { chunk_.clear(); }

  bool run_statement(const std::string& stmt) override {
    bool ok = false;
    execute([&] {
      run_interactive(*host_, "<stdin>", stmt + "\n");
      ok = true;
    });
    return ok;
  }
  void load(const std::string& path) override;
  void reset() override { fresh(); }
  const std::vector<KernelDump>& dumps() override { return compiled_kernels(*host_); }
  NameKind kind_of(const std::string& name) override { return kind_of_value(*host_->ev, name); }
  Program* program() override { return &host::ti_program(*host_->ev); }  // (made if need be, as a kernel call would)
  bool compound_dims(const std::string& name, int64_t& n, int64_t& m) override;
  std::vector<std::string> complete(std::string_view before, std::string_view word) override {
    return repl::complete(*host_, before, word);
  }

 private:
  HostOptions options_;
  std::unique_ptr<Host> host_;
  Chunker chunk_;

  void fresh() {
    g_host.store(nullptr);  // the handler must never see a host being destroyed
    host_.reset();
    host_ = make_host(options_);
    g_host.store(host_.get());
  }

  // Runs `body` as one input: errors print (with their caret) and the session
  // goes on; sys.exit ends it.
  template <class F> void execute(F&& body) {
    clear_interrupt(*host_);
    g_sigints.store(0);
    try {
      body();
    } catch (const SystemExit& e) {
      exit_code = e.code;
    } catch (const Error& e) {
      std::fflush(stdout);
      std::fputs(format_error(e).c_str(), stderr);
    } catch (const std::bad_alloc&) {
      std::fflush(stdout);
      std::fputs("MemoryError: out of memory\n", stderr);
    } catch (const std::exception& e) {
      std::fflush(stdout);
      std::fprintf(stderr, "InternalError: %s\n  (this is a bug in Kiln; please report it)\n", e.what());
    }
    clear_interrupt(*host_);  // a Ctrl-C that came too late must not hit the next input
    std::fflush(stdout);
    std::fflush(stderr);
  }

  void run_text(std::string text) {
    execute([&] { run_interactive(*host_, "<stdin>", std::move(text)); });
  }
};

bool BuiltinSession::compound_dims(const std::string& name, int64_t& n, int64_t& m) {
  host::Evaluator& ev = *host_->ev;
  auto it = ev.main_env->vars.find(name);
  if (it == ev.main_env->vars.end() || it->second.kind != host::Kind::Host) return false;
  host::Value nv, mv;
  try {
    if (!ev.try_get_attr(it->second, "n", {}, nv) || !nv.is_int_like()) return false;
    if (!ev.try_get_attr(it->second, "m", {}, mv) || !mv.is_int_like()) mv = host::Value::integer(1);
  } catch (const Error&) {
    return false;
  }
  n = nv.as_int();
  m = mv.as_int();
  return true;
}

void BuiltinSession::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot open '%s': %s\n", path.c_str(), std::strerror(errno));
    return;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  execute([&] {
    struct Note {
      Host& h;
      ~Note() { note_redefinitions(h); }
    } note{*host_};
    run_source(*host_, path, ss.str());
  });
}

}  // namespace

int run(HostOptions options) {
  BuiltinSession s(std::move(options));
  if (isatty(0)) install_sigint();
  return run_loop(s, "kiln " KILN_VERSION " (Taichi-dialect Python, the built-in host). :help lists commands; Ctrl-D "
                     "leaves.\n");
}

}  // namespace kiln::repl
