// The REPL's session loop, its `:` commands, Ctrl-C, and the libedit glue.
//
// Line editing uses libedit's callback interface with our own select() loop
// rather than readline(): a blocking readline() swallows the first Ctrl-C
// (libedit retries the interrupted read) and, with libedit's own signal
// handlers, re-sends SIGINT to the whole process group. In the loop a SIGINT
// just wakes select() through a self-pipe, and the prompt is redrawn empty.
// While code runs, the handler asks the host to stop (request_interrupt):
// kernels notice at their next loop back-edge, host loops at their next
// iteration, and the input fails with KeyboardInterrupt.
#include <editline/readline.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/select.h>
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

#include "jit/jit.h"
#include "tools/repl.h"
#include "vm/host/evaluator.h"
#include "vm/host/ti_state.h"

#ifndef KILN_VERSION
#define KILN_VERSION "0.1.0"
#endif

namespace kiln::repl {

const std::vector<Command>& commands() {
  static const std::vector<Command> c = {
      {":help", "", "this list"},
      {":ir", "NAME", "the IR of kernel NAME as last compiled (after the pass pipeline)"},
      {":bc", "NAME", "the bytecode of kernel NAME as last compiled, with source lines"},
      {":trace", "NAME", "the JIT's traces of kernel NAME: IR, snapshots, machine code, aborts (--engine=jit)"},
      {":time", "STMT", "run STMT and print the wall time it took"},
      {":fields", "", "every field: name, shape, dtype, SNode path, bytes"},
      {":load", "FILE", "run FILE in this session (its globals stay)"},
      {":reset", "", "start a fresh session (forget every variable, field and kernel)"},
      {":quit", "", "leave (Ctrl-D does too)"},
  };
  return c;
}

namespace {

// ---- what the SIGINT handler may touch: atomics and a pipe -----------------
std::atomic<Host*> g_host{nullptr};   // the session's host (null while it is replaced)
std::atomic<bool> g_running{false};   // user code is running (else: at the prompt)
std::atomic<int> g_sigints{0};        // Ctrl-Cs since the last input started
std::atomic<bool> g_resized{false};   // SIGWINCH: libedit must learn the new width
int g_wake[2] = {-1, -1};             // self-pipe: wakes select() at the prompt

void on_sigint(int) {
  int saved = errno;
  int n = g_sigints.fetch_add(1) + 1;
  if (g_running.load()) {
    if (Host* h = g_host.load()) request_interrupt(*h);
    // Code that never reaches a loop back-edge (a long compile, a blocking
    // call) cannot be interrupted; a third Ctrl-C leaves rather than hang.
    if (n >= 3) {
      static const char msg[] = "\nkiln: interrupted three times; leaving\n";
      (void)!write(2, msg, sizeof msg - 1);
      _exit(130);
    }
  }
  if (g_wake[1] >= 0) (void)!write(g_wake[1], "", 1);
  errno = saved;
}

// libedit's own handlers are off (rl_catch_signals = 0), so a resize is ours
// to pass on; it is applied in the prompt loop, outside the handler.
void on_sigwinch(int) {
  int saved = errno;
  g_resized.store(true);
  if (g_wake[1] >= 0) (void)!write(g_wake[1], "", 1);
  errno = saved;
}

void install_sigint() {
  if (pipe(g_wake) == 0) {
    for (int fd : g_wake) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    for (int fd : g_wake) fcntl(fd, F_SETFD, FD_CLOEXEC);
  }
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: select() must return EINTR
  sigaction(SIGINT, &sa, nullptr);
  sa.sa_handler = on_sigwinch;
  sa.sa_flags = SA_RESTART;  // a resize while code runs must not interrupt a read or write
  sigaction(SIGWINCH, &sa, nullptr);
}

void drain_wake() {
  char buf[64];
  while (g_wake[0] >= 0 && read(g_wake[0], buf, sizeof buf) > 0) {
  }
}

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

std::string human_time(double seconds) {
  char buf[64];
  if (seconds >= 1) std::snprintf(buf, sizeof buf, "%.3f s", seconds);
  else if (seconds >= 1e-3) std::snprintf(buf, sizeof buf, "%.3f ms", seconds * 1e3);
  else std::snprintf(buf, sizeof buf, "%.1f us", seconds * 1e6);
  return buf;
}

// ---- one session -----------------------------------------------------------------

struct Session {
  HostOptions options;
  std::unique_ptr<Host> host;
  int exit_code = -1;  // >= 0 once :quit or sys.exit asked to leave

  explicit Session(HostOptions o) : options(std::move(o)) { fresh(); }
  ~Session() { g_host.store(nullptr); }

