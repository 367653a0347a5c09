// libedit glue for the REPLs (see repl_terminal.h).
//
// Line editing uses libedit's callback interface with our own select() loop
// rather than readline(): a blocking readline() swallows the first Ctrl-C
// (libedit retries the interrupted read) and, with libedit's own signal
// handlers, re-sends SIGINT to the whole process group. In the loop a SIGINT
// just wakes select() through a self-pipe, and the prompt is redrawn empty.
#include "tools/repl_terminal.h"

#include <editline/readline.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/select.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kiln::repl {

namespace {

// ---- what the signal handlers may touch: atomics and a pipe ----------------
std::atomic<bool> g_interrupted{false};  // Ctrl-C while reading
std::atomic<bool> g_resized{false};      // SIGWINCH: libedit must learn the new width
int g_wake[2] = {-1, -1};                // self-pipe: wakes select()

void wake() {
  if (g_wake[1] >= 0) (void)!write(g_wake[1], "", 1);
}

void on_sigint(int) {
  int saved = errno;
  g_interrupted.store(true);
  wake();
  errno = saved;
}

// libedit's own handlers are off (rl_catch_signals = 0), so a resize is ours
// to pass on; it is applied in the read loop, outside the handler.
void on_sigwinch(int) {
  int saved = errno;
  g_resized.store(true);
  wake();
  errno = saved;
}

void drain_wake() {
  char buf[64];
  while (g_wake[0] >= 0 && read(g_wake[0], buf, sizeof buf) > 0) {
  }
}

// The SIGINT handler of one read: installed on entry, the previous one restored on exit.
struct ReadSigint {
  struct sigaction old {};
  ReadSigint() {
    struct sigaction sa {};
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_sigint;
    sa.sa_flags = 0;  // no SA_RESTART: select() must return EINTR
    sigaction(SIGINT, &sa, &old);
  }
  ~ReadSigint() { sigaction(SIGINT, &old, nullptr); }
};

Completer g_complete;
std::vector<std::string> g_matches;
char* g_line = nullptr;
bool g_line_done = false;
std::string g_history;

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

char* next_match(const char*, int state) {
  static size_t next = 0;
  if (state == 0) next = 0;
  return next < g_matches.size() ? strdup(g_matches[next++].c_str()) : nullptr;
}

char** attempt_completion(const char* text, int start, int) {
  rl_attempted_completion_over = 1;  // never fall back to file names on our own
  std::string before(rl_line_buffer ? rl_line_buffer : "", rl_line_buffer ? (size_t)start : 0);
  if (trim(before).rfind(":load", 0) == 0 && start > 0) return rl_completion_matches(text, rl_filename_completion_function);
  g_matches = g_complete ? g_complete(before, text) : std::vector<std::string>{};
  if (g_matches.empty()) return nullptr;
  return rl_completion_matches(text, next_match);
}

void on_line(char* line) {
  g_line = line;
  g_line_done = true;
  rl_callback_handler_remove();
}

}  // namespace

void terminal_open(Completer complete) {
  g_complete = std::move(complete);
  if (g_wake[0] < 0 && pipe(g_wake) == 0) {
    for (int fd : g_wake) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    for (int fd : g_wake) fcntl(fd, F_SETFD, FD_CLOEXEC);
  }
  // A resize while code runs must be noted too, and must not interrupt a read or write.
  struct sigaction sa {};
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = on_sigwinch;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGWINCH, &sa, nullptr);
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
  const char* home = std::getenv("HOME");
  g_history = home && *home ? std::string(home) + "/.kiln_history" : "";
  if (!g_history.empty()) read_history(g_history.c_str());
}

void terminal_close() {
  if (!g_history.empty()) write_history(g_history.c_str());  // failure to save is not worth a message
}

Read terminal_read(const char* prompt, std::string& out) {
  std::fflush(stdout);
  std::fflush(stderr);
  ReadSigint sigint;
  drain_wake();
  g_interrupted.store(false);
  g_line_done = false;
  g_line = nullptr;
  rl_callback_handler_install(prompt, on_line);
  while (!g_line_done) {
    fd_set fds;
    FD_ZERO(&fds);
    FD_SET(0, &fds);
    if (g_wake[0] >= 0) FD_SET(g_wake[0], &fds);
    int r = select(std::max(0, g_wake[0]) + 1, &fds, nullptr, nullptr, nullptr);
    if (g_interrupted.exchange(false)) {
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
  if (!trim(out).empty()) add_history(out.c_str());
  return Read::line;
}

}  // namespace kiln::repl