  void fresh() {
    g_host.store(nullptr);  // the handler must never see a host being destroyed
    host.reset();
    host = make_host(options);
    g_host.store(host.get());
  }

  // Runs `body` as one input: errors print (with their caret) and the session
  // goes on; sys.exit ends it.
  template <class F> void execute(F&& body) {
    clear_interrupt(*host);
    g_sigints.store(0);
    g_running.store(true);
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
    g_running.store(false);
    clear_interrupt(*host);  // a Ctrl-C that came too late must not hit the next input
    std::fflush(stdout);
    std::fflush(stderr);
  }

  void run_text(std::string text) {
    execute([&] { run_interactive(*host, "<stdin>", std::move(text)); });
  }

  void command(const std::string& line);
  void show_code(const std::string& name, bool ir);
  void show_traces(const std::string& name);
  void show_fields();
  void load(const std::string& path);
};

// The JIT's report holds one entry per trace or abort, each starting with a
// "trace KERNEL.taskN_kind @pc: ..." or "abort KERNEL.taskN_kind @pc: ..." line.
void Session::show_traces(const std::string& name) {
  Program& prog = host::ti_program(*host->ev);
  if (std::string(prog.engine->name()) != "jit") {
    std::printf("this session runs kernels on the %s engine; start it with --engine=jit (or call\n"
                "ti.init(engine=\"jit\")) to trace their loops\n", prog.engine->name());
    return;
  }
  std::string report = jit::trace_report(), out;
  bool keep = false;
  size_t pos = 0;
  while (pos < report.size()) {
    size_t nl = report.find('\n', pos);
    std::string line = report.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos + 1);
    pos = nl == std::string::npos ? report.size() : nl + 1;
    if (line.rfind("trace ", 0) == 0 || line.rfind("abort ", 0) == 0) keep = line.compare(6, name.size() + 1, name + ".") == 0;
    if (keep) out += line;
  }
  if (out.empty()) std::printf("no traces of kernel '%s' yet (a loop becomes a trace once it is hot)\n", name.c_str());
  else std::fputs(out.c_str(), stdout);
}

void Session::command(const std::string& line) {
  size_t sp = line.find_first_of(" \t");
  std::string cmd = line.substr(0, sp);
  std::string arg = sp == std::string::npos ? "" : trim(line.substr(sp));
  auto need_arg = [&](const char* what) {
    if (!arg.empty()) return true;
    std::fprintf(stderr, "usage: %s %s\n", cmd.c_str(), what);
    return false;
  };
  if (cmd == ":help" || cmd == ":h" || cmd == ":?") {
    std::printf("Type Python (Taichi dialect): a statement runs when complete; a block (a line\n"
                "ending in ':' or a decorator) runs at the blank line that closes it. The value of\n"
                "an expression is echoed with its repr. Ctrl-C interrupts running code (or clears\n"
                "the line); Ctrl-D or :quit leaves. Commands:\n");
    for (auto& c : commands()) {
      std::string head = std::string(c.name) + (*c.args ? " " : "") + c.args;
      std::printf("  %-14s %s\n", head.c_str(), c.help);
    }
  } else if (cmd == ":ir" || cmd == ":bc") {
    if (need_arg("NAME")) show_code(arg, cmd == ":ir");
  } else if (cmd == ":trace") {
    if (need_arg("NAME")) show_traces(arg);
  } else if (cmd == ":time") {
    if (!need_arg("STMT")) return;
    auto t0 = std::chrono::steady_clock::now();
    bool failed = true;
    execute([&] {
      run_interactive(*host, "<stdin>", arg + "\n");
      failed = false;
    });
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!failed) std::printf("wall time: %s\n", human_time(s).c_str());
  } else if (cmd == ":fields") {
    show_fields();
  } else if (cmd == ":load") {
    if (need_arg("FILE")) load(arg);
  } else if (cmd == ":reset") {
    fresh();
    std::printf("(a fresh session)\n");
  } else if (cmd == ":quit" || cmd == ":q" || cmd == ":exit") {
    exit_code = 0;
  } else {
    std::fprintf(stderr, "unknown command '%s' (:help lists them)\n", cmd.c_str());
  }
  std::fflush(stdout);
  std::fflush(stderr);
}

void Session::show_code(const std::string& name, bool ir) {
  const auto& dumps = compiled_kernels(*host);
  for (auto it = dumps.rbegin(); it != dumps.rend(); ++it) {
    if (it->name != name) continue;
    const std::string& text = ir ? it->ir : it->bytecode;
    std::fputs(text.c_str(), stdout);
    if (!text.empty() && text.back() != '\n') std::fputc('\n', stdout);
    return;
  }
  auto& vars = host->ev->main_env->vars;
  auto v = vars.find(name);
  if (v != vars.end() && host->ev->type_name(v->second) == "Kernel")
    std::fprintf(stderr, "kernel '%s' has not been compiled yet: kernels compile when first called\n", name.c_str());
  else if (v != vars.end() && host->ev->type_name(v->second) == "Func")
    std::fprintf(stderr, "'%s' is a @ti.func: it is inlined into the kernels that call it\n", name.c_str());
  else {
    std::string known;
    for (auto& k : dumps)
      if (known.find(" " + k.name + ",") == std::string::npos) known += " " + k.name + ",";
    if (!known.empty()) known.pop_back();
    std::fprintf(stderr, "no kernel named '%s' was compiled%s%s\n", name.c_str(),
                 known.empty() ? "" : "; compiled so far:", known.c_str());
  }
}

// The (n, m) of the vector / matrix field a global `name` holds, if it does.
bool compound_dims(host::Evaluator& ev, const std::string& name, int64_t& n, int64_t& m) {
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
  return n > 0 && m > 0;
}

void Session::show_fields() {
  host::TiState& ti = *host->ev->ti;
  if (!ti.program || ti.program->fields.empty()) {
    std::printf("(no fields)\n");
    return;
  }
  struct Row {
    std::string name, shape, dtype, path, bytes;
  };
  std::vector<Row> rows{{"name", "shape", "dtype", "snode path", "bytes"}};
  int64_t total = 0;
  auto& fields = ti.program->fields;
  for (size_t k = 0; k < fields.size();) {
    const FieldInfo& f = *fields[k];
    Row r;
    r.name = f.name.empty() ? "(unnamed)" : f.name;
    r.shape = format_shape(f.shape);
    r.dtype = prim_name(f.dtype);
    // A vector or matrix field is n*m scalar component fields of one name
    // placed under one parent: it gets one row.
    size_t e = k + 1;
    int64_t n = 0, m = 0;
    if (!f.name.empty() && f.place && compound_dims(*host->ev, f.name, n, m) && n * m > 1) {
      while (e < fields.size() && (int64_t)(e - k) < n * m && fields[e]->name == f.name && fields[e]->place &&
             fields[e]->place->parent == f.place->parent && fields[e]->dtype == f.dtype)
        e++;
      if ((int64_t)(e - k) == n * m)
        r.dtype = (m > 1 ? "mat" + std::to_string(n) + "x" + std::to_string(m) : "vec" + std::to_string(n)) + "<" +
                  r.dtype + ">";
      else
        e = k + 1;
    }
    int64_t bytes = 0;
    if (!f.place) {
      r.path = "(not placed)";
    } else {
      int64_t slots = 1;  // how many elements the tree allocates for one component
      std::vector<const SNode*> chain;
      for (const SNode* s = f.place->parent; s; s = s->parent) chain.push_back(s);
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        r.path += (*it)->name() + "->";
        slots *= (*it)->num_cells();
      }
      if (e == k + 1) {
        r.path += f.place->name();
      } else {
        std::string ids;
        for (size_t c = k; c < e; c++) ids += (ids.empty() ? "{S" : ",S") + std::to_string(fields[c]->place->id);
        r.path += ids + "}place<" + std::string(prim_name(f.dtype)) + ">";
      }
      bytes = slots * (prim_bits(f.dtype) / 8) * (int64_t)(e - k);
    }
    total += bytes;
    r.bytes = std::to_string(bytes);
    rows.push_back(std::move(r));
    k = e;
  }
  size_t w[4] = {0, 0, 0, 0};
  for (auto& r : rows) {
    w[0] = std::max(w[0], r.name.size());
    w[1] = std::max(w[1], r.shape.size());
    w[2] = std::max(w[2], r.dtype.size());
    w[3] = std::max(w[3], r.path.size());
  }
  for (auto& r : rows)
    std::printf("%-*s  %-*s  %-*s  %-*s  %s\n", (int)w[0], r.name.c_str(), (int)w[1], r.shape.c_str(), (int)w[2],
                r.dtype.c_str(), (int)w[3], r.path.c_str(), r.bytes.c_str());
  std::printf("%zu field%s, %lld bytes\n", rows.size() - 1, rows.size() == 2 ? "" : "s", (long long)total);
}

void Session::load(const std::string& path) {
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
    } note{*host};
    run_source(*host, path, ss.str());
  });
}

bool is_command(const std::string& line) {
  size_t b = line.find_first_not_of(" \t");
  return b != std::string::npos && line[b] == ':';
}

// ---- the terminal: libedit ---------------------------------------------------------

Session* g_session = nullptr;  // for the completion callbacks
std::vector<std::string> g_matches;
char* g_line = nullptr;
bool g_line_done = false;

char* next_match(const char*, int state) {
  static size_t next = 0;
  if (state == 0) next = 0;
  return next < g_matches.size() ? strdup(g_matches[next++].c_str()) : nullptr;
}

char** attempt_completion(const char* text, int start, int) {
  rl_attempted_completion_over = 1;  // never fall back to file names on our own
  std::string before(rl_line_buffer ? rl_line_buffer : "", rl_line_buffer ? (size_t)start : 0);
  std::string lead = trim(before);
  if (lead.rfind(":load", 0) == 0 && start > 0) return rl_completion_matches(text, rl_filename_completion_function);
  g_matches = complete(*g_session->host, before, text);
  if (g_matches.empty()) return nullptr;
  return rl_completion_matches(text, next_match);
}

void on_line(char* line) {
  g_line = line;
  g_line_done = true;
  rl_callback_handler_remove();
}

enum class Read { line, eof, interrupt };

Read read_terminal_line(const char* prompt, std::string& out) {
  std::fflush(stdout);
  std::fflush(stderr);
  drain_wake();
  g_sigints.store(0);
  g_line_done = false;
  g_line = nullptr;
  rl_callback_handler_install(prompt, on_line);
  while (!g_line_done) {
    fd_set fds;
    FD_ZERO(&fds);
    FD_SET(0, &fds);
    if (g_wake[0] >= 0) FD_SET(g_wake[0], &fds);
    int r = select(std::max(0, g_wake[0]) + 1, &fds, nullptr, nullptr, nullptr);
    if (g_sigints.load() > 0) {
      rl_replace_line("", 0);
      rl_callback_handler_remove();
      return Read::interrupt;
    }
    if (g_resized.exchange(false)) rl_resize_terminal();
    if (r < 0) {
      if (errno == EINTR) continue;
      rl_callback_handler_remove();
      return Read::eof;
    }
    if (FD_ISSET(0, &fds)) rl_callback_read_char();
  }
  if (!g_line) return Read::eof;
  out = g_line;
  std::free(g_line);
  g_line = nullptr;
  return Read::line;
}

std::string history_file() {
  const char* home = std::getenv("HOME");
  return home && *home ? std::string(home) + "/.kiln_history" : "";
}

}  // namespace

int run(HostOptions options) {
  jit::keep_traces(true);  // for :trace
  Session s(std::move(options));
  bool tty = isatty(0);
  std::string history;
  if (tty) {
    g_session = &s;
    install_sigint();
    rl_catch_signals = 0;  // see the top of this file
    rl_readline_name = "kiln";
    rl_attempted_completion_function = attempt_completion;
    // The ti module alone has over a hundred members: list them without
    // asking "Display all N possibilities?" first.
    rl_completion_query_items = 1000;
    // '.' and ':' are not word breaks: "ti.fi" and ":lo" complete as a whole.
    static char breaks[] = " \t\n\"\\'`@$><=;|&{}()[],+-*/%^~!";
    rl_basic_word_break_characters = breaks;
    rl_completer_word_break_characters = breaks;
    rl_completion_append_character = '\0';
    rl_initialize();
    using_history();
    stifle_history(2000);
    history = history_file();
    if (!history.empty()) read_history(history.c_str());
    std::printf("kiln %s (Taichi-dialect Python). :help lists commands; Ctrl-D leaves.\n", KILN_VERSION);
  }
  Chunker chunk;
  while (s.exit_code < 0) {
    std::string line;
    if (tty) {
      Read r = read_terminal_line(chunk.pending() ? "... " : ">>> ", line);
      if (r == Read::interrupt) {
        std::fputs("\nKeyboardInterrupt\n", stdout);
        chunk.clear();
        continue;
      }
      if (r == Read::eof) {
        std::fputc('\n', stdout);
        break;
      }
      if (!trim(line).empty()) add_history(line.c_str());
    } else if (!std::getline(std::cin, line)) {
      if (chunk.pending()) s.run_text(chunk.take());  // the last block needs no blank line
      break;
    } else if (!line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    if (!chunk.pending() && is_command(line)) {
      s.command(trim(line));
      continue;
    }
    if (chunk.add(line)) s.run_text(chunk.take());
  }
  if (tty && !history.empty()) write_history(history.c_str());  // failure to save is not worth a message
  std::fflush(stdout);
  return s.exit_code < 0 ? 0 : s.exit_code;
}

}  // namespace kiln::repl
